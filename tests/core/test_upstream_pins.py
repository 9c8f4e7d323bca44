"""Three home-made parts lean on code of Django, kombu and Celery that is not their public API.
Each was measured against what the library ships (docs/architecture.md, "Home-made parts") and
kept; these tests pin the upstream code each one replaces or wraps, so that an upgrade that
changes it fails here, with what to check again, instead of in production.

When one fails: read the new upstream code, check that the part still does what it says (and
whether the library now does it itself: then drop the part), run the part's own tests and the
measurement named in the message, then update the hash here.
"""

from __future__ import annotations

import hashlib
import inspect
from typing import Any

import celery
import django
import kombu
from celery import beat
from django.db.backends.sqlite3 import base as sqlite_base
from kombu.transport import sqlalchemy as kombu_sqlalchemy
from kombu.transport.virtual import base as kombu_virtual


def _digest(code: Any) -> str:
    return hashlib.sha256(inspect.getsource(code).encode()).hexdigest()[:16]


def test_the_sqlite_write_gate_wraps_django_5_2_s_transaction_methods():
    """core.sqlite3 takes its gate before Django's BEGIN (``transaction_mode``) and lets it go
    after its commit, rollback and close: Django's private methods, wrapped, not rewritten."""
    wrapper = sqlite_base.DatabaseWrapper
    pinned = {
        "_start_transaction_under_autocommit": "7315cfc61c1dde12",
        "_commit": "8ebc361e1e8fcb8d",
        "_rollback": "d671ec3bb3c8ed44",
        "_close": "d1a3f0e9a11cd084",
        "get_new_connection": "99ddcd0012130edd",
        "create_cursor": "9e8198be0a5d41e9",
    }
    seen = {name: _digest(getattr(wrapper, name)) for name in pinned}
    assert seen == pinned, (
        f"Django {django.__version__} changed the SQLite backend methods core.sqlite3 wraps: "
        "check that BEGIN still goes through _start_transaction_under_autocommit (with "
        "OPTIONS transaction_mode) and that every transaction ends in _commit, _rollback or "
        "_close (else the gate is never let go), whether Django now queues writers itself, "
        "then run tests/core/test_sqlite_gate.py and the concurrent-writers measurement."
    )
    cursor = sqlite_base.SQLiteCursorWrapper
    assert (_digest(cursor.execute), _digest(cursor.executemany)) == (
        "0b4a43882cc88942",
        "52fa6c310dee4219",
    ), "Django changed SQLiteCursorWrapper, which core.sqlite3's gated cursor subclasses."


def test_the_embedded_broker_replaces_kombu_5_7_s_polling_loop():
    """core.broker.EmbeddedTransport rewrites ``virtual.Transport.drain_events`` (a wait chosen
    per look) and is made the ``sqla`` transport through ``TRANSPORT_ALIASES``. The SQLAlchemy
    channel hands every transport option to ``create_engine``, so ``polling_interval`` cannot be
    set through ``CELERY_BROKER_TRANSPORT_OPTIONS`` instead."""
    assert (
        _digest(kombu_virtual.Transport.drain_events),
        _digest(kombu_virtual.Channel.drain_events),
        _digest(kombu_sqlalchemy.Channel._engine_from_config),
    ) == ("dc55900aa0d2f4e8", "33836a8c5699ffc8", "d5be2e2f53c6c761"), (
        f"kombu {kombu.__version__} changed the polling loop core.broker rewrites (or how the "
        "SQLAlchemy transport reads its options): compare core.broker.EmbeddedTransport."
        "drain_events with the new virtual.Transport.drain_events, check whether "
        "polling_interval can now be passed as a transport option (then a subclass may no "
        "longer be needed), and measure tasks a second through a two-process worker again."
    )


def test_beat_s_reconnection_leans_on_celery_5_7_s_cached_connection():
    """core.beat.ReconnectingScheduler drops the scheduler's cached ``connection`` and
    ``producer`` when a send fails; Celery makes them again at the next access."""
    scheduler = beat.Scheduler
    assert (
        _digest(scheduler.apply_async),
        _digest(scheduler.apply_entry),
        _digest(scheduler.__dict__["connection"].func),
        _digest(scheduler.__dict__["producer"].func),
    ) == ("49c1e4dc6228e61c", "62b889b51933b0a3", "1c3be9bdea4e2fb9", "52fcb74bb86d137f"), (
        f"Celery {celery.__version__} changed how beat sends and keeps its connection: check "
        "whether stock beat now sends again after the SQLite broker was locked (it failed "
        "every later send with 'channel disconnected' in 5.7), else that core.beat still drops "
        "the cached connection and producer; run tests/core/test_beat.py."
    )
