"""Helpers for the club and account page tests (the tournament tests use them too)."""

from __future__ import annotations

import re
from typing import Any

from django.test import Client


def page_client(user: Any = None) -> Client:
    """A test client for the HTML pages, signed in as ``user`` if given."""
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def field_error(html: str, field_id: str) -> str:
    """The error text shown in the ``.field`` block of the input ``field_id``."""
    start = html.index(f'id="{field_id}"')
    block_start = html.rindex('<div class="field', 0, start)
    block_end = html.index("</div>", start)
    block = html[block_start:block_end]
    assert "has-error" in block, block
    return " ".join(re.findall(r'<p class="error"[^>]*>(.*?)</p>', block, re.S))
