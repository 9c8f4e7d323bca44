"""docs/deploy.md, followed literally, works: every variable the settings read is in its table and
in deploy/knock.env.example, the files it shows are the files in deploy/, the systemd units keep
every process running with the state folder beat needs, and production built from the example
environment passes ``check --deploy`` and answers a load balancer's health check."""

from __future__ import annotations

import ast
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import requires

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_DOC = ROOT / "docs" / "deploy.md"
ENV_EXAMPLE = ROOT / "deploy" / "knock.env.example"
SYSTEMD = ROOT / "deploy" / "systemd"
SETTINGS = ROOT / "config" / "settings"
# The long-running processes: each must be restarted whatever killed it.
SERVICES = ("knock-web.service", "knock-worker.service", "knock-beat.service")
# What production refuses to start without, or `check --deploy` asks for.
REQUIRED = (
    "DJANGO_SETTINGS_MODULE",
    "SECRET_KEY",
    "DATABASE_URL",
    "CELERY_BROKER_URL",
    "ALLOWED_HOSTS",
    "CACHE_URL",
    "KNOCK_TRUSTED_PROXIES",
)


# -- every variable documented -------------------------------------------------------------------


def settings_variables() -> set[str]:
    """The environment variables config/settings/*.py read through django-environ (``env.X("NAME")``
    or ``environ.Env().X("NAME")``), found in the syntax tree, so a new one cannot be missed.

    test.py is left out: its variables (the test database's file, pytest-xdist's worker) belong to
    the test run, not to a deployment."""
    names = set()
    for path in sorted(SETTINGS.glob("*.py")):
        if path.name == "test.py":
            continue
        for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
                continue
            reader = node.func.value
            from_env = isinstance(reader, ast.Name) and reader.id == "env"
            from_new_env = (
                isinstance(reader, ast.Call)
                and isinstance(reader.func, ast.Attribute)
                and reader.func.attr == "Env"
            )
            if (from_env or from_new_env) and node.args:
                first = node.args[0]
                if isinstance(first, ast.Constant) and isinstance(first.value, str):
                    names.add(first.value)
    return names


def settings_table() -> dict[str, list[str]]:
    """docs/deploy.md's settings table: each variable named in a row's first cell, with the row."""
    section = DEPLOY_DOC.read_text().split("## Settings\n", 1)[1].split("\n## ", 1)[0]
    rows: dict[str, list[str]] = {}
    for line in section.splitlines():
        if not line.startswith("| `"):
            continue
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        for name in re.findall(r"`([A-Z][A-Z0-9_]*)`", cells[0]):
            rows[name] = cells
    return rows


def env_example() -> dict[str, str]:
    """deploy/knock.env.example's variables, set (``NAME=value``) or shown commented out."""
    found = {}
    for line in ENV_EXAMPLE.read_text().splitlines():
        match = re.fullmatch(r"(?:# )?([A-Z][A-Z0-9_]*)=(.*)", line)
        if match:
            found[match[1]] = match[2]
    return found


def test_the_settings_read_variables_the_scan_finds():
    names = settings_variables()
    # the scan itself: a variable read in each style and each file it looks at
    assert {"SECRET_KEY", "CACHE_URL", "KNOCK_LINK_KEY", "CELERY_BROKER_URL"} <= names
    assert {"SECURE_HSTS_PRELOAD", "EMAIL_URL"} <= names  # production.py
    assert "KNOCK_TEST_SQLITE" not in names


def test_every_variable_the_settings_read_is_in_the_deploy_table():
    missing = settings_variables() - set(settings_table())
    assert not missing, f"docs/deploy.md's settings table lacks {sorted(missing)}"


def test_every_variable_the_settings_read_is_in_the_environment_example():
    missing = settings_variables() - set(env_example())
    assert not missing, f"deploy/knock.env.example lacks {sorted(missing)}"


def test_the_table_says_what_production_requires():
    table = settings_table()
    for name in REQUIRED:
        assert table[name][1].startswith("yes"), (name, table[name])
    assert table["KNOCK_LINK_KEY"][1] == "no"
    example = env_example()
    uncommented = {
        m[1] for m in re.finditer(r"^([A-Z][A-Z0-9_]*)=", ENV_EXAMPLE.read_text(), re.MULTILINE)
    }
    assert set(REQUIRED) <= uncommented, "the example leaves a required variable commented out"
    assert example["DJANGO_SETTINGS_MODULE"] == "config.settings.production"


# -- the files the docs show are the files in deploy/ --------------------------------------------

MARKED_BLOCK = re.compile(r"<!-- file: (\S+) -->\n```[a-z]*\n(.*?)```", re.DOTALL)


def test_every_file_the_deploy_doc_shows_is_the_file_in_deploy():
    text = DEPLOY_DOC.read_text()
    shown = dict(MARKED_BLOCK.findall(text))
    assert set(SERVICES) <= {Path(path).name for path in shown}
    for path, body in shown.items():
        assert path.startswith("deploy/"), path
        assert body == (ROOT / path).read_text(), f"docs/deploy.md's copy of {path} differs"


def test_the_deploy_doc_has_no_unmarked_copy_of_a_deploy_file():
    """A unit or nginx server written into the doc by hand would drift: only marked copies."""
    text = MARKED_BLOCK.sub("", DEPLOY_DOC.read_text())
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.DOTALL):
        assert "[Service]" not in block, block
        assert "server {" not in block, block


def test_the_deploy_doc_links_every_file_in_deploy_systemd():
    text = DEPLOY_DOC.read_text()
    for path in SYSTEMD.iterdir():
        assert path.name in text, f"docs/deploy.md never names deploy/systemd/{path.name}"


# -- the units -----------------------------------------------------------------------------------


def unit(name: str) -> dict[str, list[str]]:
    """A unit file's keys and their values (continuation lines joined)."""
    keys: dict[str, list[str]] = {}
    text = (SYSTEMD / name).read_text().replace("\\\n", " ")
    for line in text.splitlines():
        if "=" in line and not line.startswith(("#", "[")):
            key, value = line.split("=", 1)
            keys.setdefault(key, []).append(value)
    return keys


@pytest.mark.parametrize("name", [*SERVICES, "knock-backup.service"])
def test_every_unit_runs_knock_as_the_docs_install_it(name):
    keys = unit(name)
    assert keys["EnvironmentFile"] == ["/etc/knock/knock.env"]
    assert keys["User"] == ["knock"]
    assert keys["WorkingDirectory"] == ["/srv/knock"]
    # systemd makes /var/lib/knock for the user knock: beat's schedule and the static files
    # live there (KNOCK_VAR_DIR), so nobody has to make the folder by hand.
    assert keys["StateDirectory"] == ["knock"]
    assert env_example()["KNOCK_VAR_DIR"] == "/var/lib/knock"
    assert keys["UMask"] == ["0077"]
    command = keys["ExecStart"][0].split()
    assert command[0].startswith("/srv/knock/.venv/bin/")
    assert (Path(sys.executable).parent / Path(command[0]).name).exists(), command[0]


@pytest.mark.parametrize("name", SERVICES)
def test_every_long_running_process_is_started_again_however_it_died(name):
    # "always": a kill -9 and a clean exit alike ("on-failure" leaves a clean exit down)
    assert unit(name)["Restart"] == ["always"]


def test_beat_keeps_its_schedule_in_the_state_folder():
    command = unit("knock-beat.service")["ExecStart"][0]
    assert " beat " in command
    # no --schedule of its own: CELERY_BEAT_SCHEDULE_FILENAME, under KNOCK_VAR_DIR
    assert "--schedule" not in command
    assert "/var/lib/knock/" not in command


def test_the_units_commands_name_modules_that_exist():
    from config.celery_app import app
    from config.wsgi import application
    from core.gunicorn_logging import RedactingLogger

    assert application is not None
    assert app.main == "knock"
    assert RedactingLogger.__name__ == "RedactingLogger"
    web = unit("knock-web.service")["ExecStart"][0]
    assert "config.wsgi:application" in web
    assert "--logger-class core.gunicorn_logging.RedactingLogger" in web
    for name in ("knock-worker.service", "knock-beat.service"):
        assert "-A config.celery_app " in unit(name)["ExecStart"][0]


@requires(shutil.which("systemd-analyze"), "systemd-analyze (Debian's systemd)")
def test_systemd_reads_every_unit_without_a_complaint(tmp_path):
    """``systemd-analyze verify`` on the units, with /srv/knock pointed at this checkout: an
    unknown key or a bad value (``Restart=sometimes``) is a complaint, and fails the test."""
    for path in SYSTEMD.glob("knock-*.*"):
        if path.suffix in (".service", ".timer"):
            (tmp_path / path.name).write_text(path.read_text().replace("/srv/knock", str(ROOT)))
    units = sorted(str(p) for p in tmp_path.iterdir())
    run = subprocess.run(
        ["systemd-analyze", "verify", *units], capture_output=True, text=True, timeout=60
    )
    complaints = [
        line
        for line in (run.stdout + run.stderr).splitlines()
        # this machine's own units, which verify also loads, are not ours to judge
        if str(tmp_path) in line or "knock" in line
    ]
    assert run.returncode == 0, run.stdout + run.stderr
    assert not complaints, run.stdout + run.stderr


def test_knock_manage_is_a_valid_shell_script():
    script = SYSTEMD / "knock-manage"
    assert os.access(script, os.X_OK)
    assert subprocess.run(["sh", "-n", str(script)], capture_output=True).returncode == 0
    text = script.read_text()
    for part in ("EnvironmentFile=", "/etc/knock/knock.env", "StateDirectory=knock", "--uid=knock"):
        assert part in text, part


# -- production from the example environment -----------------------------------------------------


def production(tmp_path: Path, code: str) -> subprocess.CompletedProcess[str]:
    """Run ``code`` under config.settings.production, with deploy/knock.env.example's values (a
    real key, a folder of the test's own, and servers that refuse: no database, no Redis)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("KNOCK_", "DJANGO_"))}
    for key in ("DATABASE_URL", "CELERY_BROKER_URL", "CACHE_URL", "SECRET_KEY"):
        env.pop(key, None)
    example = {k: v for k, v in env_example().items() if f"\n{k}=" in ENV_EXAMPLE.read_text()}
    env.update(example)
    env.update(
        SECRET_KEY=secrets.token_urlsafe(50),
        KNOCK_VAR_DIR=str(tmp_path),
        DATABASE_URL="postgres://knock:x@127.0.0.1:1/knock",
        CELERY_BROKER_URL="redis://127.0.0.1:1/0",
        CACHE_URL="redis://127.0.0.1:1/2",
    )
    return subprocess.run(
        [sys.executable, "-c", f"import django; django.setup()\n{code}"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_example_environment_passes_check_deploy(tmp_path):
    run = production(
        tmp_path,
        "from django.core.management import call_command\n"
        "call_command('check', deploy=True, fail_level='WARNING')",
    )
    assert run.returncode == 0, run.stderr


def test_a_load_balancer_probe_by_address_over_http_gets_the_health_answer(tmp_path):
    """Production as the example configures it: /healthz by address over plain HTTP is answered
    (503 here: no database), never 400 for the host or 301 to HTTPS; /api/health/ is not sent to
    HTTPS either; everything else still is; HSTS names no subdomains and asks no preload."""
    code = """
import json
from django.test import Client
c = Client()
out = {}
r = c.get("/healthz", HTTP_HOST="10.0.0.5")
out["probe"] = [r.status_code, r["Content-Type"], json.loads(r.content)["database"]["ok"]]
out["api"] = c.get("/api/health/", HTTP_HOST="knock.example.org").status_code
r = c.get("/", HTTP_HOST="knock.example.org")
out["page"] = [r.status_code, r.get("Location")]
out["other_host"] = c.get("/api/clubs/", HTTP_HOST="10.0.0.5").status_code
r = c.get("/api/no-such-thing/", HTTP_HOST="knock.example.org", HTTP_X_FORWARDED_PROTO="https")
out["hsts"] = r["Strict-Transport-Security"]
print(json.dumps(out))
"""
    run = production(tmp_path, code)
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout.strip().splitlines()[-1])
    assert out["probe"] == [503, "application/json", False]
    assert out["api"] == 503
    assert out["page"] == [301, "https://knock.example.org/"]
    assert out["other_host"] == 400
    assert out["hsts"] == "max-age=31536000"
