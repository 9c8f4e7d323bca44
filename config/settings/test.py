"""Settings for pytest.

The test database follows ``DATABASE_URL`` like every other environment (SQLite by default,
PostgreSQL in CI's second phase). On SQLite the test database is a file, not memory, so that a real
Celery worker started by the tests can open the same database.
"""

from config.settings.base import *  # noqa: F403
from config.settings.base import DATABASES, LIVE_CACHE, VAR_DIR, env

DEBUG = False
CACHES = {
    "default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"},
    "live": LIVE_CACHE,
}
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
if DATABASES["default"]["ENGINE"].endswith("sqlite3"):
    DATABASES["default"]["TEST"] = {
        "NAME": env.str("KNOCK_TEST_SQLITE", default=str(VAR_DIR / "test-knock.sqlite3"))
    }
# Under pytest-xdist (`make test-fast`) each worker process has a broker file of its own, as
# pytest-django gives it a test database of its own (the name above with "_gw0", "_gw1"...).
XDIST_WORKER = env.str("PYTEST_XDIST_WORKER", default="")
BROKER_FILE = f"test-celery-broker-{XDIST_WORKER}" if XDIST_WORKER else "test-celery-broker"
CELERY_BROKER_URL = env.str(
    "CELERY_BROKER_URL", default=f"sqla+sqlite:///{VAR_DIR / BROKER_FILE}.sqlite3"
)
