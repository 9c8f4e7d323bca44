"""What every app's page forms share: a service's message put on the form."""

from __future__ import annotations

from django import forms

from core.errors import ApplicationError


class ServiceErrorsMixin:
    """Put a service's ``ApplicationError`` at the form field it names."""

    service_fields: dict[str, str | None] = {}

    def add_service_error(self, exc: ApplicationError) -> None:
        form: forms.Form = self  # type: ignore[assignment]
        name = self.service_fields.get(exc.field or "", exc.field)
        if name not in form.fields:
            name = None
        form.add_error(name, exc.message)
