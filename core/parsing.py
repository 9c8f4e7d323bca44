"""Integers from outside (query strings, forms, JSON, CSV) are ASCII digits only.

Python's ``int()`` and ``str.isdigit()`` accept far more than ``0-9``: ``"²".isdigit()`` is
True and ``int("²")`` then fails; ``int("١٢")`` is 12. Every integer Knock reads from a request
or a file goes through :func:`parse_ascii_int` (or the form and serializer fields built on it),
so a stray character is a clear 400, never a 500 and never a surprising number.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.core.exceptions import ValidationError
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

_INT = re.compile(r"[+-]?[0-9]{1,18}\Z", re.ASCII)
_UNSIGNED = re.compile(r"[0-9]{1,18}\Z", re.ASCII)


def parse_ascii_int(value: Any, *, signed: bool = False) -> int | None:
    """``value`` as an int if it is one, or text of ASCII digits (a sign only when ``signed``;
    surrounding spaces allowed); None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value if signed or value >= 0 else None
    if not isinstance(value, str):
        return None
    text = value.strip()
    if not (_INT if signed else _UNSIGNED).match(text):
        return None
    return int(text)


def strict_int(value: Any, *, signed: bool = True) -> int:
    """:func:`parse_ascii_int`, raising ValueError instead of answering None (for code that
    already turns ValueError into a message naming its field)."""
    number = parse_ascii_int(value, signed=signed)
    if number is None:
        raise ValueError(f"not a whole number: {value!r}")
    return number


def is_ascii_int(value: Any, *, signed: bool = False) -> bool:
    return parse_ascii_int(value, signed=signed) is not None


class AsciiIntegerField(serializers.IntegerField):
    """DRF's IntegerField, reading ASCII digits only (JSON numbers, or text of digits)."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, float) and data.is_integer():
            data = int(data)
        value = parse_ascii_int(data, signed=True)
        if value is None:
            self.fail("invalid")
        return super().to_internal_value(value)


class AsciiFormIntegerField(forms.IntegerField):
    """Django's form IntegerField, reading ASCII digits only."""

    def to_python(self, value: Any) -> int | None:
        if value in self.empty_values:
            return None
        parsed = parse_ascii_int(value, signed=True)
        if parsed is None:
            raise ValidationError(_("Enter a whole number."), code="invalid")
        return super().to_python(parsed)


def query_int(params: Any, name: str) -> int | None:
    """An optional whole-number query parameter: None when absent or empty, a 400 naming the
    parameter when it is anything but ASCII digits."""
    raw = params.get(name)
    if raw is None or str(raw).strip() == "":
        return None
    value = parse_ascii_int(str(raw))
    if value is None:
        raise serializers.ValidationError({name: [_("A whole number is required.")]})
    return value
