"""The mails an entrant gets, in the language they entered in: their private link when the entry
has no place yet (awaiting approval or waiting), and the news when the waiting list moves them
up."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import send_mail
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext as _

from entries.links import entry_secret
from entries.models import Entry
from entries.selectors import entry_waiting_rank

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


def entry_link_url(entry: Entry) -> str:
    """The absolute link of ``entry`` for a mail (``KNOCK_SITE_URL``, as the pass's mails)."""
    base = str(getattr(settings, "KNOCK_SITE_URL", "") or "http://localhost:8000").rstrip("/")
    return f"{base}{reverse('pass-open')}#{entry_secret(entry)}"


def entry_received_mail(*, entry: Entry) -> None:
    """Mail an entrant without a place yet (awaiting approval, or waiting) their private link:
    where they stand, and a way to withdraw. Logged, never raised, when it fails."""
    entry.refresh_from_db()
    if (
        not entry.email
        or not entry.nonce
        or entry.status
        not in (
            Entry.Status.PENDING,
            Entry.Status.WAITING,
        )
    ):
        return
    context = {
        "entry": entry,
        "event": entry.event,
        "rank": entry_waiting_rank(entry=entry),
        "url": entry_link_url(entry),
    }
    with translation.override(entry.language or settings.LANGUAGE_CODE):
        subject = _("Your entry for %(event)s") % {"event": entry.event.name}
        body = render_to_string("entries/mail/entry_received.txt", context)
    try:
        send_mail(subject, body, None, [entry.email])
    except Exception:
        logger.warning("entry %s: the entry mail could not be sent", entry.pk, exc_info=True)
