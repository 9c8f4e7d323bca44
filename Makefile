# Knock. `make run` and `make test` need only Python 3.11, 3.12 or 3.13 on the machine.
# make picks the newest supported Python it finds (scripts/find-python; PYTHON=... overrides it)
# and rebuilds the venv when it was made by another Python or left half-made by a failed try.
PYTHON ?= $(shell scripts/find-python)
VENV ?= .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip

ifneq ($(MAKECMDGOALS),clean)
ifeq ($(strip $(PYTHON)),)
$(error No supported Python found: Knock needs Python 3.11, 3.12 or 3.13 (python3.13, python3.12 or python3.11 on PATH, or a pyenv install))
endif
# e.g. "3.13.0 /root/.pyenv/versions/3.13.0/bin/python3.13"; empty if PYTHON does not run or is out of range
PY_ID := $(shell $(PYTHON) -c 'import platform, sys; ok = (3, 11) <= sys.version_info[:2] < (3, 14); ok and print(platform.python_version(), sys.executable)' 2>/dev/null)
ifeq ($(strip $(PY_ID)),)
$(error $(PYTHON) is not a supported Python: Knock needs Python 3.11, 3.12 or 3.13)
endif
$(info make: using Python $(PY_ID) for $(VENV))
endif
# The venv is stamped with the Python that made it: another one (or none, after a failed try)
# makes the stamp missing, so the venv is built again from scratch.
VENV_STAMP := $(VENV)/.made-by-python-$(firstword $(PY_ID))
# Where `make run` listens: ADDR=0.0.0.0:8000 lets phones on the club's Wi-Fi in (docs/operations.md).
ADDR ?= 127.0.0.1:8000

.PHONY: run test test-fast contract check bench drills loadtest stack fmt install install-dev migrate demo clean

$(VENV_STAMP):
	rm -rf $(VENV)
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip
	touch $@

# Each stamp is touched only after its install succeeded, so a failed one is simply retried.
$(VENV)/.installed: pyproject.toml $(VENV_STAMP)
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml $(VENV_STAMP)
	$(PIP) install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-loadtest: pyproject.toml $(VENV_STAMP)
	$(PIP) install --quiet -e '.[dev,loadtest]'
	touch $@ $(VENV)/.installed-dev $(VENV)/.installed

$(VENV)/.installed-bench: pyproject.toml $(VENV_STAMP)
	$(PIP) install --quiet -e '.[dev,bench]'
	touch $@ $(VENV)/.installed-dev $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(BIN)/python manage.py migrate --noinput

demo: migrate
	$(BIN)/python manage.py demo

run: demo
	$(BIN)/python manage.py serve --addr $(ADDR)

# The whole suite, once, in two pytest runs: all but SERIAL_MARKERS on every core (pytest-xdist,
# each worker its own test database and broker file), then SERIAL_MARKERS in one process: the
# tests that start a real Celery worker, drive Chromium or count the broker's queue. JUNIT_DIR=d
# writes d/parallel.xml and d/serial.xml (CI counts them). A run that selects nothing in one of
# the two parts (pytest's exit 5, say PYTEST_ARGS=tests/e2e) is not a failure of that part.
SERIAL_MARKERS := worker or e2e or broker
TEST_WORKERS ?= auto
test: install-dev
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not ($(SERIAL_MARKERS))" $(PYTEST_ARGS) \
	  $(if $(JUNIT_DIR),--junitxml=$(JUNIT_DIR)/parallel.xml) || [ $$? -eq 5 ]
	$(BIN)/python -m pytest -m "$(SERIAL_MARKERS)" $(PYTEST_ARGS) \
	  $(if $(JUNIT_DIR),--junitxml=$(JUNIT_DIR)/serial.xml) || [ $$? -eq 5 ]

# The inner loop: the suite without the browser, worker, contract and venue tests, spread over
# TEST_WORKERS processes by pytest-xdist (each with its own test database and broker file).
FAST_MARKERS := not e2e and not worker and not contract and not venue
test-fast: install-dev
	$(BIN)/python -m pytest -m "$(FAST_MARKERS)" --ignore=tests/e2e -n $(TEST_WORKERS) $(PYTEST_ARGS)

# The API contract: Schemathesis walks every operation of /api/schema/ against a live server.
contract: install-dev
	$(BIN)/python -m pytest tests/contract -m contract $(PYTEST_ARGS)

# `make check` runs every step (make -k keeps going past a failure) and names each one that passed.
CHECK_STEPS := check-lint check-format check-types check-imports check-migrations check-deploy
.PHONY: $(CHECK_STEPS)

check: install-dev
	$(MAKE) --no-print-directory -k $(CHECK_STEPS)

check-lint: install-dev
	$(BIN)/ruff check .
	@echo "check: $@ passed"

check-format: install-dev
	$(BIN)/ruff format --check .
	@echo "check: $@ passed"

check-types: install-dev
	$(BIN)/mypy .
	@echo "check: $@ passed"

check-imports: install-dev
	$(BIN)/lint-imports
	@echo "check: $@ passed"

check-migrations: install-dev
	DJANGO_SETTINGS_MODULE=config.settings.test $(BIN)/python manage.py makemigrations --check --dry-run
	@echo "check: $@ passed"

check-deploy: install-dev
	DJANGO_SETTINGS_MODULE=config.settings.production \
	  SECRET_KEY='check-only-7d1f0c3a9b2e4f6a8c5d1e3f7a9b0c2d4e6f8a1b3c5d7e9f' \
	  DATABASE_URL='postgres://knock@127.0.0.1:5432/knock' \
	  CELERY_BROKER_URL='redis://127.0.0.1:6379/0' ALLOWED_HOSTS='knock.example' \
	  CACHE_URL='redis://127.0.0.1:6379/2' KNOCK_TRUSTED_PROXIES='127.0.0.1' \
	  $(BIN)/python manage.py check --deploy --fail-level WARNING
	@echo "check: $@ passed"

# The tournament benchmarks run on the local PostgreSQL when one answers (else on SQLite).
bench: $(VENV)/.installed-bench
	@if [ -z "$$DATABASE_URL" ] && $(BIN)/python -c "import psycopg; \
	  psycopg.connect('postgresql://postgres@127.0.0.1:5432/postgres', connect_timeout=2).close()" \
	  2>/dev/null; then export DATABASE_URL=postgres://postgres@127.0.0.1:5432/knock_bench; fi; \
	$(BIN)/python -m bench $(BENCH)

# Fault drills: the whole stack (embedded default, then PostgreSQL + Redis) through a club night
# with faults injected; see docs/operations.md. Set DRILLS="sqlite" or "postgres" to run one stack.
drills: install-dev
	$(BIN)/python -m drills $(DRILLS)

# A club night against a real `manage.py serve` (gunicorn + worker + beat): 50 tables, 200
# spectators polling, a hand every 60-120 s a table for 4 minutes (docs/live.md); LOADTEST_PACE=rush
# plays ten times a real night for a minute. Embedded default, or PostgreSQL + Redis when
# DATABASE_URL and CELERY_BROKER_URL are set. LOADTEST_SECONDS, _TABLES, _SPECTATORS change it.
# LOADTEST_PACE=open: a national open (round 1 of a Swiss, 250 tables, 2,500 spectators) through
# the reference stack (`make stack`); LOADTEST_PASSES=N adds N players polling their pass.
loadtest: $(VENV)/.installed-loadtest
	$(BIN)/python -m loadtest

# The reference stack on this machine, in the foreground until Ctrl-C: nginx (deploy/nginx/),
# gunicorn, the Celery worker and beat (deploy/systemd/), PostgreSQL and Redis of its own, on free
# ports, with the demo club (docs/deploy.md). STACK_WORKERS sets gunicorn's processes.
stack: install-dev
	$(BIN)/python -m stack

fmt: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) .venv-* var
