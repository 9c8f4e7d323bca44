"""Hand by hand: enter (:func:`hand_submit`), confirm under the event's policy
(:func:`hand_confirm`), withdraw (:func:`hand_withdraw`) and a director's correction
(:func:`hand_override`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from core.errors import ApplicationError
from scoring.models import Confirmation, Credential, Hand, HandSubmission, Match
from scoring.organiser import organiser
from scoring.permissions import Access, ActedBy, Actor, match_access
from scoring.selectors import GameView, HandContext, MatchState
from scoring.services._common import _conflict, _current_of, _lock, _origin, _policy, _store
from scoring.services.entries import HandEntry, hand_prepare
from scoring.services.matches import match_sync


def _require_actor(access: Access, declared: int | None) -> Player | None:
    """The player the actor enters as (None: a director not seated here, acting for the table)."""
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    position = access.acting_position(declared)
    if position is None:
        if len(access.identities) > 1:
            raise ApplicationError(
                _("You hold more than one seat here: say which player you are (as_position)."),
                field="as_position",
            )
        if not access.neutral_director:
            raise ApplicationError(
                _("Say which player you are (as_position)."), field="as_position"
            )
        return None
    return access.players[position]


def hand_submit(
    *,
    match: Match,
    actor: Actor,
    entry: HandEntry,
    hand_number: int | None = None,
    as_position: int | None = None,
) -> HandSubmission:
    """Enter the next hand of the match's current game (confirmed at once under policy none)."""
    with transaction.atomic():
        state = _lock(match)
        access = match_access(actor=actor, match=state.match)
        player = _require_actor(access, as_position)
        view = state.current
        if view is None or state.match.decision != Match.Decision.PLAYED:
            raise ApplicationError(_("This match is over."), status=409)
        number = hand_number if hand_number is not None else view.next_number
        if view.pending is not None and hand_number is None:
            number = view.pending.hand.number
        if number < view.next_number:
            raise _conflict(
                _("Hand %(number)s is already recorded.") % {"number": number},
                view.hands[number - 1],
            )
        if view.pending is not None and view.pending.hand.number == number:
            raise _conflict(
                _("Hand %(number)s was already entered and waits for confirmation.")
                % {"number": number},
                view.pending,
            )
        if number > view.next_number:
            raise ApplicationError(
                _("The next hand of this game is hand %(next)s.") % {"next": view.next_number},
                field="hand_number",
            )
        prepared = hand_prepare(state=state, context=view.next_context, entry=entry)
        confirmed = _policy(state.match.event) == Confirmation.NONE
        sub = _store(
            state=state,
            game=view.game,
            number=number,
            prepared=prepared,
            actor=actor,
            player=player,
            via=_via(state, access, player),
            confirmed=confirmed,
        )
        if confirmed:
            match_sync(match=state.match)
    return sub


def _seat_of(state: MatchState, player_id: int | None) -> int | None:
    if player_id is None:
        return None
    return next((s.position for s in state.seats if s.player_id == player_id), None)


def _via(state: MatchState, access: Access, player: Player | None) -> ActedBy:
    """The credential the actor acts with as ``player`` (None: as a director, their account)."""
    return access.acted_by(_seat_of(state, player.pk) if player is not None else None)


def _answer_allowed(state: MatchState, via: ActedBy) -> None:
    """Refuse an answer to an entry (a confirmation or a dispute) made on the table's phone
    when the event asks the other side to answer on their own link or account."""
    if via.kind == Credential.TABLE_LINK and organiser().event_confirm_by_seat_link(
        event=state.match.event
    ):
        raise ApplicationError(
            _(
                "At this event the other side confirms or disputes an entry on their own seat's "
                "link (or signed in), not on the table's phone."
            ),
            status=403,
        )


def _is_submitter(state: MatchState, sub: HandSubmission, actor: Actor, access: Access) -> bool:
    """Is this actor, in any of their identities, whoever made this entry? The account that
    entered it, or a holder of the seat it was entered for (account or seat link)."""
    if actor.user is not None and sub.submitted_by_user_id == actor.user.pk:
        return True
    seat = _seat_of(state, sub.submitted_by_player_id)
    return seat is not None and seat in access.identities


def _other_side(
    state: MatchState, sub: HandSubmission, actor: Actor, access: Access, as_position: int | None
) -> Player | None:
    """The player of the other side who answers this entry (confirms or disputes it), or None
    for a director not seated at the match; refuses everyone else (the two-person rule)."""
    if _is_submitter(state, sub, actor, access):
        raise ApplicationError(_("Nobody confirms or disputes their own entry."), status=403)
    if as_position is None and access.neutral_director:
        return None
    position = access.acting_position(as_position)
    if position is None:
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        raise ApplicationError(_("Say which player you are (as_position)."), field="as_position")
    submitter = _seat_of(state, sub.submitted_by_player_id)
    if submitter is not None and (
        position == submitter or state.side_of(position) == state.side_of(submitter)
    ):
        raise ApplicationError(
            _("The other side confirms this entry, not the player's own side."), status=403
        )
    return access.players[position]


def _submission_locked(
    submission: HandSubmission, actor: Actor
) -> tuple[MatchState, HandSubmission, Access]:
    """Lock the submission's match and re-read it; a 404 for an actor who may not see it."""
    state = _lock(submission.hand.game.match)
    sub = HandSubmission.objects.select_related(
        "hand__game__match__event", "submitted_by_player", "confirmed_by_player"
    ).get(pk=submission.pk)
    access = match_access(actor=actor, match=state.match)
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    return state, sub, access


def _mirrored(match: Match, sub: HandSubmission, fields: list[str]) -> Match | None:
    """``match`` (read by :func:`match_prefetched` under this transaction's lock) with its copy
    of ``sub`` given ``sub``'s ``fields``; None if that copy is not there (read it again)."""
    for game in match.games.all():
        for hand in game.hands.all():
            for copy in hand.submissions.all():
                if copy.pk == sub.pk:
                    for field in fields:
                        setattr(copy, field, getattr(sub, field))
                    return match
    return None


def hand_confirm(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """Confirm a pending entry under the event's policy: a player of the other side, or a
    director not seated at the match (never the submitter, in any identity). A disputed entry
    is settled this way by such a director only."""
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        disputed = sub.status == HandSubmission.Status.DISPUTED
        if sub.status != HandSubmission.Status.PENDING and not disputed:
            raise _conflict(
                _("This entry is %(status)s, not waiting for confirmation.")
                % {"status": sub.get_status_display()},
                sub,
            )
        if _is_submitter(state, sub, actor, access):
            raise ApplicationError(_("Nobody confirms their own entry."), status=403)
        if disputed or _policy(state.match.event) == Confirmation.DIRECTOR:
            if not access.neutral_director:
                message = (
                    _("A director not playing at this table settles a disputed entry.")
                    if disputed
                    else _("A director not playing at this table confirms results here.")
                )
                raise ApplicationError(message, status=403)
            player = None
        else:
            player = _other_side(state, sub, actor, access, as_position)
        via = _via(state, access, player)
        _answer_allowed(state, via)
        sub.status = HandSubmission.Status.CONFIRMED
        sub.confirmed_by_user = actor.user
        sub.confirmed_by_player = player
        sub.confirmed_at = timezone.now()
        sub.confirmed_via = via.kind
        sub.confirmed_via_key_id = via.key_id
        _origin(sub, actor, player, "dispute settled: confirmed" if disputed else "confirmed", via)
        fields = [
            "status",
            "confirmed_by_user",
            "confirmed_by_player",
            "confirmed_at",
            "confirmed_via",
            "confirmed_via_key",
        ]
        sub.save(update_fields=fields)
        # The match was read under the lock a moment ago: the entry's copy there is brought in
        # line instead of reading the whole match again.
        match_sync(match=state.match, prefetched=_mirrored(state.match, sub, fields))
        # Last: bumping the event's results sequence locks the event's row until commit, and
        # every table of the event confirms through that row; taken after the match's own
        # work (the engine over its hands, the games saved), it is held only for the commit.
        organiser().results_changed(event=state.match.event)
    return sub


def hand_dispute(
    *, submission: HandSubmission, actor: Actor, reason: str, as_position: int | None = None
) -> HandSubmission:
    """The other side does not agree: the entry is marked disputed (not counted) with a reason,
    until its submitter withdraws it or a director settles it."""
    reason = (reason or "").strip()
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        if sub.status != HandSubmission.Status.PENDING:
            raise _conflict(
                _("Only an entry waiting for confirmation can be disputed; this one is %(status)s.")
                % {"status": sub.get_status_display()},
                sub,
            )
        if _is_submitter(state, sub, actor, access):
            raise ApplicationError(_("Nobody confirms or disputes their own entry."), status=403)
        if as_position is None and access.neutral_director:
            raise ApplicationError(
                _("A director settles an entry (confirm or correct it) instead of disputing it."),
                status=403,
            )
        player = _other_side(state, sub, actor, access, as_position)
        via = _via(state, access, player)
        _answer_allowed(state, via)
        if not reason:
            raise ApplicationError(_("Say what is wrong with this entry."), field="reason")
        sub.status = HandSubmission.Status.DISPUTED
        sub.dispute_reason = reason[:500]
        sub.disputed_by_user = actor.user
        sub.disputed_by_player = player
        sub.disputed_at = timezone.now()
        sub.disputed_via = via.kind
        sub.disputed_via_key_id = via.key_id
        _origin(sub, actor, player, f"disputed: {sub.dispute_reason}", via)
        sub.save(
            update_fields=[
                "status",
                "dispute_reason",
                "disputed_by_user",
                "disputed_by_player",
                "disputed_at",
                "disputed_via",
                "disputed_via_key",
            ]
        )
        organiser().results_changed(event=state.match.event)
    return sub


def hand_withdraw(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """Whoever entered it (or a director not seated at the match) withdraws an entry that is
    not confirmed yet (waiting, or disputed), so that it can be entered again."""
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        if sub.status not in (HandSubmission.Status.PENDING, HandSubmission.Status.DISPUTED):
            raise _conflict(
                _(
                    "Only an entry waiting for confirmation can be withdrawn; this one is "
                    "%(status)s."
                )
                % {"status": sub.get_status_display()},
                sub,
            )
        submitter = _seat_of(state, sub.submitted_by_player_id)
        own_account = actor.user is not None and sub.submitted_by_user_id == actor.user.pk
        own_seat = submitter is not None and (
            submitter in access.identities or (access.speaks_for_table and as_position == submitter)
        )
        if as_position is not None and as_position != submitter and not access.neutral_director:
            own_seat = False
            own_account = False
        if not (own_account or own_seat or access.neutral_director):
            raise ApplicationError(_("Only whoever entered it may withdraw it."), status=403)
        player = access.players.get(submitter) if submitter is not None and own_seat else None
        sub.status = HandSubmission.Status.WITHDRAWN
        _origin(sub, actor, player, "withdrawn", _via(state, access, player))
        sub.save(update_fields=["status"])
        organiser().results_changed(event=state.match.event)
    return sub


def _context_for(state: MatchState, hand: Hand) -> tuple[GameView, HandContext]:
    for view in state.games:
        if view.game.pk == hand.game_id:
            return view, view.contexts[min(hand.number, len(view.contexts)) - 1]
    raise ApplicationError(_("This hand's game is no longer in play."), status=409)


def hand_override(
    *, submission: HandSubmission, actor: Actor, entry: HandEntry, reason: str
) -> HandSubmission:
    """A director's correction: a new confirmed version; the old one is kept, superseded."""
    reason = (reason or "").strip()
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        if not access.neutral_director:
            raise ApplicationError(
                _("Only a director not playing at this table can correct a hand."), status=403
            )
        if not reason:
            raise ApplicationError(_("Give the reason for the correction."), field="reason")
        hand = sub.hand
        current = _current_of(hand)
        if current is None:
            raise ApplicationError(
                _("This hand has no entry to correct; enter it instead."), status=409
            )
        view, context = _context_for(state, hand)
        if current.status == HandSubmission.Status.CONFIRMED:
            context = view.contexts[hand.number - 1]
        prepared = hand_prepare(state=state, context=context, entry=entry)
        # Supersede first, so the one-confirmed and one-pending indexes are never violated.
        via = access.acted_by(None)
        current.status = HandSubmission.Status.SUPERSEDED
        _origin(current, actor, None, f"superseded: {reason}", via)
        current.save(update_fields=["status"])
        new = _store(
            state=state,
            game=hand.game,
            number=hand.number,
            prepared=prepared,
            actor=actor,
            player=None,
            via=via,
            confirmed=True,
            override_reason=reason,
        )
        match_sync(match=state.match)
    return new
