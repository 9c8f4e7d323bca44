"""A player's own check-in link: ``https://<site>/checkin/#<token>``.

The token is the link's credential (no account needed), so it is issued only as the URL's
fragment, which browsers never send to the server: it appears in no access log, proxy log or
``Referer``. A small script on ``/checkin/`` (static/js/checkin.js) takes it out of the address
bar and history and posts it. ``/checkin/<token>/``, what the first printed cards hold, still works
when typed or scanned, but is never issued; Knock's logs redact it (:mod:`core.logging`).
"""

from __future__ import annotations

from collections.abc import Callable

from django.urls import reverse

CHECKIN_PAGE = "checkin-open"


def checkin_url(*, absolute: Callable[[str], str], token: str) -> str:
    """The link printed on a check-in card and held by its QR code (``/checkin/#<token>``)."""
    return absolute(reverse(CHECKIN_PAGE)) + "#" + token


def token_from(value: str) -> str:
    """The token in ``value``: the token itself, or a whole link (``…/checkin/#<token>`` or
    ``…/checkin/<token>/``), pasted or posted by the page's script.

    >>> token_from("https://knock.example/checkin/#AbC-12_x")
    'AbC-12_x'
    >>> token_from(" /checkin/AbC-12_x/ ")
    'AbC-12_x'
    >>> token_from("#AbC-12_x")
    'AbC-12_x'
    """
    value = value.strip()
    if "/checkin/" in value:
        value = value.rsplit("/checkin/", 1)[1].lstrip("#").split("/", 1)[0].split("?", 1)[0]
    return value.lstrip("#").strip()
