"""Hand by hand: enter (:func:`hand_submit`), confirm under the event's policy
(:func:`hand_confirm`), withdraw (:func:`hand_withdraw`) and a director's correction
(:func:`hand_override`).
"""

from __future__ import annotations

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from scoring.models import Hand, HandSubmission, Match
from scoring.permissions import Access, Actor, match_access
from scoring.selectors import GameView, HandContext, MatchState
from scoring.services._common import _conflict, _current_of, _lock, _origin, _policy, _store
from scoring.services.entries import HandEntry, hand_prepare
from scoring.services.matches import match_sync
from tournaments.models import Event, Player
from tournaments.services import event_results_bump


def _require_actor(access: Access, declared: int | None) -> Player | None:
    """The player the actor acts as (None for a director acting as themself)."""
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    position = access.acting_position(declared)
    if position is None and not access.director:
        raise ApplicationError(_("Say which player you are (as_position)."), field="as_position")
    return access.players[position] if position is not None else None


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
        confirmed = _policy(state.match.event) == Event.Confirmation.NONE
        sub = _store(
            state=state,
            game=view.game,
            number=number,
            prepared=prepared,
            actor=actor,
            player=player,
            confirmed=confirmed,
        )
        if confirmed:
            match_sync(match=state.match)
    return sub


def _acting_player(access: Access, as_position: int | None) -> Player | None:
    """The player an actor acts as at a confirm or withdraw (None: a director as themself)."""
    if as_position is None and (access.director or not access.positions):
        return None
    position = access.acting_position(as_position)
    return access.players[position] if position is not None else None


def _is_own(sub: HandSubmission, actor: Actor, player: Player | None) -> bool:
    """Did this actor make this entry? A player is judged by seat (a handed-over phone acts for
    the player it names), anyone else by their account."""
    if player is not None and sub.submitted_by_player_id is not None:
        return sub.submitted_by_player_id == player.pk
    return actor.user is not None and sub.submitted_by_user_id == actor.user.pk


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


def _opponents(state: MatchState, one: Player, other: Player) -> bool:
    positions = {seat.player_id: seat.position for seat in state.seats}
    a, b = positions.get(one.pk), positions.get(other.pk)
    if a is None or b is None:
        return True
    return a != b and state.side_of(a) != state.side_of(b)


def hand_confirm(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """Confirm a pending entry under the event's policy (never one's own)."""
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        if sub.status != HandSubmission.Status.PENDING:
            raise _conflict(
                _("This entry is %(status)s, not waiting for confirmation.")
                % {"status": sub.get_status_display()},
                sub,
            )
        policy = _policy(state.match.event)
        if policy == Event.Confirmation.DIRECTOR:
            if not access.director:
                raise ApplicationError(_("A director confirms results at this event."), status=403)
            player = None
        else:
            player = _acting_player(access, as_position)
            if player is None and not access.director:
                raise ApplicationError(
                    _("Say which player you are (as_position)."), field="as_position"
                )
        if _is_own(sub, actor, player):
            raise ApplicationError(_("Nobody confirms their own entry."), status=403)
        submitter = sub.submitted_by_player
        if (
            player is not None
            and submitter is not None
            and not _opponents(state, player, submitter)
        ):
            raise ApplicationError(
                _("The other side confirms this entry, not the player's own side."), status=403
            )
        sub.status = HandSubmission.Status.CONFIRMED
        sub.confirmed_by_user = actor.user
        sub.confirmed_by_player = player
        sub.confirmed_at = timezone.now()
        _origin(sub, actor, player, "confirmed")
        sub.save(
            update_fields=["status", "confirmed_by_user", "confirmed_by_player", "confirmed_at"]
        )
        event_results_bump(event=state.match.event)
        match_sync(match=state.match)
    return sub


def hand_withdraw(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """The submitter (or a director) withdraws an entry that is not confirmed yet."""
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        player = _acting_player(access, as_position)
        if sub.status != HandSubmission.Status.PENDING:
            raise _conflict(
                _(
                    "Only an entry waiting for confirmation can be withdrawn; this one is "
                    "%(status)s."
                )
                % {"status": sub.get_status_display()},
                sub,
            )
        if not (_is_own(sub, actor, player) or access.director):
            raise ApplicationError(_("Only whoever entered it may withdraw it."), status=403)
        sub.status = HandSubmission.Status.WITHDRAWN
        _origin(sub, actor, player, "withdrawn")
        sub.save(update_fields=["status"])
        event_results_bump(event=state.match.event)
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
        if not access.director:
            raise ApplicationError(_("Only a director can correct a hand."), status=403)
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
        current.status = HandSubmission.Status.SUPERSEDED
        _origin(current, actor, None, f"superseded: {reason}")
        current.save(update_fields=["status"])
        new = _store(
            state=state,
            game=hand.game,
            number=hand.number,
            prepared=prepared,
            actor=actor,
            player=None,
            confirmed=True,
            override_reason=reason,
        )
        match_sync(match=state.match)
    return new
