"""System checks for a site run for strangers (``manage.py check --deploy``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Error, Tags, Warning, register

from core.net import trusted_networks

# Caches a single process keeps to itself, or a file on one machine: not shared by every web
# process of a production site (and not atomic across them, but core.cache's).
UNSHARED_CACHES = {
    "django.core.cache.backends.locmem.LocMemCache",
    "django.core.cache.backends.dummy.DummyCache",
    "django.core.cache.backends.filebased.FileBasedCache",
    "core.cache.LockedFileBasedCache",
}


@register()
def trusted_proxies_parse(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Every ``KNOCK_TRUSTED_PROXIES`` entry is an address or a network."""
    try:
        trusted_networks()
    except ValueError as exc:
        return [
            Error(
                f"KNOCK_TRUSTED_PROXIES holds something that is not an address or network: {exc}",
                hint="List the reverse proxies' addresses or networks, e.g. 127.0.0.1,10.0.0.0/8.",
                id="knock.E002",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def shared_cache(app_configs: Any = None, **kwargs: Any) -> list[Error]:
    """Production needs one cache shared by every web process: the link limit counts in it."""
    backend = settings.CACHES["default"]["BACKEND"]
    if backend in UNSHARED_CACHES:
        return [
            Error(
                f"The cache ({backend}) is not shared by every web process.",
                hint="Set CACHE_URL to Redis (e.g. redis://127.0.0.1:6379/2): the limit on "
                "invalid links counts there, atomically, for every process.",
                id="knock.E001",
            )
        ]
    return []


@register(Tags.security, deploy=True)
def trusted_proxies_set(app_configs: Any = None, **kwargs: Any) -> list[Warning]:
    """Behind a reverse proxy, without KNOCK_TRUSTED_PROXIES every client has its address."""
    if not settings.KNOCK_TRUSTED_PROXIES:
        return [
            Warning(
                "KNOCK_TRUSTED_PROXIES is empty: behind a reverse proxy every request comes from "
                "the proxy's address, so one client's invalid links or wrong passwords count "
                "against everyone.",
                hint="Set it to the proxy's address (127.0.0.1 when nginx runs on the same "
                "machine), as docs/deploy.md shows.",
                id="knock.W001",
            )
        ]
    return []
