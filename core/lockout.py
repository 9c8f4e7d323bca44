"""What a locked-out sign-in sees (django-axes' ``AXES_LOCKOUT_CALLABLE``): a 429 that says why
and for how long, with ``Retry-After``; JSON on the API, the sign-in's own page elsewhere.

Only the pair (username, client address) is locked (``AXES_LOCKOUT_PARAMETERS``): wrong passwords
for ``director`` sent from anywhere else never keep the director out, and one phone's mistakes
never lock another account on the same club Wi-Fi.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _


def cooloff_seconds() -> int:
    return max(60, round(float(settings.AXES_COOLOFF_TIME) * 3600))


def cooloff_minutes() -> int:
    return max(1, round(cooloff_seconds() / 60))


def locked_out(
    request: HttpRequest, credentials: Any = None, *args: Any, **kwargs: Any
) -> HttpResponse:
    minutes, failures = cooloff_minutes(), settings.AXES_FAILURE_LIMIT
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse(
            {
                "detail": _(
                    "Too many wrong passwords (%(n)s) for this account from this address. "
                    "Sign-in is locked for %(m)s minutes: try again after that."
                )
                % {"n": failures, "m": minutes}
            },
            status=429,
        )
    else:
        context = {"minutes": minutes, "failures": failures}
        response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(cooloff_seconds())
    return response
