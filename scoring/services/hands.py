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
from scoring.models import Confirmation, Hand, HandSubmission, Match
from scoring.organiser import ResultChanges, organiser
from scoring.permissions import Access, ActedBy, Actor, match_access
from scoring.policies import (
    answer_refusal,
    answered_by_director,
    correct_refusal,
    director_answer_refusal,
    entry_is_viewers,
    on_other_side,
    seat_of,
    withdraw_refusal,
    withdraws_as_seat,
)
from scoring.selectors import GameView, HandContext, MatchState
from scoring.services.common import (
    confirmation_policy,
    conflict_error,
    current_submission,
    match_lock,
    record_origin,
    submission_store,
)
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
        state = match_lock(match)
        access = match_access(actor=actor, match=state.match)
        player = _require_actor(access, as_position)
        view = state.current
        if view is None or state.match.decision != Match.Decision.PLAYED:
            raise ApplicationError(_("This match is over."), status=409)
        number = hand_number if hand_number is not None else view.next_number
        if view.pending is not None and hand_number is None:
            number = view.pending.hand.number
        if number < view.next_number:
            raise conflict_error(
                _("Hand %(number)s is already recorded.") % {"number": number},
                view.hands[number - 1],
            )
        if view.pending is not None and view.pending.hand.number == number:
            raise conflict_error(
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
        confirmed = confirmation_policy(state.match) == Confirmation.NONE
        sub = submission_store(
            game=view.game,
            number=number,
            prepared=prepared,
            actor=actor,
            player=player,
            via=_via(state, access, player),
            confirmed=confirmed,
        )
        changes = ResultChanges.of(match=state.match)
        if confirmed:
            match_sync(match=state.match, changes=changes)
        changes.tell()
    return sub


def _via(state: MatchState, access: Access, player: Player | None) -> ActedBy:
    """The credential the actor acts with as ``player`` (None: as a director, their account)."""
    return access.acted_by(seat_of(state, player.pk) if player is not None else None)


def _refuse(refusal: str | None) -> None:
    """Raise the policy's refusal (scoring.policies) as a 403."""
    if refusal is not None:
        raise ApplicationError(refusal, status=403)


def _answer_allowed(state: MatchState, via: ActedBy) -> None:
    """Refuse an answer to an entry (a confirmation or a dispute) made on the table's phone
    when the event asks the other side to answer on their own link or account."""
    _refuse(answer_refusal(via=via, terms=organiser().terms_for(match=state.match)))


def _is_submitter(state: MatchState, sub: HandSubmission, actor: Actor, access: Access) -> bool:
    return entry_is_viewers(state=state, entry=sub, actor=actor, access=access)


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
    if not on_other_side(state=state, entry=sub, position=position):
        raise ApplicationError(
            _("The other side confirms this entry, not the player's own side."), status=403
        )
    return access.players[position]


def _submission_locked(
    submission: HandSubmission, actor: Actor
) -> tuple[MatchState, HandSubmission, Access]:
    """Lock the submission's match and re-read it; a 404 for an actor who may not see it."""
    state = match_lock(submission.hand.game.match)
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
            raise conflict_error(
                _("This entry is %(status)s, not waiting for confirmation.")
                % {"status": sub.get_status_display()},
                sub,
            )
        if _is_submitter(state, sub, actor, access):
            raise ApplicationError(_("Nobody confirms their own entry."), status=403)
        if answered_by_director(entry=sub, terms=organiser().terms_for(match=state.match)):
            _refuse(director_answer_refusal(entry=sub, access=access))
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
        record_origin(
            sub, actor, player, "dispute settled: confirmed" if disputed else "confirmed", via
        )
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
        changes = ResultChanges.of(match=state.match)
        match_sync(
            match=state.match,
            changes=changes,
            prefetched=_mirrored(state.match, sub, fields),
        )
        # Last: the organiser bumps the event's results sequence, which locks the event's row
        # until commit, and every table of the event confirms through that row; taken after
        # the match's own work (the engine over its hands, the games saved), it is held only
        # for the commit (and, when the match finished, the organiser's own follow-up).
        changes.tell()
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
            raise conflict_error(
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
        record_origin(sub, actor, player, f"disputed: {sub.dispute_reason}", via)
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
        ResultChanges.of(match=state.match).tell()
    return sub


def hand_withdraw(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """Whoever entered it (or a director not seated at the match) withdraws an entry that is
    not confirmed yet (waiting, or disputed), so that it can be entered again."""
    with transaction.atomic():
        state, sub, access = _submission_locked(submission, actor)
        if sub.status not in (HandSubmission.Status.PENDING, HandSubmission.Status.DISPUTED):
            raise conflict_error(
                _(
                    "Only an entry waiting for confirmation can be withdrawn; this one is "
                    "%(status)s."
                )
                % {"status": sub.get_status_display()},
                sub,
            )
        _refuse(
            withdraw_refusal(
                state=state, entry=sub, actor=actor, access=access, as_position=as_position
            )
        )
        seat = withdraws_as_seat(
            state=state, entry=sub, actor=actor, access=access, as_position=as_position
        )
        player = access.players.get(seat) if seat is not None else None
        sub.status = HandSubmission.Status.WITHDRAWN
        record_origin(sub, actor, player, "withdrawn", _via(state, access, player))
        sub.save(update_fields=["status"])
        ResultChanges.of(match=state.match).tell()
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
        _refuse(correct_refusal(access=access))
        if not reason:
            raise ApplicationError(_("Give the reason for the correction."), field="reason")
        hand = sub.hand
        current = current_submission(hand)
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
        record_origin(current, actor, None, f"superseded: {reason}", via)
        current.save(update_fields=["status"])
        new = submission_store(
            game=hand.game,
            number=hand.number,
            prepared=prepared,
            actor=actor,
            player=None,
            via=via,
            confirmed=True,
            override_reason=reason,
        )
        changes = ResultChanges.of(match=state.match)
        match_sync(match=state.match, changes=changes)
        changes.tell()
    return new
