"""The API's JSON parser with limits: a body too large is a 413, one nested too deep or holding
text that is not valid Unicode a clear 400.

Python's ``json`` recurses once per level: a body of ten thousand ``[`` raised RecursionError
(a 500) before any view code ran. This parser refuses bodies over Django's
``DATA_UPLOAD_MAX_MEMORY_SIZE`` and any nesting deeper than ``KNOCK_JSON_MAX_DEPTH`` by scanning
the raw text first (brackets outside strings), then parses.

JSON may spell a lone surrogate (``"\\ud800"``), which no UTF-8 text, database or response can
hold: every string of the parsed body (keys too) is checked once here, and the first one at
fault is a 400 naming its place in the body (``name``, ``players[2]``, ``hands[0].knocker``).
Form posts get the same check in :class:`core.middleware.RequestTextMiddleware`.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import APIException, ParseError
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


# The only characters a Python str can hold that UTF-8 cannot encode.
_SURROGATE = re.compile("[\ud800-\udfff]")


def is_unencodable(text: str) -> bool:
    """True if ``text`` holds a character UTF-8 cannot encode (a lone surrogate)."""
    return _SURROGATE.search(text) is not None


def printable_key(key: str) -> str:
    """``key`` as text that can always be shown (a surrogate becomes ``\\udXXX``)."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def unencodable_path(data: Any, path: str = "") -> str | None:
    """Where in ``data`` (parsed JSON) the first string UTF-8 cannot encode is, as a path
    (``name``, ``players[2]``, ``hands[0].knocker``; ``""`` for the body itself); None if none.

    >>> unencodable_path({"hands": [{"knocker": 0}, {"outcome": "\\ud800"}]})
    'hands[1].outcome'
    >>> unencodable_path(["ok", {"fine": True}]) is None
    True
    """
    if isinstance(data, str):
        return path if is_unencodable(data) else None
    if isinstance(data, Mapping):
        for key, value in data.items():
            here = f"{path}.{printable_key(str(key))}" if path else printable_key(str(key))
            if isinstance(key, str) and is_unencodable(key):
                return here
            found = unencodable_path(value, here)
            if found is not None:
                return found
        return None
    if isinstance(data, list | tuple):
        for index, value in enumerate(data):
            found = unencodable_path(value, f"{path}[{index}]")
            if found is not None:
                return found
    return None


def unencodable_error(field: str) -> dict[str, str]:
    """The body of the 400 for text at ``field`` that is not valid Unicode."""
    where = field or _("the request body")
    return {
        "detail": _(
            "%(field)s holds text that is not valid Unicode (a lone surrogate); send it as UTF-8."
        )
        % {"field": where},
        "field": field,
    }


class RequestTooLarge(APIException):
    """A request body over ``DATA_UPLOAD_MAX_MEMORY_SIZE``: 413, never read further."""

    status_code = 413
    default_detail = gettext_lazy("The request body is too large.")
    default_code = "too_large"


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
            raise RequestTooLarge()
        encoding = (parser_context or {}).get("encoding", settings.DEFAULT_CHARSET)
        try:
            text = raw.decode(encoding)
        except (UnicodeDecodeError, LookupError):
            raise ParseError(_("The request body is not valid text.")) from None
        if json_depth_exceeds(text, int(getattr(settings, "KNOCK_JSON_MAX_DEPTH", 20))):
            raise ParseError(_("The JSON body is nested too deeply."))
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(_("JSON parse error - %(error)s") % {"error": exc}) from None
        field = unencodable_path(data)
        if field is not None:
            raise ParseError(unencodable_error(field))
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not allowed")
