"""The API's JSON renderer, which never fails on text UTF-8 cannot hold.

DRF writes JSON as UTF-8 with non-ASCII characters as they are (``UNICODE_JSON``); a lone
surrogate echoed from the input (``"\\ud800" is not a valid choice``) then raised
UnicodeEncodeError while the error was being sent, and the 400 became a 500. Input is refused at
the boundary (core/parsers.py, core/middleware.py); should such text still reach a response, it
is written with ``\\u`` escapes instead, which every JSON reader accepts.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rest_framework.renderers import JSONRenderer


class _AsciiJSONRenderer(JSONRenderer):
    ensure_ascii = True


class SafeJSONRenderer(JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: Mapping[str, Any] | None = None,
    ) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return _AsciiJSONRenderer().render(data, accepted_media_type, renderer_context)
