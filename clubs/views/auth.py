"""Sign in, sign out and sign up pages."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth import login, password_validation
from django.contrib.auth.views import LoginView, LogoutView
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_post_parameters

from clubs.forms import SignUpForm
from clubs.services import signup_mode, user_signup
from core.errors import ApplicationError

# -- sign in ---------------------------------------------------------------------------------


class SignInView(LoginView):
    """Signing in lands on the user's own page (their clubs, events and matches), unless the
    sign-in was asked for on the way to another page (``?next=``)."""

    template_name = "registration/login.html"
    redirect_authenticated_user = True
    next_page = "dashboard"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return {**super().get_context_data(**kwargs), "signup_mode": signup_mode()}


class SignOutView(LogoutView):
    next_page = "home"


@sensitive_post_parameters("password1", "password2")
def signup(request: HttpRequest) -> HttpResponse:
    """A new account, signed in at once and sent to start a club (a director's first step).

    ``KNOCK_SIGNUP`` decides who may: anyone, only an invited username, or nobody (a 403 page).
    """
    if request.user.is_authenticated:
        return redirect("club-create")
    mode = signup_mode()
    if mode == "closed":
        return render(request, "registration/signup_closed.html", status=403)
    form = SignUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            user = user_signup(
                username=form.cleaned_data["username"],
                email=form.cleaned_data["email"],
                password=form.cleaned_data["password1"],
            )
        except ApplicationError as exc:
            form.add_service_error(exc)
        else:
            login(request, user, backend="django.contrib.auth.backends.ModelBackend")
            if mode == "invitation":  # their invitation waits on their page
                messages.success(
                    request,
                    _("Welcome, %(user)s. Your invitation is below: accept it to take the role.")
                    % {"user": user.get_username()},
                )
                return redirect("dashboard")
            messages.success(
                request,
                _("Welcome, %(user)s. Start your club next.") % {"user": user.get_username()},
            )
            return redirect("club-create")
    return render(
        request,
        "registration/signup.html",
        {
            "form": form,
            "password_help": password_validation.password_validators_help_texts(),
            "signup_mode": mode,
        },
        status=400 if form.errors else 200,
    )
