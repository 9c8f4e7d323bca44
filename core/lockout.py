"""What a locked-out sign-in sees (django-axes' ``AXES_LOCKOUT_CALLABLE``): a 429 that says why
and for how long."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def cooloff_minutes() -> int:
    return max(1, round(float(settings.AXES_COOLOFF_TIME) * 60))


def locked_out(
    request: HttpRequest, credentials: Any = None, *args: Any, **kwargs: Any
) -> HttpResponse:
    context = {"minutes": cooloff_minutes(), "failures": settings.AXES_FAILURE_LIMIT}
    return render(request, "registration/locked_out.html", context, status=429)
