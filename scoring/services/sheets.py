"""A whole paper score sheet (every hand of a fresh game) entered at once, all or nothing."""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from scoring.models import HandSubmission, Match
from scoring.permissions import Actor, match_access
from scoring.selectors import match_prefetched, match_state
from scoring.services._common import _lock, _policy, _store
from scoring.services.entries import HandEntry, hand_prepare
from scoring.services.matches import match_sync
from tournaments.models import Event


def scoresheet_submit(
    *, match: Match, actor: Actor, hands: Sequence[HandEntry], game_number: int | None = None
) -> list[HandSubmission]:
    """Enter a whole paper score sheet (all hands of the current game, in order), all or nothing.

    Each hand is checked against the game as the hands before it left it (dealer, roles, end).
    """
    if not hands:
        raise ApplicationError(_("A score sheet has at least one hand."), field="hands")
    stored: list[HandSubmission] = []
    with transaction.atomic():
        state = _lock(match)
        access = match_access(actor=actor, match=state.match)
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        policy = _policy(state.match.event)
        if not access.director and policy != Event.Confirmation.NONE:
            raise ApplicationError(
                _(
                    "At this event a paper score sheet is entered by a director; players enter "
                    "hand by hand."
                ),
                status=403,
            )
        view = state.current
        if view is None:
            raise ApplicationError(_("This match is over."), status=409)
        if game_number is not None and game_number != view.game.number:
            raise ApplicationError(
                _("The game being played is game %(number)s.") % {"number": view.game.number},
                field="game",
            )
        if view.hands or view.pending is not None:
            raise ApplicationError(
                _("Game %(number)s already has hands; a score sheet fills a fresh game.")
                % {"number": view.game.number},
                status=409,
            )
        player = None
        if access.positions and not access.director:
            player = access.players[access.positions[0]]
        for index, entry in enumerate(hands):
            state = match_state(match=match_prefetched(match_id=match.pk))
            current = state.current
            if current is None or current.game.pk != view.game.pk:
                raise ApplicationError(
                    _("The game ended with the hand before this one."), field=f"hands[{index}]"
                )
            try:
                prepared = hand_prepare(state=state, context=current.next_context, entry=entry)
            except ApplicationError as exc:
                exc.field = f"hands[{index}].{exc.field}" if exc.field else f"hands[{index}]"
                raise
            sub = _store(
                state=state,
                game=view.game,
                number=current.next_number,
                prepared=prepared,
                actor=actor,
                player=player,
                confirmed=True,
            )
            stored.append(sub)
            match_sync(match=state.match)
    return stored
