"""Online entry: a player enters an event on its entry page (``/events/<id>/enter/``) or the API,
and the director approves, refuses, moves to or from the waiting list, and merges duplicates.

The rules, in the order a submission meets them (each refusal stores nothing):

- the honeypot field is empty (a bot fills every field);
- the client address is under the entry limit (``KNOCK_ENTRY_LIMIT`` submissions per
  ``KNOCK_ENTRY_WINDOW`` seconds, counted in the shared cache like the link limit; a cache that
  cannot count never refuses);
- the event takes entries (option ``entries_open``), is not finished, has no round paired yet,
  and its closing time (``Event.entries_close_at``) has not passed;
- the name (trimmed, :func:`core.names.name_clean`) is not already entered or registered: the
  same club player, or the same name compared case-insensitively;
- under the cap (option ``entries_cap``: registrations not dropped), the entry is accepted and
  registered at once, or awaits approval when the event asks for it (option
  ``entries_approval``); at the cap, the entrant is refused with ``full`` unless they asked for
  the waiting list, where they take the last place.

The waiting list moves up by itself: when a registered player drops out before the first round
(any path: ``registration_drop``, which sends tournaments' ``registration_dropped`` signal that
``entries.receivers`` answers), :func:`entries_promote` registers the first waiting entrant
for each free place, writes it in the event's log (the console shows it) and mails the entrant
when they gave an address. :func:`entry_accept` is the one function that turns an entry into a
registration.

Every entry is given its entrant's private link (:mod:`entries.links`), shown on the page that
answers the entry and mailed to an entrant still without a place: it shows where the entry
stands and lets the entrant withdraw it (:func:`entry_withdraw_own`), and it is their pass
once they have a place.
"""

from __future__ import annotations

import logging
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import get_supported_language_variant
from django.utils.translation import gettext as _

from clubs.models import Player
from clubs.services.players import player_create
from core.errors import ApplicationError
from core.names import name_clean
from entries.links import entry_link_issue
from entries.models import Entry
from entries.selectors import event_entries_problem, event_entry_room, event_started
from entries.services.mail import entry_promoted_mail, entry_received_mail
from tournaments.models import Event, EventLog, Registration
from tournaments.options import OptionError, options_clean
from tournaments.selectors import event_option
from tournaments.services.registrations import registration_create
from tournaments.services.withdrawals import registration_drop

if TYPE_CHECKING:
    from django.contrib.auth.models import User

logger = logging.getLogger(__name__)

ENTRY_FULL = "full"
"""The ``code`` of the refusal that offers the waiting list (the page and the API show it)."""


# -- the per-address limit -------------------------------------------------------------------


def entry_limit() -> int:
    return int(getattr(settings, "KNOCK_ENTRY_LIMIT", 10))


def entry_window() -> int:
    return int(getattr(settings, "KNOCK_ENTRY_WINDOW", 3600))


def entry_cache_key(ip: str | None) -> str:
    return f"knock:entry:{ip or 'unknown'}"


def entry_attempt_note(*, ip: str | None) -> None:
    """Count one submission from ``ip``; raise 429 once the address is over the limit.

    The count lives in the cache every process shares (add, then increment); a cache that
    cannot count refuses nothing (the log says so)."""
    key = entry_cache_key(ip)
    try:
        if cache.add(key, 1, timeout=entry_window()):
            count = 1
        else:
            try:
                count = int(cache.incr(key))
            except ValueError:  # expired between add and incr
                cache.add(key, 1, timeout=entry_window())
                count = 1
    except Exception:
        logger.warning("entry limit: the cache cannot count entries; not limiting", exc_info=True)
        return
    if count > entry_limit():
        raise ApplicationError(
            _("Too many entries from this address. Try again later."),
            status=429,
            retry_after=entry_window(),
        )


def entry_language(language: str | None) -> str:
    """``language`` (``ko``, ``ko-KR``, ``en-us``…) as one of the site's languages (Django's
    own matching), else the site's."""
    try:
        return get_supported_language_variant(language or "")
    except LookupError:
        return get_supported_language_variant(settings.LANGUAGE_CODE)


# -- the rules' helpers -----------------------------------------------------------------------


def _next_waiting_position(event: Event) -> int:
    top = Entry.objects.filter(event=event).aggregate(n=Max("waiting_position"))["n"]
    return (top or 0) + 1


def _club_player(event: Event, name: str) -> Player | None:
    return Player.objects.filter(club_id=event.club_id, name__iexact=name).first()


def _duplicate_check(event: Event, name: str, player: Player | None) -> None:
    active = Entry.objects.filter(event=event, status__in=Entry.ACTIVE)
    registered = Registration.objects.filter(event=event).exclude(
        status=Registration.Status.DROPPED
    )
    if (
        active.filter(name__iexact=name).exists()
        or (player is not None and active.filter(player=player).exists())
        or (player is not None and registered.filter(player=player).exists())
    ):
        raise ApplicationError(
            _("%(name)s has already entered this event.") % {"name": name},
            status=409,
            field="name",
            extra={"code": "duplicate"},
        )


# -- the entrant -------------------------------------------------------------------------------


def entry_submit(
    *,
    event: Event,
    name: str,
    email: str = "",
    note: str = "",
    waiting_list: bool = False,
    honeypot: str = "",
    ip: str | None = None,
    language: str = "",
) -> Entry:
    """An entrant's submission (the entry page and the public API): the rules of the module's
    docstring, in that order. Returns the stored entry (accepted, pending or waiting).

    ``language`` is the entrant's (the page's or the request's language): their mails are
    written in it; one Knock does not speak falls back to the site's."""
    if honeypot:
        raise ApplicationError(_("This entry was refused."), field="website")
    entry_attempt_note(ip=ip)
    name = name_clean(name, empty_message=_("Give your name."))
    if len(name) > Entry._meta.get_field("name").max_length:  # type: ignore[operator]
        raise ApplicationError(_("That name is too long."), field="name")
    email = email.strip()
    note = note.strip()
    with transaction.atomic():
        event = Event.objects.select_for_update().select_related("club").get(pk=event.pk)
        problem = event_entries_problem(event=event)
        if problem is not None:
            raise ApplicationError(problem, status=409, extra={"code": "closed"})
        player = _club_player(event, name)
        _duplicate_check(event, name, player)
        room = event_entry_room(event=event)
        if not room and not waiting_list:
            raise ApplicationError(
                _("The event is full. You may join the waiting list."),
                status=409,
                extra={"code": ENTRY_FULL},
            )
        entry = Entry(
            event=event,
            name=name,
            player=player,
            email=email,
            note=note,
            language=entry_language(language),
            status=Entry.Status.PENDING,
        )
        entry_link_issue(entry)  # the entrant's own link, their pass once they have a place
        entry.save()
        if not room:
            entry.status = Entry.Status.WAITING
            entry.waiting_position = _next_waiting_position(event)
            entry.save(update_fields=["status", "waiting_position", "updated_at"])
        elif not event_option(event=event, name="entries_approval"):
            entry_accept(entry=entry)
            entry.refresh_from_db()
        if entry.email and entry.status != Entry.Status.ACCEPTED:
            # An accepted entrant is mailed their pass (passes); the others their link.
            transaction.on_commit(partial(entry_received_mail, entry=entry))
    return entry


# -- the director's ----------------------------------------------------------------------------


def _locked(entry: Entry) -> Entry:
    return Entry.objects.select_for_update().select_related("event", "event__club").get(pk=entry.pk)


def entry_accept(*, entry: Entry) -> Registration:
    """Register the entrant: the one way an entry becomes a registration (approval, a director's
    move from the waiting list, and the waiting list moving up all come here).

    The name is matched to a player of the event's club (case-insensitively), else the club gets
    a new guest player of that name. Returns the registration; refused (409) when the player is
    already registered or the entry is refused, withdrawn or accepted already.
    """
    with transaction.atomic():
        entry = _locked(entry)
        if entry.status not in (Entry.Status.PENDING, Entry.Status.WAITING):
            raise ApplicationError(
                _("This entry cannot be accepted: it is %(status)s.")
                % {"status": entry.get_status_display()},
                status=409,
            )
        event = entry.event
        player = entry.player or _club_player(event, entry.name)
        if player is None:
            player = player_create(club=event.club, name=entry.name, is_guest=True)
        # The player first: the pass issued with the registration finds the entrant's link by it.
        entry.player = player
        entry.save(update_fields=["player", "updated_at"])
        registration = registration_create(event=event, player=player)
        entry.status = Entry.Status.ACCEPTED
        entry.waiting_position = None
        entry.registration = registration
        entry.save(
            update_fields=["player", "status", "waiting_position", "registration", "updated_at"]
        )
    return registration


def entry_approve(*, entry: Entry) -> Entry:
    """The director's approval: a pending entry is registered if there is room, else it goes to
    the end of the waiting list; a waiting entry is registered even past the cap (the director
    decides)."""
    with transaction.atomic():
        entry = _locked(entry)
        Event.objects.select_for_update().get(pk=entry.event_id)
        if entry.status == Entry.Status.PENDING and not event_entry_room(event=entry.event):
            entry.status = Entry.Status.WAITING
            entry.waiting_position = _next_waiting_position(entry.event)
            entry.save(update_fields=["status", "waiting_position", "updated_at"])
            return entry
        entry_accept(entry=entry)
    entry.refresh_from_db()
    return entry


def entry_refuse(*, entry: Entry) -> Entry:
    """Refuse a pending or waiting entry (an accepted one withdraws instead)."""
    with transaction.atomic():
        entry = _locked(entry)
        if entry.status not in (Entry.Status.PENDING, Entry.Status.WAITING):
            raise ApplicationError(
                _("Only an entry awaiting approval or waiting can be refused."), status=409
            )
        entry.status = Entry.Status.REFUSED
        entry.waiting_position = None
        entry.save(update_fields=["status", "waiting_position", "updated_at"])
    return entry


def entry_waitlist(*, entry: Entry) -> Entry:
    """Move an entry to the end of the waiting list: a pending one, or an accepted one before
    the first round (its registration is removed; the place it frees is not filled by itself,
    since the director is making room on purpose)."""
    with transaction.atomic():
        entry = _locked(entry)
        event = Event.objects.select_for_update().get(pk=entry.event_id)
        if entry.status == Entry.Status.ACCEPTED:
            if event_started(event=event):
                raise ApplicationError(
                    _("The event has started: an accepted entrant can no longer wait."),
                    status=409,
                )
            registration = entry.registration
            entry.registration = None
            entry.save(update_fields=["registration", "updated_at"])
            if registration is not None:
                registration.delete()
        elif entry.status != Entry.Status.PENDING:
            raise ApplicationError(
                _("Only an entry awaiting approval or accepted can move to the waiting list."),
                status=409,
            )
        entry.status = Entry.Status.WAITING
        entry.waiting_position = _next_waiting_position(event)
        entry.save(update_fields=["status", "waiting_position", "updated_at"])
    return entry


def entry_merge(*, entry: Entry, into: Entry) -> Entry:
    """Merge a duplicate ``entry`` into ``into`` (same event): the duplicate is withdrawn and
    points at ``into``, which keeps its own status and takes the duplicate's email and note
    where it has none; when only the duplicate is accepted, ``into`` takes its registration.
    Refused when both hold a registration (withdraw one first)."""
    if entry.pk == into.pk:
        raise ApplicationError(_("An entry cannot be merged into itself."), field="into")
    with transaction.atomic():
        entry, into = _locked(entry), _locked(into)
        if entry.event_id != into.event_id:
            raise ApplicationError(_("Both entries must be for the same event."), field="into")
        if entry.status not in Entry.ACTIVE or into.status not in Entry.ACTIVE:
            raise ApplicationError(
                _("Only entries still in play (awaiting, accepted or waiting) can be merged."),
                status=409,
            )
        if entry.registration_id and into.registration_id:
            raise ApplicationError(
                _("Both entries are registered: withdraw one of them first."), status=409
            )
        into.email = into.email or entry.email
        if entry.note and entry.note not in into.note:
            into.note = (f"{into.note}\n{entry.note}" if into.note else entry.note)[:500]
        registration = entry.registration
        entry.status = Entry.Status.WITHDRAWN
        entry.waiting_position = None
        entry.merged_into = into
        entry.registration = None
        entry.save(
            update_fields=[
                "status",
                "waiting_position",
                "merged_into",
                "registration",
                "updated_at",
            ]
        )
        if registration is not None:
            into.registration = registration
            into.player = registration.player
            into.status = Entry.Status.ACCEPTED
            into.waiting_position = None
        into.save()
    return into


# -- the waiting list moving up ----------------------------------------------------------------


def entry_registration_dropped(*, registration: Registration) -> None:
    """``registration`` dropped out: its entry (if any) is withdrawn (``registration_drop``'s
    signal brings this here in its transaction, then :func:`entries_promote`)."""
    Entry.objects.filter(registration=registration, status=Entry.Status.ACCEPTED).update(
        status=Entry.Status.WITHDRAWN, updated_at=timezone.now()
    )


def entries_promote(*, event: Event, user: User | None = None) -> list[Entry]:
    """Fill the free places from the waiting list, first come first served, before the first
    round; each promoted entrant is written in the event's log and mailed (after the commit)
    when they gave an address. Returns the promoted entries."""
    promoted: list[Entry] = []
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        if event_started(event=event):
            return []
        while event_entry_room(event=event):
            entry = (
                Entry.objects.filter(event=event, status=Entry.Status.WAITING)
                .order_by("waiting_position", "id")
                .first()
            )
            if entry is None:
                break
            try:
                with transaction.atomic():
                    entry_accept(entry=entry)
            except ApplicationError:
                # Already registered some other way: that entry no longer waits.
                Entry.objects.filter(pk=entry.pk).update(
                    status=Entry.Status.WITHDRAWN, waiting_position=None
                )
                continue
            entry.refresh_from_db()
            EventLog.objects.create(
                event=event,
                kind=EventLog.Kind.ENTRY_PROMOTED,
                reason=entry.name,
                details={"entry": entry.pk, "player": entry.player_id},
                user=user,
            )
            promoted.append(entry)
            if entry.email:
                transaction.on_commit(partial(entry_promoted_mail, entry=entry))
    return promoted


def event_entries_configure(
    *,
    event: Event,
    entries_open: bool,
    cap: int | None,
    approval: bool,
    close_at: datetime | None,
) -> Event:
    """The director's entry settings: open or not, the cap, approval, the closing time. The
    three options are checked like every option (:func:`tournaments.options.options_clean`);
    a raised cap fills its new places from the waiting list at once."""
    with transaction.atomic():
        event = Event.objects.select_for_update().get(pk=event.pk)
        stored = dict(event.options) if isinstance(event.options, dict) else {}
        stored.update(
            {"entries_open": entries_open, "entries_cap": cap, "entries_approval": approval}
        )
        try:
            event.options = options_clean(stored)
        except OptionError as exc:
            raise ApplicationError(exc.message, field=exc.name) from exc
        event.entries_close_at = close_at
        event.save(update_fields=["options", "entries_close_at"])
        entries_promote(event=event)
    return event


def entry_withdraw(*, entry: Entry) -> Entry:
    """An entrant withdraws (or the director withdraws them): an accepted entrant drops out
    like any registered player (``registration_drop``, so the waiting list moves up); a
    pending or waiting entry simply leaves. Twice is harmless."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.status in (Entry.Status.WITHDRAWN, Entry.Status.REFUSED):
            return entry
        if entry.status == Entry.Status.ACCEPTED and entry.registration is not None:
            registration_drop(registration=entry.registration)
        else:
            entry.status = Entry.Status.WITHDRAWN
            entry.waiting_position = None
            entry.save(update_fields=["status", "waiting_position", "updated_at"])
    entry.refresh_from_db()
    return entry


def entry_withdraw_own(*, entry: Entry) -> Entry:
    """The entrant withdraws an entry that has no place yet (awaiting approval, or waiting),
    with their own link: it leaves the list, and nothing else changes (nobody moves up: only a
    place freed by a registered player is filled). Refused (409) when it is withdrawn already,
    refused by the director, or has a place (the pass withdraws a registered player)."""
    with transaction.atomic():
        entry = Entry.objects.select_for_update().get(pk=entry.pk)
        if entry.status == Entry.Status.WITHDRAWN:
            raise ApplicationError(
                _("You have already withdrawn this entry."), status=409, extra={"code": "withdrawn"}
            )
        if entry.status == Entry.Status.REFUSED:
            raise ApplicationError(
                _("The director refused this entry: there is nothing to withdraw."), status=409
            )
        if entry.status not in (Entry.Status.PENDING, Entry.Status.WAITING):
            raise ApplicationError(
                _("You have a place in this event: drop out with your pass."), status=409
            )
        entry.status = Entry.Status.WITHDRAWN
        entry.waiting_position = None
        entry.save(update_fields=["status", "waiting_position", "updated_at"])
    return entry
