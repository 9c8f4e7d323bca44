"""Fixtures shared by the whole suite: a real Celery worker process on the test database, and a
broker that is down."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from tests.support import database_url, sqlite_files_remove

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _fresh_cache() -> None:
    """Each test starts with an empty cache: ids are given again after a test's rows are rolled
    back, and what one test left under an id (a spectator's live regions kept by version,
    core.live) must not meet another test's object of the same id and version."""
    from django.conf import settings

    if settings.configured:
        from django.core.cache import cache

        cache.clear()


@pytest.fixture
def drawn_renders(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The templates core.drawn draws, one name per drawing (a row it kept is not drawn again),
    starting with nothing kept."""
    from core import drawn

    drawn.forget()
    calls: list[str] = []
    real = drawn.render_to_string

    def counting(name: str, context: dict[str, object]) -> str:
        calls.append(name)
        return real(name, context)

    monkeypatch.setattr(drawn, "render_to_string", counting)
    yield calls
    drawn.forget()


@pytest.fixture(autouse=True)
def _site_language() -> Iterator[None]:
    """Each test starts in the site's language: a request read in Korean leaves Korean active in
    the thread (LocaleMiddleware activates it and nothing switches it back between test client
    requests), which made a later test that reads an English message fail by its order alone."""
    yield
    from django.conf import settings

    if settings.configured:
        from django.utils import translation

        translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture(scope="session")
def django_db_modify_db_settings(
    request: pytest.FixtureRequest, django_db_modify_db_settings_parallel_suffix: None
) -> None:
    """Start from no SQLite test database at all, whatever an interrupted run left.

    pytest-django's own fixture (overridden here) only names the database of each xdist worker;
    this one then removes that file with its ``-wal``, ``-shm`` and ``-journal``
    (:func:`tests.support.sqlite_files_remove`), unless ``--reuse-db`` asks to keep it.
    """
    if request.config.getvalue("reuse_db") and not request.config.getvalue("create_db"):
        return
    from django.conf import settings

    for database in settings.DATABASES.values():
        name = str(database.get("TEST", {}).get("NAME") or "")
        if database["ENGINE"].endswith("sqlite3") and name and "memory" not in name:
            sqlite_files_remove(Path(name))


@contextmanager
def celery_worker(*, purge: bool = True, extra_env: dict[str, str] | None = None) -> Iterator[str]:
    """Run ``celery worker`` as a separate process on the test database and broker.

    With ``purge``, messages left in the broker by earlier tests (their events are gone) are
    dropped first. Yields the worker's node name; the worker is stopped on exit.
    """
    from django.conf import settings
    from django.db import connection

    from config.celery_app import app

    broker = settings.CELERY_BROKER_URL
    if purge:
        app.control.purge()
    node = f"test-{uuid.uuid4().hex[:8]}@%h"
    env = dict(os.environ)
    env.update(
        DJANGO_SETTINGS_MODULE="config.settings.test",
        DATABASE_URL=database_url(connection.settings_dict),
        CELERY_BROKER_URL=broker,
        PYTHONUNBUFFERED="1",
        **(extra_env or {}),
    )
    log = (Path(settings.VAR_DIR) / f"test-worker-{node[:13]}.log").open("wb")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "celery",
            "-A",
            "config",
            "worker",
            "--pool",
            "solo",
            "-l",
            "INFO",
            "-n",
            node,
            "--without-gossip",
            "--without-mingle",
        ],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    time.sleep(0.5)
    if proc.poll() is not None:
        raise RuntimeError(f"the Celery worker exited at once; see {log.name}")
    try:
        yield node
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=20)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


@pytest.fixture(scope="module")
def celery_worker_process(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """A real Celery worker process on the test database and broker, for one test module.

    Tests that use it must also use ``transactional_db`` so that what they write is committed
    and visible to the worker. Scoped to a module, so the worker is gone before later tests run:
    their on-commit tasks then wait in the broker (purged at the next start) instead of racing
    the tests that expect standings to be behind.
    """
    with celery_worker() as node:
        yield node


@contextmanager
def broker_unreachable() -> Iterator[str]:
    """Point this process's Celery app at a port where nothing listens (a broker that is down).

    Requests made meanwhile send their tasks there, exactly as with a broker that crashed;
    the app's connection and producer pools are rebuilt on entry and on exit.
    """
    from config.celery_app import app

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    dead = f"redis://127.0.0.1:{port}/0"

    def reset() -> None:
        # kombu keeps one pool per broker URL; dropping the app's references picks the URL's.
        app._pool = None
        app.amqp._producer_pool = None

    # Celery reads CELERY_BROKER_URL from the environment before its configuration.
    names = ("CELERY_BROKER_URL", "CELERY_BROKER_WRITE_URL")
    saved_env = {name: os.environ.get(name) for name in names}
    keys = ("broker_url", "broker_write_url", "broker_transport_options")
    saved = {key: app.conf.get(key) for key in keys}
    os.environ.update(dict.fromkeys(names, dead))
    app.conf.update(broker_url=dead, broker_write_url=dead, broker_transport_options={})
    reset()
    try:
        assert app.connection_for_write().port == port
        yield dead
    finally:
        for name, value in saved_env.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        app.conf.update(saved)
        reset()


def wait_for(predicate: object, *, timeout: float = 30.0, interval: float = 0.2) -> bool:
    """Poll ``predicate()`` until it is true or ``timeout`` seconds pass."""
    assert callable(predicate)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(interval)
    return bool(predicate())
