"""Production settings: PostgreSQL, Redis, HTTPS.

Required environment: ``SECRET_KEY`` (checked first), ``DATABASE_URL``, ``CELERY_BROKER_URL``,
``ALLOWED_HOSTS``; ``CACHE_URL`` and ``KNOCK_TRUSTED_PROXIES`` (``check --deploy`` asks for both).
Nothing here has a usable default for them, so a missing variable stops the process at start-up
instead of running on embedded defaults by accident.
"""

import environ

# Checked before anything else: without SECRET_KEY production refuses to start (it never falls
# back to the embedded default's key file).
SECRET_KEY = environ.Env().str("SECRET_KEY")

from config.settings.base import *  # noqa: E402, F403
from config.settings.base import env  # noqa: E402

DEBUG = False
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS")
# Required: base builds DATABASES from it (with CONN_MAX_AGE and health checks) but would fall
# back to SQLite without it.
env.str("DATABASE_URL")
CELERY_BROKER_URL = env.str("CELERY_BROKER_URL")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])
# The link limit must be shared by every web process: set CACHE_URL (e.g. redis://host:6379/2);
# `check --deploy` fails without a shared cache (core.checks) and warns without
# KNOCK_TRUSTED_PROXIES.

# Mail (password reset) goes out by SMTP: EMAIL_URL (smtp+tls://user:password@host:587), or
# EMAIL_HOST with EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD and EMAIL_USE_TLS.
if env.str("EMAIL_URL", default=""):
    vars().update(env.email_url("EMAIL_URL"))
elif env.str("EMAIL_HOST", default=""):
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env.str("EMAIL_HOST")
    EMAIL_PORT = env.int("EMAIL_PORT", default=587)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env.bool("EMAIL_USE_TLS", default=True)
SERVER_EMAIL = DEFAULT_FROM_EMAIL  # noqa: F405

SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
SECURE_SSL_REDIRECT = env.bool("SECURE_SSL_REDIRECT", default=True)
# Health over plain HTTP: /healthz is answered before the redirect and the host check
# (core.middleware.HealthCheckMiddleware), /api/health/ is exempt from the redirect.
SECURE_REDIRECT_EXEMPT = [r"^healthz$", r"^api/health/$"]
SESSION_COOKIE_SECURE = True
CSRF_COOKIE_SECURE = True
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
# HSTS for the site's own host always; for every subdomain of it, and a request to be built into
# browsers (the preload list, which takes months to leave), only when asked: both reach hosts
# Knock does not serve (docs/deploy.md). Left off on purpose, Django's reminders are silenced.
SECURE_HSTS_INCLUDE_SUBDOMAINS = env.bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=False)
SECURE_HSTS_PRELOAD = env.bool("SECURE_HSTS_PRELOAD", default=False)
SILENCED_SYSTEM_CHECKS = [
    *(["security.W005"] if not SECURE_HSTS_INCLUDE_SUBDOMAINS else []),
    *(["security.W021"] if not SECURE_HSTS_PRELOAD else []),
]
SECURE_CONTENT_TYPE_NOSNIFF = True
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
}
