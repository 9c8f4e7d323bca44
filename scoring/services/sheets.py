"""A whole paper score sheet (every hand of a fresh game) entered at once, all or nothing.

Every hand of the sheet is checked, against the game as the hands before it leave it, and every
problem is reported at once (:class:`ScoresheetProblems`); only a sheet without a problem is
stored. Who may enter a sheet is :func:`scoring.selectors.sheets.scoresheet_refusal`, the rule
the page uses too.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.errors import EngineError
from scoring.models import HandSubmission, Match
from scoring.organiser import ResultChanges
from scoring.permissions import Actor, match_access
from scoring.selectors import match_prefetched, match_state
from scoring.selectors.sheets import scoresheet_refusal
from scoring.services.common import match_lock, submission_store
from scoring.services.entries import HandEntry, hand_prepare
from scoring.services.imports import RowProblem
from scoring.services.matches import match_sync


class ScoresheetProblems(ApplicationError):
    """A refused score sheet: every hand's problem (``problems``; ``row`` is the index ``n`` of
    ``hands[n]``). The message and field are the first problem's, for clients that show one;
    ``extra["problems"]`` lists them all for the API.
    """

    def __init__(self, problems: Sequence[RowProblem]) -> None:
        first = problems[0]
        super().__init__(
            first.message,
            status=400,
            field=first.field,
            extra={
                "problems": [
                    {"row": p.row, "field": p.field, "message": p.message} for p in problems
                ]
            },
        )
        self.problems = list(problems)


def _hand_field(index: int, name: str | None) -> str:
    return f"hands[{index}].{name}" if name else f"hands[{index}]"


def scoresheet_submit(
    *,
    match: Match,
    actor: Actor,
    hands: Sequence[HandEntry],
    game_number: int | None = None,
    dry_run: bool = False,
) -> list[HandSubmission]:
    """Enter a whole paper score sheet (all hands of the current game, in order), all or nothing.

    Each hand is checked against the game as the hands before it left it (dealer, roles, end).
    A hand with a problem is left out and the check goes on with the next one, so every problem
    of the sheet is raised at once as :class:`ScoresheetProblems` (a problem of a later hand may
    follow from an earlier one: fix the first and check again). Nothing is stored then; nor with
    ``dry_run``, which only checks (and returns the hands it would store, unsaved).
    """
    if not hands:
        raise ApplicationError(_("A score sheet has at least one hand."), field="hands")
    stored: list[HandSubmission] = []
    problems: list[RowProblem] = []
    changes = ResultChanges()
    with transaction.atomic():
        state = match_lock(match)
        access = match_access(actor=actor, match=state.match)
        refusal = scoresheet_refusal(actor=actor, match=state.match, access=access)
        if refusal is not None:
            raise ApplicationError(refusal.message, status=refusal.status)
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
        via = access.acted_by(None)
        if access.identities and not access.neutral_director:
            player = access.players[access.identities[0]]
            via = access.acted_by(access.identities[0])
        ended = False
        for index, entry in enumerate(hands):
            state = match_state(match=match_prefetched(match_id=match.pk))
            current = state.current
            if current is None or current.game.pk != view.game.pk:
                message = (
                    _("The game was already over by this hand.")
                    if ended
                    else _("The game ended with the hand before this one.")
                )
                problems.append(RowProblem(index, _hand_field(index, None), message))
                ended = True
                continue
            try:
                prepared = hand_prepare(state=state, context=current.next_context, entry=entry)
            except ApplicationError as exc:
                problems.append(RowProblem(index, _hand_field(index, exc.field), exc.message))
                continue
            except EngineError as exc:
                problems.append(RowProblem(index, _hand_field(index, None), engine_message(exc)))
                continue
            sub = submission_store(
                game=view.game,
                number=current.next_number,
                prepared=prepared,
                actor=actor,
                player=player,
                via=via,
                confirmed=True,
            )
            stored.append(sub)
            changes.result_changed(match=state.match)
            match_sync(match=state.match, changes=changes)
        if problems:
            raise ScoresheetProblems(problems)  # leaving the block rolls every hand back
        changes.tell()
        if dry_run:
            transaction.set_rollback(True)
    return stored
