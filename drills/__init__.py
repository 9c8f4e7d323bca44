"""Fault drills (``make drills``): the whole stack through a club night while things break.

``python -m drills`` starts ``manage.py serve`` (what ``make run`` starts) on the embedded default
(SQLite + the SQLite broker), then on PostgreSQL + Redis, plays a scripted club night and two
tournaments (a Swiss paired by the worker, a single-elimination bracket) through the REST API
from several tables at once, and injects one fault per drill while the results keep coming:

- ``worker-kill``: SIGKILL of the Celery worker's main process while a standings rebuild runs;
- ``broker-down``: the broker unreachable for 60 s (Redis behind a proxy the drill cuts; the
  SQLite broker locked exclusively);
- ``web-kill``: the web server SIGKILLed while requests are in flight;
- ``db-restart``: ``pg_ctl restart -m fast`` of PostgreSQL (a throwaway cluster of the drill's
  own; PostgreSQL only): no 500, a 503 with ``Retry-After`` at most, retried with the same key;
- ``cache-down``: the cache's Redis (``CACHE_URL``, a redis-server of the drill's own) killed for
  30 s (PostgreSQL + Redis only): entries and confirmations through private links, and
  spectators, answered without a 5xx;
- ``serve-restart``: ``manage.py serve`` stopped with Ctrl-C and started again.

After each drill it reconciles (``drills.reconcile``, run inside Django on the same database):
every acknowledged hand is stored exactly once, every score sheet equals the sum of its hands,
standings and brackets equal a from-scratch rebuild, ratings equal a replay from nothing, and no
round is stuck; and that every web-server thread answers again at the first try. It prints one
line per drill and exits non-zero on any failure.
"""
