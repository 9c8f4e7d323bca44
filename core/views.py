"""Site-wide pages: the home page and the health endpoint."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views.decorators.cache import never_cache

from core.selectors import health_status


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, the broker, at least one worker and beat are up; 503 otherwise."""
    status = health_status()
    return JsonResponse(status, status=200 if status["status"] == "ok" else 503)
