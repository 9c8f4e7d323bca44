"""What the page forms share: typing a whole number, and the service's messages on the form."""

from __future__ import annotations

from django import forms

from core.errors import ApplicationError
from core.parsing import parse_ascii_int


def _ascii_int(text: str) -> int:
    """A whole number of ASCII digits, or ValueError (the caller's message names the field)."""
    number = parse_ascii_int(text, signed=True)
    if number is None:
        raise ValueError(text)
    return number


class ServiceErrorsMixin:
    """Put a service's ``ApplicationError`` at the form field it names."""

    service_fields: dict[str, str | None] = {}

    def add_service_error(self, exc: ApplicationError) -> None:
        form: forms.Form = self  # type: ignore[assignment]
        name = self.service_fields.get(exc.field or "", exc.field)
        if name not in form.fields:
            name = None
        form.add_error(name, exc.message)
