"""Rows of a long list drawn once per content, and reused until what they show changes.

A national open's event page lists 250 tables and 500 standings, and its live regions are
drawn again whenever the event's version moves (about once a second at that size: every
entry, confirmation and standings rebuild of every table). Nearly every row is the same as at
the last drawing, yet Django's template engine drew each one again: at 250 tables it was three
quarters of a drawing's 200 ms (docs/live.md, "Drawing a big event").

:func:`drawn` draws one row with its own small template and keeps the HTML in this process
under the row's ``key``: a tuple of everything its template reads (the caller builds it from
the same values it puts in the row), with the template's name and the reader's language. So a
row is drawn again exactly when something it shows changed (a table's score, a name, a rank, a
float) or for another language; nothing is ever served for content it was not drawn from, and
nothing needs to be told when to forget (the oldest rows are dropped past :data:`KEPT`).

A row template reads only ``row`` (and the translation and URL tags, which depend on the
language in the key and on the URL conf, fixed for the process).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Hashable, Mapping
from typing import Any

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import get_language

KEPT = 16384
"""Rows kept per process: four languages of 2,000 tables and 2,000 standings, about 16 MB."""

_KEPT: OrderedDict[tuple[str, str, Hashable], SafeString] = OrderedDict()
_LOCK = threading.Lock()


def drawn(template_name: str, row: Mapping[str, Any]) -> SafeString:
    """``template_name`` drawn for ``row`` (its context is ``{"row": row}``), drawn once per
    ``row["key"]`` and language and kept, the most recently used first."""
    key = (template_name, get_language() or "", row["key"])
    with _LOCK:
        html = _KEPT.get(key)
        if html is not None:
            _KEPT.move_to_end(key)
            return html
    html = SafeString(render_to_string(template_name, {"row": row}))
    with _LOCK:
        _KEPT[key] = html
        while len(_KEPT) > KEPT:
            _KEPT.popitem(last=False)
    return html


def forget() -> None:
    """Drop every kept row (tests)."""
    with _LOCK:
        _KEPT.clear()
