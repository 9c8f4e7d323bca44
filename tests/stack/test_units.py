"""The stack runs what deploy/ says: the units' command lines and the environment example's
names, read from the files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from stack.launch import redis_moved, stack_env
from stack.units import env_example, unit_command


def test_a_units_command_comes_from_its_file_with_only_the_options_asked_replaced() -> None:
    argv = unit_command("knock-web.service", {"--bind": "127.0.0.1:8123", "--workers": "3"})
    assert Path(argv[0]).name == "gunicorn"
    assert not argv[0].startswith("/srv/knock")
    assert argv[1] == "config.wsgi:application"
    assert argv[argv.index("--bind") + 1] == "127.0.0.1:8123"
    assert argv[argv.index("--workers") + 1] == "3"
    # the rest of the line (continued with a backslash) is the unit's own
    assert argv[argv.index("--logger-class") + 1] == "core.gunicorn_logging.RedactingLogger"
    worker = unit_command("knock-worker.service")
    assert worker[1:4] == ["-A", "config.celery_app", "worker"]
    assert unit_command("knock-beat.service")[3] == "beat"


def test_an_option_the_unit_lacks_is_refused() -> None:
    with pytest.raises(RuntimeError, match="--nope"):
        unit_command("knock-beat.service", {"--nope": "1"})


def test_the_example_gives_values_and_names() -> None:
    values, names = env_example()
    assert values["DJANGO_SETTINGS_MODULE"] == "config.settings.production"
    assert "SECRET_KEY" in values
    assert {"KNOCK_LIVE_PUBLISH_URL", "CSRF_TRUSTED_ORIGINS"} <= names - set(values)


def test_the_stacks_environment_uses_the_examples_names_and_database_numbers(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("DATABASE_URL", "postgres://elsewhere/x")
    env = stack_env(
        workdir=tmp_path,
        database_url="postgres://postgres@127.0.0.1:5999/knock",
        redis_port=6999,
        https_port=8443,
        publish_port=8010,
    )
    values, names = env_example()
    assert env["DATABASE_URL"] == "postgres://postgres@127.0.0.1:5999/knock"
    assert env["CELERY_BROKER_URL"] == redis_moved(values["CELERY_BROKER_URL"], 6999)
    assert env["CACHE_URL"].startswith("redis://127.0.0.1:6999/")
    assert env["CACHE_URL"].rsplit("/", 1)[1] == values["CACHE_URL"].rsplit("/", 1)[1]
    assert len(env["SECRET_KEY"]) >= 50
    assert env["KNOCK_LIVE_PUBLISH_URL"] == "http://127.0.0.1:8010/live/pub/"
    assert "https://127.0.0.1:8443" in env["CSRF_TRUSTED_ORIGINS"]
    assert env["KNOCK_VAR_DIR"] == str(tmp_path / "var")
    added = set(env) - set(os.environ)
    assert added - {"PYTHONUNBUFFERED"} <= names


def test_redis_moved_keeps_the_database_number() -> None:
    assert redis_moved("redis://127.0.0.1:6379/2", 7001) == "redis://127.0.0.1:7001/2"
