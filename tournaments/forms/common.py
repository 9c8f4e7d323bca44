"""What the event page forms share: typing a whole number (a service's messages go on a form
through ``core.forms.ServiceErrorsMixin``)."""

from __future__ import annotations

from core.parsing import parse_ascii_int


def ascii_int(text: str) -> int:
    """A whole number of ASCII digits, or ValueError (the caller's message names the field)."""
    number = parse_ascii_int(text, signed=True)
    if number is None:
        raise ValueError(text)
    return number
