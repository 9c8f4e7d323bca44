"""Every page names Knock's icon (browser tabs and bookmarks show it), so no browser asks for a
missing /favicon.ico: the site's own pages and the projector's, which has its own head."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders

pytestmark = pytest.mark.django_db

_ICON = re.compile(r'<link rel="icon" href="([^"]+)" type="image/svg\+xml">')


def test_the_pages_link_the_icon_and_it_is_a_static_svg(client):
    html = client.get("/").content.decode()
    found = _ICON.search(html)
    assert found, "the home page links no icon"
    href = found.group(1)
    assert href.startswith(settings.STATIC_URL)
    path = finders.find(href.removeprefix(settings.STATIC_URL))
    assert path, f"{href} is not a static file"
    assert Path(str(path)).read_text().lstrip().startswith("<svg")
    assert '<meta name="theme-color" content="#0f5132">' in html
    assert _ICON.search(client.get("/clubs/").content.decode())
