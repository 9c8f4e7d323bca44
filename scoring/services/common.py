"""Write helpers shared by the hand, score-sheet and import services: the match lock, the
append-only insert of a submission, its history origin, the 409 with the stored entry, and the
event's confirmation policy.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from core.errors import ApplicationError
from core.live import live_changed
from scoring.models import Game, Hand, HandSubmission, Match
from scoring.organiser import organiser
from scoring.permissions import ActedBy, Actor
from scoring.selectors import MatchState, match_prefetched, match_state, submission_out
from scoring.services.entries import Prepared


def match_lock(match: Match) -> MatchState:
    """Lock the match for a write and bump its live version (``Match.live_seq``): the UPDATE
    takes the same row lock a SELECT FOR UPDATE would, and a refused write rolls it back."""
    Match.objects.filter(pk=match.pk).update(live_seq=F("live_seq") + 1)
    live_changed(page="match", pk=match.pk)
    Game.objects.get_or_create(match_id=match.pk, number=1)
    return match_state(match=match_prefetched(match_id=match.pk))


def record_origin(
    sub: HandSubmission, actor: Actor, player: Player | None, reason: str, via: ActedBy
) -> None:
    """Who makes this change, with which credential and from where: for its history row."""
    sub._history_user = actor.user  # type: ignore[attr-defined]
    sub._history_origin = (player, actor.ip, actor.user_agent, via)  # type: ignore[attr-defined]
    sub._change_reason = reason  # type: ignore[attr-defined]


def current_submission(hand: Hand) -> HandSubmission | None:
    return (
        hand.submissions.filter(
            status__in=[
                HandSubmission.Status.CONFIRMED,
                HandSubmission.Status.PENDING,
                HandSubmission.Status.DISPUTED,
            ]
        )
        .select_related("hand__game", "submitted_by_player", "confirmed_by_player")
        .select_related("submitted_by_user", "confirmed_by_user")
        .first()
    )


def conflict_error(message: str, stored: HandSubmission | None) -> ApplicationError:
    extra = {"stored": submission_out(stored)} if stored is not None else {}
    return ApplicationError(message, status=409, extra=extra)


def submission_store(
    *,
    game: Game,
    number: int,
    prepared: Prepared,
    actor: Actor,
    player: Player | None,
    via: ActedBy,
    confirmed: bool,
    override_reason: str = "",
) -> HandSubmission:
    """Insert a submission; the unique constraints turn a concurrent duplicate into a 409.
    ``via`` is the credential that entered it (a director's correction: also confirmed it).
    The caller notes the result in its :class:`~scoring.organiser.ResultChanges`."""
    hand, _created = Hand.objects.get_or_create(game=game, number=number)
    version = (hand.submissions.aggregate(v=Max("version"))["v"] or 0) + 1
    now = timezone.now()
    sub = HandSubmission(
        hand=hand,
        version=version,
        entry=prepared.entry,
        payload=prepared.payload,
        result=prepared.result,
        **HandSubmission.verdict_columns(prepared.result),
        status=HandSubmission.Status.CONFIRMED if confirmed else HandSubmission.Status.PENDING,
        submitted_by_user=actor.user,
        submitted_by_player=player,
        submitted_via=via.kind,
        submitted_via_key_id=via.key_id,
        confirmed_by_user=actor.user if confirmed and override_reason else None,
        confirmed_via=via.kind if confirmed and override_reason else "",
        confirmed_via_key_id=via.key_id if confirmed and override_reason else None,
        override_reason=override_reason,
        ip_address=actor.ip,
        user_agent=actor.user_agent,
        confirmed_at=now if confirmed else None,
    )
    record_origin(sub, actor, player, "override" if override_reason else "submitted", via)
    try:
        with transaction.atomic():
            sub.save()
    except IntegrityError:
        raise conflict_error(
            _("Hand %(number)s was entered by someone else at the same moment.")
            % {"number": number},
            current_submission(hand),
        ) from None
    sub.hand = hand
    return sub


def confirmation_policy(match: Match) -> str:
    """The confirmation policy of ``match``'s event (its terms)."""
    return organiser().terms_for(match=match).confirmation
