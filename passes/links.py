"""A pass's secret and link, made with :mod:`scoring.links`' derivation (its link key, its digest,
its shape check and its limit on invalid secrets), in a domain of its own: a pass secret is
``secret_of("pass:" + nonce)``, so no pass and seat key can share a secret.

The link is ``https://<site>/p/#<secret>`` (the fragment never reaches the server); ``/p/<secret>/``
works when typed. API clients send the secret in the ``X-Pass-Key`` header. The link an entrant
is given at entry is the same link (:mod:`entries.links`): before they have a place it shows
their entry; then it is their pass.
"""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

from entries.links import LINK_DOMAIN
from passes.models import PlayerPass
from scoring.links import secret_of

PASS_HEADER = "X-Pass-Key"
SESSION_KEY = "knock.passes"
# The browser's entries still without a place, opened with their link: event id → entry id.
ENTRY_SESSION_KEY = "knock.entries"
DOMAIN = LINK_DOMAIN  # an entry's link becomes its pass: the same domain (entries.links)


def pass_secret(player_pass: PlayerPass) -> str:
    """The secret of ``player_pass``'s link (derived: never stored)."""
    return secret_of(DOMAIN + player_pass.nonce)


def pass_url(*, absolute: Callable[[str], str], player_pass: PlayerPass) -> str:
    """The absolute link of ``player_pass`` (``/p/#<secret>``), for a card, a mail or a QR code."""
    return absolute(reverse("pass-open")) + "#" + pass_secret(player_pass)


def secret_from(value: str) -> str:
    """The secret in ``value``: the secret itself or a whole pass link (``…/p/#<secret>``)."""
    value = value.strip()
    if "/p/" in value:
        value = value.rsplit("/p/", 1)[1].lstrip("#").split("/", 1)[0].split("?", 1)[0]
    return value.lstrip("#").strip()
