"""The mail an entrant gets when the waiting list moves them up, in the language they entered in."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from entries.models import Entry

logger = logging.getLogger(__name__)


def entry_promoted_mail(*, entry: Entry) -> None:
    """Tell a promoted entrant by mail (Django's mail framework; a failure is logged, never
    raised: the place is theirs whether the mail goes or not). Subject and body are in
    ``entry.language``, whatever language the request that freed the place was in."""
    site = str(getattr(settings, "KNOCK_SITE_URL", "") or "").rstrip("/")
    path = reverse("event-detail", args=[entry.event_id])
    context = {"entry": entry, "event": entry.event, "event_url": f"{site}{path}" if site else ""}
    with translation.override(entry.language or settings.LANGUAGE_CODE):
        subject = _("You have a place in %(event)s") % {"event": entry.event.name}
        body = render_to_string("entries/mail/entry_promoted.txt", context)
    try:
        send_mail(subject, body, None, [entry.email])
    except Exception:
        logger.warning("entry %s: the promotion mail could not be sent", entry.pk, exc_info=True)
