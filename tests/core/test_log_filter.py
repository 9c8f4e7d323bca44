"""The log filter (core.logging.RedactSecrets): a link's secret or a check-in token never reaches
a log line, whatever carries it (the message, its arguments, gunicorn's atoms, a traceback)."""

from __future__ import annotations

import io
import logging
from datetime import timedelta
from types import SimpleNamespace

import pytest
from django.conf import settings

from core.logging import RedactSecrets, redact, redact_handlers

SECRET = "AbCdEfGhIjKlMnOpQrStUvWxYz012-_9"
TOKEN = "tK3n-0f_a-Pl4yer22x"


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        (f"Too Many Requests: /l/{SECRET}/", "Too Many Requests: /l/..."),
        (f"Not Found: /checkin/{TOKEN}/", "Not Found: /checkin/..."),
        (f'"POST /api/checkin/{TOKEN}/ HTTP/1.1" 200', '"POST /api/checkin/... HTTP/1.1" 200'),
        (f"https://knock.example/l/#{SECRET} sent", "https://knock.example/l/... sent"),
        (f'"http://h/checkin/{TOKEN}/" "curl"', '"http://h/checkin/..." "curl"'),
        (f"GET /matches/4/?k={SECRET}&x=1", "GET /matches/4/?k=...&x=1"),
        (f"X-Match-Key: {SECRET}", "X-Match-Key: ..."),
        (f"{{'HTTP_X_MATCH_KEY': '{SECRET}'}}", "{'HTTP_X_MATCH_KEY': '...'}"),
        (f'{{"checkin_token": "{TOKEN}"}}', '{"checkin_token": "..."}'),
        (f"{{'path': 'l/{SECRET}/'}}", "{'path': 'l/...'}"),
        (
            f'"GET /accounts/password_reset/MQ/{TOKEN}/ HTTP/1.1"',
            '"GET /accounts/password_reset/... HTTP/1.1"',
        ),
    ],
)
def test_redact_hides_every_form_a_secret_travels_in(line, expected):
    assert redact(line) == expected


@pytest.mark.parametrize(
    "line",
    [
        "GET /events/5/registrations/7/checkin/ HTTP/1.1",
        "GET /events/5/checkin-codes/?paper=a4 HTTP/1.1",
        "GET /l/ HTTP/1.1",
        "GET /static/css/knock.css HTTP/1.1",
        "GET /api/matches/4/hands/?limit=10 HTTP/1.1",
        "POST /api/checkin/ HTTP/1.1",
        "GET /accounts/password_reset/done/ HTTP/1.1",
        "GET /accounts/password_reset/complete/ HTTP/1.1",
    ],
)
def test_redact_leaves_other_lines_alone(line):
    assert redact(line) == line


def _record(msg, args, *, exc_info=None) -> logging.LogRecord:
    return logging.LogRecord("django.request", logging.WARNING, __file__, 1, msg, args, exc_info)


def test_the_filter_redacts_the_formatted_message_and_keeps_the_record():
    record = _record("Too Many Requests: %s", (f"/l/{SECRET}/",))
    assert RedactSecrets().filter(record) is True
    assert logging.Formatter("%(levelname)s %(message)s").format(record) == (
        "WARNING Too Many Requests: /l/..."
    )
    # gunicorn's access log passes its atoms as a mapping
    atoms = {"r": f"GET /checkin/{TOKEN}/ HTTP/1.1", "s": "200", "f": f"http://h/l/{SECRET}/"}
    record = _record('"%(r)s" %(s)s "%(f)s"', (atoms,))
    RedactSecrets().filter(record)
    assert record.getMessage() == '"GET /checkin/... HTTP/1.1" 200 "http://h/l/..."'


def test_the_filter_redacts_a_traceback():
    try:
        raise ValueError(f"no match for /l/{SECRET}/")
    except ValueError:
        import sys

        record = _record(
            "Internal Server Error: %s", (f"/checkin/{TOKEN}/",), exc_info=sys.exc_info()
        )
    RedactSecrets().filter(record)
    text = logging.Formatter().format(record)
    assert "ValueError: no match for /l/..." in text
    assert SECRET not in text
    assert TOKEN not in text


def test_the_settings_route_django_and_its_request_log_through_the_filter():
    handlers = settings.LOGGING["handlers"]
    assert settings.LOGGING["filters"]["redact_secrets"]["()"] == "core.logging.RedactSecrets"
    assert "redact_secrets" in handlers["console"]["filters"]
    assert settings.LOGGING["root"]["handlers"] == ["console"]
    for name in ("django", "django.server"):
        assert settings.LOGGING["loggers"][name] == {
            "handlers": [],
            "level": "INFO",
            "propagate": True,
        }
    # and live: what django.request writes through the configured console handler
    consoles = [
        h
        for h in logging.getLogger().handlers
        if any(isinstance(f, RedactSecrets) for f in h.filters)
    ]
    assert consoles
    assert not logging.getLogger("django").handlers
    stream = io.StringIO()
    old = consoles[0].setStream(stream)
    try:
        logging.getLogger("django.request").warning("Too Many Requests: %s", f"/l/{SECRET}/")
    finally:
        consoles[0].setStream(old)
    assert stream.getvalue() == "Too Many Requests: /l/...\n"


def test_gunicorns_access_and_error_logs_are_redacted(tmp_path):
    from gunicorn.config import Config

    from core.gunicorn_logging import RedactingLogger

    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    cfg.set("errorlog", str(tmp_path / "error.log"))
    log = RedactingLogger(cfg)
    try:
        environ = {
            "REQUEST_METHOD": "GET",
            "RAW_URI": f"/l/{SECRET}/",
            "PATH_INFO": f"/l/{SECRET}/",
            "QUERY_STRING": "",
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "HTTP_REFERER": f"http://knock.example/checkin/{TOKEN}/",
        }
        response = SimpleNamespace(status="429 Too Many Requests", sent=12, headers=[])
        request = SimpleNamespace(headers=[])
        log.access(response, request, environ, timedelta(milliseconds=5))
        log.error("Error handling request %s", f"/checkin/{TOKEN}/")
        log.reopen_files()
    finally:
        for name in ("gunicorn.access", "gunicorn.error"):
            logger = logging.getLogger(name)
            for handler in list(logger.handlers):
                handler.close()
                logger.removeHandler(handler)
    access = (tmp_path / "access.log").read_text()
    error = (tmp_path / "error.log").read_text()
    assert '"GET /l/... HTTP/1.1" 429 12 "http://knock.example/checkin/..."' in access
    assert "Error handling request /checkin/..." in error
    assert SECRET not in access + error
    assert TOKEN not in access + error


def test_celerys_handlers_get_the_filter_once():
    logger = logging.getLogger("tests.celery-like")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    try:
        redact_handlers(
            logger=logger, sender=None, loglevel=20, logfile=None, format="", colorize=False
        )
        redact_handlers(logger=logger)
        assert sum(isinstance(f, RedactSecrets) for f in handler.filters) == 1
        logger.propagate = False
        logger.warning("task got %s", f"https://knock.example/checkin/#{TOKEN}")
        assert handler.stream.getvalue() == "task got https://knock.example/checkin/...\n"
    finally:
        logger.removeHandler(handler)
        logger.propagate = True
