"""Writes for passes: issue, revoke and reissue; open (with the limit on invalid secrets); self
check-in, withdrawal and the one tap to the holder's seat; the mails.

Every rule a page and the API share lives here; the views only translate.
"""

from __future__ import annotations

import hmac
import logging
from collections.abc import Callable
from datetime import datetime, time

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import timezone, translation
from django.utils.formats import date_format, time_format
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.live import live_changed
from entries.models import Entry
from entries.selectors import entry_find, entry_mailable, entry_pass_nonce
from passes.links import pass_secret, pass_url
from passes.models import PlayerPass
from passes.selectors import pass_current_match
from scoring.links import (
    LinkRefused,
    bad_secret_note,
    digest_of,
    failure_limit,
    failure_window,
    looks_like_secret,
    new_nonce,
)
from scoring.models import MatchKey
from scoring.permissions import Actor
from scoring.services import match_keys_ensure, match_links_reissue
from tournaments.models import Event, Registration, Round
from tournaments.permissions import user_can_manage_event
from tournaments.selectors import event_option
from tournaments.services.registrations import registration_checkin
from tournaments.services.withdrawals import registration_drop

logger = logging.getLogger(__name__)


# -- issue, revoke, reissue -----------------------------------------------------------------------


def _create(registration: Registration) -> PlayerPass:
    """A new pass; the first one of an entrant who was given a link at entry is issued with
    that link's nonce, so the link opens it (:mod:`entries.links`). A reissued pass, or one
    whose nonce was used already, gets a new nonce: the old link stops."""
    nonce = entry_pass_nonce(registration=registration)
    if not nonce or PlayerPass.objects.filter(nonce=nonce).exists():
        nonce = new_nonce()
    player_pass = PlayerPass(registration=registration, nonce=nonce)
    player_pass.digest = digest_of(pass_secret(player_pass))
    player_pass.save()
    return player_pass


def pass_ensure(*, registration: Registration) -> PlayerPass:
    """``registration``'s active pass, issued now if it has none (the registration hook)."""
    active = PlayerPass.objects.filter(registration=registration, revoked_at__isnull=True).first()
    if active is not None:
        return active
    try:
        with transaction.atomic():
            return _create(registration)
    except IntegrityError:  # issued at the same moment by another request: theirs stands
        return PlayerPass.objects.get(registration=registration, revoked_at__isnull=True)


def _require_director(*, user: object, event: Event) -> None:
    if user is None or not user_can_manage_event(user=user, event=event):
        raise ApplicationError(_("Only the event's directors may manage its passes."), status=403)


def _seat_link_replace(*, old: PlayerPass | None, user: object) -> None:
    """The holder's seat at their match in play gets a new link: a browser that held the old
    pass (a lost phone) may hold that seat from its one tap. The pass's next tap takes the new
    link; a slip printed for that seat stops too. A director who plays at that table cannot
    replace its links (scoring's rule): the seat is then left as it is."""
    current = pass_current_match(player_pass=old) if old is not None else None
    if current is None or current.finished or current.position is None:
        return
    actor = Actor(user=user if isinstance(user, get_user_model()) else None)
    try:
        match_links_reissue(match=current.match, actor=actor, positions=[current.position])
    except ApplicationError:
        logger.info("pass revoked: seat %s of match %s kept", current.position, current.match.pk)


def pass_revoke(*, registration: Registration, user: object) -> None:
    """Revoke ``registration``'s pass (a director): its link answers 404 from now on, and the
    holder's seat at a match in play (which the pass may have taken) gets a new link."""
    _require_director(user=user, event=registration.event)
    with transaction.atomic():
        old = PlayerPass.objects.filter(registration=registration, revoked_at__isnull=True).first()
        PlayerPass.objects.filter(registration=registration, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        _seat_link_replace(old=old, user=user)


def pass_reissue(*, registration: Registration, user: object) -> PlayerPass:
    """Revoke ``registration``'s pass and issue a new one (a director): the old link stops, and
    so does the holder's seat link at a match in play (the new pass takes the new one)."""
    _require_director(user=user, event=registration.event)
    with transaction.atomic():
        Registration.objects.select_for_update().get(pk=registration.pk)
        old = PlayerPass.objects.filter(registration=registration, revoked_at__isnull=True).first()
        PlayerPass.objects.filter(registration=registration, revoked_at__isnull=True).update(
            revoked_at=timezone.now()
        )
        _seat_link_replace(old=old, user=user)
        return _create(registration)


# -- opening --


def pass_find(*, secret: str) -> PlayerPass | None:
    """The active pass whose secret is ``secret``, or None (unknown, revoked or malformed)."""
    if not looks_like_secret(secret):
        return None
    found = (
        PlayerPass.objects.select_related("registration__event", "registration__player")
        .filter(digest=digest_of(secret), revoked_at__isnull=True)
        .first()
    )
    if found is None or not hmac.compare_digest(pass_secret(found), secret):
        return None
    return found


def pass_open(*, secret: str, ip: str | None) -> PlayerPass:
    """The active pass of ``secret``; else count the failure against ``ip`` (the seat links'
    count and limit) and raise :class:`scoring.links.LinkRefused` (404, or 429 past it)."""
    found = pass_find(secret=secret)
    if found is not None:
        return found
    if bad_secret_note(ip) > failure_limit():
        raise LinkRefused(status=429, retry_after=failure_window())
    raise LinkRefused(status=404)


def link_open(*, secret: str, ip: str | None) -> PlayerPass | Entry:
    """What the link ``secret`` opens: an active pass, else an entry still without a place
    (its entrant was given the link at entry: :mod:`entries.links`); else the failure counts
    against ``ip`` as :func:`pass_open`'s does."""
    found = pass_find(secret=secret)
    if found is not None:
        return found
    entry = entry_find(secret=secret)
    if entry is not None:
        return entry
    if bad_secret_note(ip) > failure_limit():
        raise LinkRefused(status=429, retry_after=failure_window())
    raise LinkRefused(status=404)


def pass_opened(*, player_pass: PlayerPass) -> None:
    """Note the first opening (the console counts opened passes)."""
    if player_pass.opened_at is None:
        now = timezone.now()
        PlayerPass.objects.filter(pk=player_pass.pk, opened_at__isnull=True).update(opened_at=now)
        player_pass.opened_at = now


# -- what the holder does --


def checkin_opens_at(*, event: Event) -> datetime | None:
    """When self check-in with a pass opens (the event option ``pass_checkin_opens``, HHMM on
    the event's date, today if it has none); None: open at any time."""
    value = event_option(event=event, name="pass_checkin_opens")
    if value is None:
        return None
    hours, minutes = divmod(int(value), 100)
    hours, minutes = min(hours, 23), min(minutes, 59)
    day = event.starts_on or timezone.localdate()
    return timezone.make_aware(datetime.combine(day, time(hours, minutes)))


def checkin_opens_text(opens: datetime, *, now: datetime | None = None) -> str:
    """When check-in opens, as the holder reads it: the time on the day itself, the date and
    time before (an event of next Saturday does not open "at 09:30" today)."""
    local = timezone.localtime(opens)
    if local.date() == timezone.localtime(now or timezone.now()).date():
        return time_format(local)
    return date_format(local, "SHORT_DATETIME_FORMAT")


def pass_checkin(*, player_pass: PlayerPass, now: datetime | None = None) -> Registration:
    """The holder checks in with their pass, once check-in has opened (409 before)."""
    registration = player_pass.registration
    opens = checkin_opens_at(event=registration.event)
    if opens is not None and (now or timezone.now()) < opens:
        raise ApplicationError(
            _("Check-in opens at %(time)s.") % {"time": checkin_opens_text(opens, now=now)},
            status=409,
        )
    registration = registration_checkin(registration=registration)
    live_changed(page="event", pk=registration.event_id)
    return registration


def pass_withdraw(*, player_pass: PlayerPass) -> Registration:
    """The holder withdraws from the event (the withdrawal service: not paired again, open
    matches become walkovers); the console names them."""
    with transaction.atomic():
        # Read without a lock (the drop locks the event, then the registration): a registration
        # a director dropped before is not the holder's withdrawal, and the console says so.
        was_dropped = Registration.objects.filter(
            pk=player_pass.registration_id, status=Registration.Status.DROPPED
        ).exists()
        registration = registration_drop(registration=player_pass.registration)
        if not was_dropped:
            PlayerPass.objects.filter(pk=player_pass.pk, withdrew_at__isnull=True).update(
                withdrew_at=timezone.now()
            )
    live_changed(page="event", pk=registration.event_id)
    return registration


def pass_seat_key(*, player_pass: PlayerPass, match_id: int | None = None) -> MatchKey:
    """The seat key of the holder's seat at their current match: the pass acts as that seat's
    link, for that match only. ``match_id``, when given, must be that match (403 otherwise:
    a pass never opens another match or another seat)."""
    current = pass_current_match(player_pass=player_pass)
    if current is None or current.position is None:
        if match_id is not None:
            raise ApplicationError(_("This pass is not for that match."), status=403)
        raise ApplicationError(_("You have no match to play now."), status=409)
    if match_id is not None and match_id != current.match.pk:
        raise ApplicationError(_("This pass is not for that match."), status=403)
    keys = match_keys_ensure(match=current.match)
    key = keys.get(current.position)
    if key is None:  # pragma: no cover - match_keys_ensure issues every seat's key
        raise ApplicationError(_("This pass is not for that match."), status=403)
    return key


# -- mail --


def pass_email(*, registration: Registration) -> str:
    """Where the holder's mail goes: the email given with their accepted entry ("" if none)."""
    entry = entry_mailable(registration=registration)
    return entry.email if entry is not None else ""


def site_absolute(path: str) -> str:
    """An absolute URL for a mail (no request to build it from): ``KNOCK_SITE_URL`` + path."""
    base = str(getattr(settings, "KNOCK_SITE_URL", "") or "http://localhost:8000").rstrip("/")
    return base + path


def pass_mail(
    *,
    player_pass: PlayerPass,
    rnd: Round | None = None,
    absolute: Callable[[str], str] = site_absolute,
) -> bool:
    """Mail the holder their pass (at entry; with ``rnd``: the round is paired and where they
    sit). True when a mail went; False without an address. Raises nothing: a mail that fails is
    logged, never a reason for the caller to fail. It is written in the language the holder
    entered in."""
    registration = player_pass.registration
    entry = entry_mailable(registration=registration)
    if entry is None:
        return False
    address = entry.email
    current = pass_current_match(player_pass=player_pass) if rnd is not None else None
    with translation.override(entry.language or settings.LANGUAGE_CODE):
        context = {
            "event": registration.event,
            "player": registration.player,
            "url": pass_url(absolute=absolute, player_pass=player_pass),
            "round": rnd,
            "current": current,
        }
        subject = render_to_string("passes/mail_subject.txt", context).strip()
        body = render_to_string("passes/mail_body.txt", context)
    try:
        send_mail(subject, body, None, [address])
    except Exception:
        logger.warning("pass mail to registration %s failed", registration.pk, exc_info=True)
        return False
    return True


def round_passes_mail(*, round_id: int, player_ids: list[int] | None = None) -> int:
    """Mail every pass holder of a paired round where they sit (only ``player_ids``, when
    given: a bracket seats its matches one by one); the count of mails sent."""
    rnd = Round.objects.select_related("event").filter(pk=round_id).first()
    if rnd is None:
        return 0
    sent = 0
    passes = (
        PlayerPass.objects.select_related("registration__event", "registration__player")
        .filter(registration__event_id=rnd.event_id, revoked_at__isnull=True)
        .exclude(registration__status=Registration.Status.DROPPED)
    )
    if rnd.event.playoff_of_id is None:  # a playoff's players entered the event it was cut from
        passes = passes.filter(registration__entry__isnull=False)
    if player_ids is not None:
        passes = passes.filter(registration__player_id__in=player_ids)
    for player_pass in passes:
        sent += int(pass_mail(player_pass=player_pass, rnd=rnd))
    return sent
