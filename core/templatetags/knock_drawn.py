"""``{% drawn "template.html" row %}``: a list's row drawn once per content (core.drawn)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django import template
from django.utils.safestring import SafeString

from core.drawn import drawn as drawn_row

register = template.Library()


@register.simple_tag(name="drawn")
def drawn(template_name: str, row: Mapping[str, Any]) -> SafeString:
    return drawn_row(template_name, row)
