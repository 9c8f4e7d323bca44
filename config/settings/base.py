"""Settings shared by every environment.

Everything that differs between a laptop and production comes from environment variables read
through django-environ. With none set, Knock runs on its embedded defaults: SQLite under ``var/``
and a Celery broker kept in a SQLite file through kombu's SQLAlchemy transport, so that a new user
needs nothing installed but Python.
"""

from __future__ import annotations

import os
import secrets
from pathlib import Path

import environ
from django.utils.translation import gettext_lazy as _
from sqlalchemy.pool import NullPool

env = environ.Env()

BASE_DIR = Path(__file__).resolve().parent.parent.parent
VAR_DIR = Path(env.str("KNOCK_VAR_DIR", default=str(BASE_DIR / "var")))
(VAR_DIR / "static").mkdir(parents=True, exist_ok=True)


def embedded_secret_key(var_dir: Path) -> str:
    """The embedded default's key: made at random on first start, kept in ``var/secret_key``
    (mode 600) and reused, so sessions and links survive a restart. No key ships in the code."""
    path = var_dir / "secret_key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    except FileExistsError:
        fd = -1
    if fd < 0:
        key = path.read_text().strip()
        if len(key) < 50:
            raise RuntimeError(f"{path} holds no usable key: delete it to make a new one.")
        return key
    key = secrets.token_urlsafe(64)
    with os.fdopen(fd, "w") as out:
        out.write(key + "\n")
    return key


# Production sets SECRET_KEY (config.settings.production refuses to start without it); with
# none set, the embedded default keeps its own random key under var/.
SECRET_KEY = env.str("SECRET_KEY", default="") or embedded_secret_key(VAR_DIR)
# Debug pages show tracebacks and settings to anyone who can reach the server: off unless
# KNOCK_DEBUG=1 is set on purpose (a developer's own machine).
DEBUG = env.bool("KNOCK_DEBUG", default=False)
ALLOWED_HOSTS: list[str] = env.list("ALLOWED_HOSTS", default=["127.0.0.1", "localhost", "[::1]"])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    # No rest_framework.authtoken: API tokens are core.ApiToken, kept as digests; its table's
    # keys were moved there and the table dropped (core/migrations/0003_apitoken_from_drf.py).
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_filters",
    "django_htmx",
    "simple_history",
    "csp",
    "axes",
    "core",
    "clubs",
    "tournaments",
    "scoring",
    "ratings",
    "entries",
    "passes",
    "printing",
]

# The user model is Django's own ``auth.User``, named here so that no code names it: pages,
# services and APIs reach it by ``get_user_model()`` and foreign keys by ``AUTH_USER_MODEL``
# (``django.contrib.auth.models.User`` is imported only for type checking). Knock keeps nothing
# on an account beyond what ``auth.User`` holds (a club player is ``clubs.Player``, linked to an
# account), so every account stays as it is and no migration moves it. Swapping in a model of
# our own later is this setting plus a migration that keeps the ``auth_user`` table (see
# docs/architecture.md).
AUTH_USER_MODEL = "auth.User"

MIDDLEWARE = [
    # Health checks first: a load balancer probes each machine by its address over plain HTTP,
    # before the host check and the HTTPS redirect would refuse it (core/middleware.py).
    "core.middleware.HealthCheckMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Version polls (most requests on a club night) are answered here, before the session,
    # CSRF, auth and history layers they do not need (core.live, docs/live.md).
    "core.live.LiveVersionMiddleware",
    # ... and spectators' live regions, drawn once per version for every web process.
    "core.live.LiveFragmentMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Form text that is not valid Unicode is a 400 naming the field; a lost database connection
    # in a view is a 503 with Retry-After (core/middleware.py).
    "core.middleware.RequestTextMiddleware",
    "core.middleware.DatabaseUnavailableMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    "scoring.middleware.MatchLinkMiddleware",
    # Last, as django-axes asks: it turns a locked-out sign-in into its lockout response.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -----------------------------------------------------------------------------
DATABASES = {
    "default": env.db("DATABASE_URL", default=f"sqlite:///{VAR_DIR / 'knock.sqlite3'}"),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # The web server, the worker and beat share one file: WAL lets readers run beside the
    # single writer, IMMEDIATE transactions take the write lock up front instead of failing
    # half-way, and the timeout makes a busy moment wait rather than error.
    # core.sqlite3 is Django's backend with a write gate that queues writers instead of leaving
    # them to SQLite's busy handler, which sleeps in steps up to 100 ms (core/sqlite3/base.py).
    DATABASES["default"]["ENGINE"] = "core.sqlite3"
    DATABASES["default"]["OPTIONS"] = {
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
        "transaction_mode": "IMMEDIATE",
        "timeout": 30,
    }
# Each web thread and worker keeps its connection for a minute instead of opening one per
# request: on SQLite opening one (and registering Django's functions on it) was a fifth of the
# web server's time at a busy club night (docs/live.md). A restore copies into the same file
# through SQLite's backup API, which open connections see.
DATABASES["default"].setdefault("CONN_MAX_AGE", env.int("CONN_MAX_AGE", default=60))
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth ---------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "login"
# Who may make an account (docs/security.md, "Accounts"): "open" (anyone: make run's journey,
# sign up then start a club), "invitation" (only a username a club admin has invited) or
# "closed" (accounts come from createsuperuser or the admin).
KNOCK_SIGNUP = env.str("KNOCK_SIGNUP", default="open")
if KNOCK_SIGNUP not in ("open", "invitation", "closed"):
    raise ValueError(f"KNOCK_SIGNUP is open, invitation or closed, not {KNOCK_SIGNUP!r}")

# --- Mail (password reset) ------------------------------------------------------------------
# With nothing set, mails are files under var/mail (one per message) instead of being sent;
# production sets EMAIL_URL (e.g. smtp+tls://user:password@smtp.example.org:587) or the
# EMAIL_HOST family (config/settings/production.py, docs/deploy.md).
EMAIL_BACKEND = env.str("EMAIL_BACKEND", default="django.core.mail.backends.filebased.EmailBackend")
EMAIL_FILE_PATH = VAR_DIR / "mail"
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="knock@localhost")
AUTHENTICATION_BACKENDS = [
    # First, as django-axes asks: refuses a locked-out account or address before checking.
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

# --- The client's address (core.net) ------------------------------------------------------
# The reverse proxies in front of Knock (addresses or networks, comma-separated): from one of
# them, the client is the nearest address in X-Forwarded-For that is not a proxy; from anyone
# else the header is ignored. Empty (the default) when nothing is in front (make run).
KNOCK_TRUSTED_PROXIES: list[str] = env.list("KNOCK_TRUSTED_PROXIES", default=[])

# --- Sign-in throttling (django-axes) ---------------------------------------------------------
# After AXES_FAILURE_LIMIT wrong passwords for one account from one client address, that pair
# is locked for AXES_COOLOFF_TIME hours; the sign-in page (or the API, in JSON) says so. The
# same account from another address, and another account from the same address, still sign in.
AXES_FAILURE_LIMIT = env.int("AXES_FAILURE_LIMIT", default=5)
AXES_COOLOFF_TIME = env.float("AXES_COOLOFF_HOURS", default=0.25)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "core.net.client_ip"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "core.lockout.locked_out"
AXES_VERBOSE = False

# --- Private match links ------------------------------------------------------------------
# See scoring.links. The link key defaults to one derived from SECRET_KEY; changing either
# changes every link (reprint them).
KNOCK_LINK_KEY = env.str("KNOCK_LINK_KEY", default="")
# The site's address for links in mails (a pass mailed by the worker has no request to read it
# from): the scheme and host the players open, e.g. https://knock.example.org.
KNOCK_SITE_URL = env.str("KNOCK_SITE_URL", default="http://localhost:8000")
KNOCK_LINK_TTL_HOURS = env.float("KNOCK_LINK_TTL_HOURS", default=24.0)
KNOCK_LINK_FAILURE_LIMIT = env.int("KNOCK_LINK_FAILURE_LIMIT", default=20)
KNOCK_LINK_FAILURE_WINDOW = env.int("KNOCK_LINK_FAILURE_WINDOW", default=600)
# Online entry (entries.services): entries one client address may send per window.
KNOCK_ENTRY_LIMIT = env.int("KNOCK_ENTRY_LIMIT", default=10)
KNOCK_ENTRY_WINDOW = env.int("KNOCK_ENTRY_WINDOW", default=3600)

# --- Live pages (docs/live.md) ----------------------------------------------------------------
# How often open match and event pages ask whether anything changed (a conditional GET of a
# version, 304 while nothing did); the server sends it with each version so it can be slowed.
KNOCK_LIVE_POLL_MS = env.int("KNOCK_LIVE_POLL_MS", default=2000)
# The version URLs core.live.LiveVersionMiddleware answers before the session and auth layers,
# with the selector each calls (the one its API view calls): (URL name, selector, the
# selector's keyword for the route's id). The paths are the URL confs' own.
KNOCK_LIVE_VERSIONS = [
    ("match-version", "scoring.selectors.changes.match_version", "match_id"),
    ("event-version", "tournaments.selectors.live.event_version", "event_id"),
]
# The live regions core.live.LiveFragmentMiddleware keeps for spectators, by version.
KNOCK_LIVE_FRAGMENTS = [
    ("match-live", "scoring.selectors.changes.match_version_stamp", "match_id"),
    ("event-live", "tournaments.selectors.live.event_version", "event_id"),
]
# What a shared cache in front (deploy/nginx/knock.conf) may keep a moment when a visitor
# without a session asks (core.live.cache_headers; the versions and live regions above always):
# what every spectator sees alike, by URL name. Such a visitor's pages carry no CSRF token and set
# no cookie (templates/base.html); one that does (a form for them) is never public.
KNOCK_LIVE_PUBLIC_PAGES = [
    "event-detail",
    "event-round",
    "match-detail",
    "event-projector",
    "event-standings",
    "event-bracket",
    "event-projector-slides",
]
# The push (docs/live.md): where Knock POSTs a page's new version after each change (nchan's
# publisher, localhost only: http://127.0.0.1:8010/live/pub/ in deploy/nginx/knock.conf), and
# where pages subscribe to it (/live/sub/). Unset (the default), nothing is pushed and the pages
# poll. The channels, by page: (page, selector of its version, the selector's keyword).
KNOCK_LIVE_PUBLISH_URL = env.str("KNOCK_LIVE_PUBLISH_URL", default="")
KNOCK_LIVE_SUBSCRIBE_URL = env.str("KNOCK_LIVE_SUBSCRIBE_URL", default="/live/sub/")
KNOCK_LIVE_CHANNELS = [
    ("match", "scoring.selectors.changes.match_version", "match_id"),
    ("event", "tournaments.selectors.live.event_version", "event_id"),
]

# --- Cache (rate limits) ------------------------------------------------------------------
# Shared by every process of one server: a file cache under var/ by default, Redis (or any
# cache URL django-environ reads) in production through CACHE_URL.
# The default's add and incr are atomic across processes (core.cache), so counts are exact.
CACHES = {
    "default": env.cache("CACHE_URL")
    if env.str("CACHE_URL", default="")
    else {"BACKEND": "core.cache.LockedFileBasedCache", "LOCATION": str(VAR_DIR / "cache")},
}
# What one process drew or scored of the live pages, by version (core.live: its only user).
LIVE_CACHE = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "knock-live",
    "TIMEOUT": 600,
    "OPTIONS": {"MAX_ENTRIES": 10000},
}
CACHES["live"] = LIVE_CACHE

# --- Languages ----------------------------------------------------------------------------
LANGUAGE_CODE = "en"
LANGUAGES = [("en", _("English")), ("ko", _("Korean"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = env.str("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True
# Dates and times are written the reader's way (templates use DATE_FORMAT, TIME_FORMAT ...):
# Korean's time of day before the time ("오후 3:53"), English on the 24-hour clock ("15:53").
FORMAT_MODULE_PATH = ["config.formats"]

# --- Static files -------------------------------------------------------------------------
STATIC_URL = "/static/"
STATIC_ROOT = VAR_DIR / "static"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# --- Request size -------------------------------------------------------------------------
# A JSON body deeper than KNOCK_JSON_MAX_DEPTH is a 400, one longer than
# DATA_UPLOAD_MAX_MEMORY_SIZE (Django's own limit, also for forms) a 413: never parsed.
KNOCK_JSON_MAX_DEPTH = 20
# A CSRF failure on the API is JSON like its other errors (core/error_views.py).
CSRF_FAILURE_VIEW = "core.error_views.csrf_failure"
DATA_UPLOAD_MAX_MEMORY_SIZE = env.int("DATA_UPLOAD_MAX_MEMORY_SIZE", default=2_621_440)

# --- Security headers ---------------------------------------------------------------------
SECURE_REFERRER_POLICY = "same-origin"
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "img-src": ["'self'", "data:"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "script-src": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
X_FRAME_OPTIONS = "DENY"

# --- REST API -----------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First, so that a bad or revoked token is a 401 (core/authentication.py).
        "core.authentication.ApiTokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "core.pagination.Pagination",
    # JSON that never fails on text UTF-8 cannot hold (core/renderers.py).
    "DEFAULT_RENDERER_CLASSES": [
        "core.renderers.SafeJSONRenderer",
        "rest_framework.renderers.BrowsableAPIRenderer",
    ],
    "DEFAULT_PARSER_CLASSES": [
        "core.parsers.LimitedJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "PAGE_SIZE": 100,
    # A hand's preview runs the engine on every card picked: per person, not per address.
    "DEFAULT_THROTTLE_RATES": {"preview": env.str("KNOCK_PREVIEW_RATE", default="240/min")},
    "EXCEPTION_HANDLER": "core.api.exception_handler",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Knock API",
    "DESCRIPTION": "Score keeping and tournaments for physical gin rummy. Authentication: a "
    "session (the site's sign-in), a token (`POST /api/auth/token/`, then `Authorization: Token "
    "<key>`), or a match's private link (`?k=` or `X-Match-Key`). Lists are paginated with "
    "`limit` and `offset` and answer `{count, next, previous, results}`. Every POST accepts an "
    "`Idempotency-Key` header. Errors are `{detail, field?}`. The guide is docs/api.md.",
    "VERSION": "1",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI and ReDoc are served from the site's own static files (drf-spectacular-sidecar):
    # they work offline and under the site's CSP (script-src 'self').
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "EventStatusEnum": "tournaments.models.Event.Status",
        "RegistrationStatusEnum": "tournaments.models.Registration.Status",
        "RoundStatusEnum": "tournaments.models.Round.Status",
        "EntryStatusEnum": "entries.models.Entry.Status",
        "MatchStatusEnum": "scoring.models.Match.Status",
        "SubmissionStatusEnum": "scoring.models.HandSubmission.Status",
        "CredentialEnum": "scoring.models.Credential",
        "HealthStatusEnum": ["ok", "degraded"],
    },
}

# --- Celery -------------------------------------------------------------------------------
CELERY_BROKER_URL = env.str(
    "CELERY_BROKER_URL", default=f"sqla+sqlite:///{VAR_DIR / 'celery-broker.sqlite3'}"
)
CELERY_RESULT_BACKEND = env.str("CELERY_RESULT_BACKEND", default="") or None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# A request that sends a task after commit must not hang on an unreachable broker: one
# connection attempt of at most this many seconds (the work is recorded; the sweep resends).
CELERY_BROKER_CONNECTION_TIMEOUT = env.float("CELERY_BROKER_CONNECTION_TIMEOUT", default=2.0)
# Redis (and SQS) redeliver a message whose worker died before acknowledging it after this many
# seconds. Minutes, not kombu's hour: every task is idempotent, so a redelivery costs a no-op.
# It must stay longer than the longest task (a 1,024-player rebuild takes seconds).
# (The embedded SQLAlchemy transport passes its options to create_engine: Redis only.)
CELERY_VISIBILITY_TIMEOUT = env.int("CELERY_VISIBILITY_TIMEOUT", default=300)
# The embedded broker opens a SQLite connection per use and closes it after (NullPool): kombu's
# SQLAlchemy transport keeps one session per channel and never closes the session of a channel a
# failed send threw away, so with a pool, a minute of "database is locked" left every connection
# checked out and each later send waited 30 s for one (the broker-down drill saw it).
CELERY_BROKER_TRANSPORT_OPTIONS: dict[str, object] = (
    {
        "visibility_timeout": CELERY_VISIBILITY_TIMEOUT,
        "socket_connect_timeout": CELERY_BROKER_CONNECTION_TIMEOUT,
    }
    if CELERY_BROKER_URL.startswith(("redis://", "rediss://"))
    else {"poolclass": NullPool}
    if CELERY_BROKER_URL.startswith("sqla+sqlite")
    else {}
)
CELERY_BEAT_SCHEDULE_FILENAME = str(VAR_DIR / "celerybeat-schedule")
# Beat reconnects after a broker outage instead of failing every later send (core.beat).
CELERY_BEAT_SCHEDULER = "core.beat:ReconnectingScheduler"
CELERY_BEAT_SCHEDULE = {
    "worker-heartbeat": {"task": "core.tasks.heartbeat", "schedule": 20.0},
    "standings-sweep": {"task": "tournaments.standings_sweep", "schedule": 60.0},
    "nightly-backup": {"task": "core.tasks.nightly_backup", "schedule": 900.0},
}
# The sweep sends a prompt again for work still due this many seconds after the last one (a
# message lost with the broker or a killed worker); a worker's start-up sweep sends them all.
KNOCK_WORK_RESEND_AFTER = env.int("KNOCK_WORK_RESEND_AFTER", default=90)

# The worker's main process records a heartbeat every INTERVAL seconds from its own thread
# (core.signals), never behind the task queue; /healthz calls a worker dead after MAX_AGE.
KNOCK_WORKER_HEARTBEAT_INTERVAL = env.float("KNOCK_WORKER_HEARTBEAT_INTERVAL", default=5.0)
KNOCK_WORKER_HEARTBEAT_MAX_AGE = env.int("KNOCK_WORKER_HEARTBEAT_MAX_AGE", default=15)
# Beat records that it is alive at every tick (core.beat; it ticks at least every 20 s, the
# heartbeat entry above); /healthz calls it dead after MAX_AGE, three missed ticks.
KNOCK_BEAT_HEARTBEAT_MAX_AGE = env.int("KNOCK_BEAT_HEARTBEAT_MAX_AGE", default=60)

# Backups (core.backups): where `manage.py backup` writes, and how many daily backups beat keeps
# on the embedded SQLite.
KNOCK_BACKUP_DIR = Path(env.str("KNOCK_BACKUP_DIR", default=str(VAR_DIR / "backups")))
KNOCK_BACKUP_KEEP = env.int("KNOCK_BACKUP_KEEP", default=14)

# No secret in a log line (core.logging): every record (django.request, django.server, celery,
# the apps') goes through the one console handler, which redacts /l/<secret> and
# /checkin/<token>. Django's own handlers for "django" and "django.server" are replaced by
# propagation to it. gunicorn's loggers keep their own handlers (configuring them here would drop
# its access log file): core.gunicorn_logging.RedactingLogger filters them; Celery's handlers get
# the filter in config/celery_app.py.
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"redact_secrets": {"()": "core.logging.RedactSecrets"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "filters": ["redact_secrets"]},
    },
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
    "loggers": {
        "django": {"handlers": [], "level": "INFO", "propagate": True},
        "django.server": {"handlers": [], "level": "INFO", "propagate": True},
    },
}
