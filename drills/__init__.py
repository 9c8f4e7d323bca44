"""Fault drills (``make drills``): the whole stack through a club night while things break.

``python -m drills`` starts ``manage.py serve`` (what ``make run`` starts) on the embedded default
(SQLite + the SQLite broker), then on PostgreSQL + Redis, plays a scripted club night and two
tournaments (a Swiss paired by the worker, a single-elimination bracket) through the REST API
from several tables at once, and injects one fault per drill while the results keep coming:

- ``worker-kill``: SIGKILL of the Celery worker's main process while a standings rebuild runs;
- ``broker-down``: the broker unreachable for 60 s (Redis behind a proxy the drill cuts; the
  SQLite broker locked exclusively);
- ``web-kill``: the web server SIGKILLed while requests are in flight;
- ``db-restart``: ``pg_ctlcluster ... restart -m fast`` of the machine's PostgreSQL (PostgreSQL
  only);
- ``serve-restart``: ``manage.py serve`` stopped with Ctrl-C and started again.

After each drill it reconciles (``drills.reconcile``, run inside Django on the same database):
every acknowledged hand is stored exactly once, every score sheet equals the sum of its hands,
standings and brackets equal a from-scratch rebuild, ratings equal a replay from nothing, and no
round is stuck. It prints one line per drill and exits non-zero on any failure.
"""
