"""Site-wide pages: the home page, the health endpoint and the language switch."""

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.views import i18n
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt, csrf_protect

from core.selectors import health_status


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "core/home.html")


@never_cache
def healthz(request: HttpRequest) -> JsonResponse:
    """200 when the database, the broker, at least one worker and beat are up; 503 otherwise."""
    status = health_status()
    return JsonResponse(status, status=200 if status["status"] == "ok" else 503)


def with_session(request: HttpRequest) -> bool:
    """A signed-in visitor, or one with a session (a seat opened by its link): their pages carry
    a CSRF token (templates/base.html asks the same), and their language form is checked."""
    return bool(request.user.is_authenticated or request.session.session_key)


@csrf_exempt
def set_language(request: HttpRequest) -> HttpResponse:
    """Django's own language switch (``django.views.i18n.set_language``: a POST that sets the
    language cookie and goes back to ``next``), with its CSRF check for a visitor with a session.

    A visitor without one is sent no CSRF token, so that the public pages are the same for all
    of them and a shared cache can keep them (docs/live.md); what a forged switch could do to
    such a visitor is change their page's language, which they switch back in one tap.
    """
    view = csrf_protect(i18n.set_language) if with_session(request) else i18n.set_language
    return view(request)
