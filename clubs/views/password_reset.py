"""Getting back in: Django's own password-reset views, with the site's pages and a light limit
on how many reset mails one address receives.

The request page answers the same for every address, known or not (Django's form mails only
active accounts with that address and a usable password), so it tells nobody who has an account.
"""

from __future__ import annotations

import hashlib
import logging
from typing import Any

from django.contrib.auth import views as auth_views
from django.contrib.auth.forms import PasswordResetForm
from django.core.cache import cache
from django.urls import reverse_lazy

logger = logging.getLogger(__name__)

RESET_MAILS_PER_ADDRESS = 3
"""Reset mails one email address receives per window; later requests send nothing (the page
still answers the same, so the limit tells nothing either)."""
RESET_WINDOW_SECONDS = 3600


def _reset_allowed(email: str) -> bool:
    """Count a reset request for ``email``; False once the address had its mails this hour."""
    digest = hashlib.sha256(email.strip().lower().encode()).hexdigest()
    key = f"knock:password-reset:{digest}"
    try:
        cache.add(key, 0, RESET_WINDOW_SECONDS)
        try:
            count = cache.incr(key)
        except ValueError:  # expired between add and incr
            cache.set(key, 1, RESET_WINDOW_SECONDS)
            count = 1
    except Exception:  # the cache is down: a reset mail is never refused for that
        logger.warning("password reset: the cache cannot count; not limiting", exc_info=True)
        return True
    return count <= RESET_MAILS_PER_ADDRESS


class LimitedPasswordResetForm(PasswordResetForm):
    """Django's form, sending at most ``RESET_MAILS_PER_ADDRESS`` mails per address per hour."""

    def save(self, *args: Any, **kwargs: Any) -> None:
        if _reset_allowed(self.cleaned_data["email"]):
            super().save(*args, **kwargs)


class PasswordResetView(auth_views.PasswordResetView):
    form_class = LimitedPasswordResetForm
    template_name = "registration/password_reset_form.html"
    email_template_name = "registration/password_reset_email.txt"
    subject_template_name = "registration/password_reset_subject.txt"
    success_url = reverse_lazy("password_reset_done")


class PasswordResetDoneView(auth_views.PasswordResetDoneView):
    template_name = "registration/password_reset_done.html"


class PasswordResetConfirmView(auth_views.PasswordResetConfirmView):
    template_name = "registration/password_reset_confirm.html"
    success_url = reverse_lazy("password_reset_complete")


class PasswordResetCompleteView(auth_views.PasswordResetCompleteView):
    template_name = "registration/password_reset_complete.html"
