"""The API's JSON parser with limits: a body too large or nested too deep is a clear 400.

Python's ``json`` recurses once per level: a body of ten thousand ``[`` raised RecursionError
(a 500) before any view code ran. This parser refuses bodies over Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` and any nesting deeper than ``KNOCK_JSON_MAX_DEPTH`` by scanning
the raw text first (brackets outside strings), then parses.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def json_depth_exceeds(text: str, limit: int) -> bool:
    """True if ``text`` nests arrays/objects deeper than ``limit`` (strings are skipped)."""
    depth = 0
    in_string = False
    escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
    return False


class LimitedJSONParser(JSONParser):
    def parse(
        self,
        stream: Any,
        media_type: str | None = None,
        parser_context: Mapping[str, Any] | None = None,
    ) -> Any:
        limit = int(getattr(settings, "DATA_UPLOAD_MAX_MEMORY_SIZE", None) or 2_621_440)
        raw = stream.read(limit + 1) if stream is not None else b""
        if len(raw) > limit:
            raise ParseError(_("The request body is too large."))
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(_("The request body is not valid text.")) from None
        if json_depth_exceeds(text, int(getattr(settings, "KNOCK_JSON_MAX_DEPTH", 20))):
            raise ParseError(_("The JSON body is nested too deeply."))
        try:
            return json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")
