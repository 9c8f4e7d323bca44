"""The reference stack on one machine (``make stack``, ``python -m stack``): nginx, gunicorn,
Celery worker and beat, PostgreSQL and Redis, run from the files in deploy/ (docs/deploy.md)."""
