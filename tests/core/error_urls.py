"""The site's routes plus one that fails: what the error-page tests use to meet a 500."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import path

from config.urls import handler400, handler403, handler404, handler500, urlpatterns

__all__ = ["handler400", "handler403", "handler404", "handler500", "urlpatterns"]


def boom(request: HttpRequest) -> HttpResponse:
    raise RuntimeError("a test-only failure")


urlpatterns = [path("test-only/boom/", boom), *urlpatterns]
