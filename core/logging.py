"""No secret in Knock's own logs: a filter that redacts private links before a line is written.

A match link's secret and a player's check-in token are credentials. They are issued only as a
URL's fragment (``/l/#<secret>``, ``/checkin/#<token>``), which browsers never send, but a link
typed by hand (``/l/<secret>/``, ``/checkin/<token>/``, ``/api/checkin/<token>/``) or an old
printed card still puts one in a request's path, and from there into Django's request log
(``Too Many Requests: /l/<secret>/``), gunicorn's access and error logs, a ``Referer`` and any
traceback. :class:`RedactSecrets` rewrites every line before a handler
writes it:

- ``/l/<anything>`` → ``/l/...`` and ``/checkin/<anything>`` → ``/checkin/...`` (so
  ``/api/checkin/<token>/`` too, and a whole link with its ``#fragment``);
- the value of ``X-Match-Key`` (or ``HTTP_X_MATCH_KEY``), ``checkin_token`` and ``secret``
  where a line shows one (``name: value``, ``name=value``, ``'name': 'value'``);
- the value of the ``k`` query parameter (``?k=<secret>``, the pages' link parameter);
- a password reset link's token (``/accounts/password_reset/<uid>/<token>/``).

The filter formats the record's message with its arguments first (``msg % args``: gunicorn's
access log passes its atoms as a mapping) and redacts the result, and redacts a traceback's
text, so nothing reaches a formatter unredacted. It is attached in ``LOGGING``
(config/settings/base.py) to the console handler every Django and Celery record goes through,
to gunicorn's own handlers by :mod:`core.gunicorn_logging`, and to Celery's by the
``after_setup_*logger`` signals (config/celery_app.py). docs/deploy.md's nginx ``log_format``
(deploy/nginx/knock-log.conf) does the same for the proxy's access log.

No Django import: gunicorn's logger class and Celery import this before Django is set up.
"""

from __future__ import annotations

import logging
import re
from typing import Any

REDACTED = "..."

# A link path: "/l/" or "/checkin/" anywhere (so "/api/checkin/<token>/" too), or at the start
# of a word without its slash ("'path': 'l/<secret>/'" in a resolver's message); what follows
# runs to the next blank, quote, bracket or separator.
_PATH = re.compile(
    r"(?P<head>/(?:l|p|checkin)/|(?<![\w.~%/-])(?:l|p|checkin)/)(?P<tail>[^\s\"'<>()\[\]{},;|\\]+)"
)
# A named value: X-Match-Key: <secret>, HTTP_X_MATCH_KEY='<secret>', "checkin_token": "<token>".
_NAMED = re.compile(
    r"(?P<head>(?:x[-_](?:match|pass)[-_]key|checkin_token|secret)[\"']?\s*[:=]\s*[\"']?)"
    r"(?P<tail>[^\s\"'<>()\[\]{},;&|\\]+)",
    re.IGNORECASE,
)
# The pages' link parameter: ?k=<secret> or &k=<secret>.
_PARAM = re.compile(r"(?P<head>[?&](?:amp;)?k=)(?P<tail>[^\s\"'<>&#;]+)")
# A password reset link: /accounts/password_reset/<uidb64>/<token>/ (not .../done/, .../complete/).
_RESET = re.compile(
    r"(?P<head>/password_reset/)(?!done/|complete/)(?P<tail>[^\s\"'<>()\[\]{},;|\\]+)"
)


def redact(text: str) -> str:
    """``text`` with every link secret and check-in token replaced by ``...``.

    >>> redact("Too Many Requests: /l/AbCdEfGhIjKlMnOpQrStUvWxYz012345/")
    'Too Many Requests: /l/...'
    >>> redact('"POST /api/checkin/tok3n/ HTTP/1.1" 200')
    '"POST /api/checkin/... HTTP/1.1" 200'
    >>> redact("GET /events/5/registrations/7/checkin/ HTTP/1.1")
    'GET /events/5/registrations/7/checkin/ HTTP/1.1'
    >>> redact("x-match-key: s3cret")
    'x-match-key: ...'
    """
    if "/" in text:
        text = _PATH.sub(lambda m: m["head"] + REDACTED, text)
    if "=" in text or ":" in text:
        text = _NAMED.sub(lambda m: m["head"] + REDACTED, text)
    if "k=" in text:
        text = _PARAM.sub(lambda m: m["head"] + REDACTED, text)
    if "/password_reset/" in text:
        text = _RESET.sub(lambda m: m["head"] + REDACTED, text)
    return text


class RedactSecrets(logging.Filter):
    """Lets every record through, with its secrets redacted (see the module)."""

    def filter(self, record: logging.LogRecord) -> bool:
        try:
            message = record.getMessage()
        except Exception:  # a record whose arguments do not fit its format: redact what is there
            message = f"{record.msg} {record.args!r}"
        record.msg = redact(message)
        record.args = ()
        if record.exc_info and not record.exc_text:
            record.exc_text = logging.Formatter().formatException(record.exc_info)
        if record.exc_text:
            record.exc_text = redact(record.exc_text)
        if record.stack_info:
            record.stack_info = redact(record.stack_info)
        return True


_FILTER = RedactSecrets()


def redact_handlers(logger: logging.Logger | None = None, **_: Any) -> None:
    """Attach :class:`RedactSecrets` to every handler of ``logger`` (the root logger by default)
    that does not have one yet. Its signature fits Celery's ``after_setup_logger`` signal."""
    target = logger if logger is not None else logging.getLogger()
    for handler in target.handlers:
        if not any(isinstance(f, RedactSecrets) for f in handler.filters):
            handler.addFilter(_FILTER)
