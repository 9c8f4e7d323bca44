# Knock. `make run` and `make test` need only Python 3.11 on the machine.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
PIP := $(BIN)/python -m pip

.PHONY: run test check bench drills fmt install install-dev migrate demo clean
# Where `make run` listens: ADDR=0.0.0.0:8000 lets phones on the club's Wi-Fi in (docs/operations.md).
ADDR ?= 127.0.0.1:8000

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(PIP) install --quiet -e '.[dev]'
	touch $@ $(VENV)/.installed

$(VENV)/.installed-bench: pyproject.toml | $(BIN)/python
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

test: install-dev
	$(BIN)/python -m pytest $(PYTEST_ARGS)

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

fmt: install-dev
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

clean:
	rm -rf $(VENV) var
