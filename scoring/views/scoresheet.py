"""The paper score sheet form: a whole game entered at once, checked by the services."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.errors import EngineError
from scoring.forms import (
    SHEET_FIELDS,
    SHEET_MAX,
    SHEET_MORE,
    SHEET_ROWS,
    SheetInput,
    blank_sheet_rows,
    read_sheet,
)
from scoring.models import HandSubmission
from scoring.organiser import organiser
from scoring.selectors import (
    MatchState,
    match_detail,
)
from scoring.selectors.sheets import scoresheet_refusal
from scoring.services import (
    scoresheet_submit,
)
from scoring.services.imports import RowProblem
from scoring.services.sheets import ScoresheetProblems
from scoring.views.match_context import (
    OUTCOME_LABELS,
    MatchPage,
    match_status,
    sheet_fits,
    sheet_fresh,
)
from scoring.views.whereabouts import whereabouts

# -- a whole paper score sheet -------------------------------------------------------------------

_SHEET_OUTCOMES = ("knock", "gin", "big_gin", "undercut", "dead")
SHEET_LABELS: dict[str, Any] = {
    "knocker": gettext_lazy("Knocker"),
    "outcome": gettext_lazy("Outcome"),
    "knocker_deadwood": gettext_lazy("Knocker's deadwood"),
    "defender_deadwood": gettext_lazy("Defender's deadwood"),
    "points": gettext_lazy("Points (to check)"),
    "upcard": gettext_lazy("Upcard"),
    "knock_limit": gettext_lazy("Knock-limit die"),
}
_HAND_FIELD = re.compile(r"^hands\[(\d+)\](?:\.(\w+))?$")


def _sheet_shown(state: MatchState) -> frozenset[str]:
    """The columns a sheet row shows for these rules."""
    hidden = set()
    if not (state.rules.knock_limit == "upcard" or state.rules.spade_doubles):
        hidden.add("upcard")
    if state.rules.knock_limit != "dice":
        hidden.add("knock_limit")
    return frozenset(SHEET_FIELDS) - hidden


def _sheet_render(
    page: MatchPage,
    rows: list[dict[str, str]],
    *,
    errors: dict[int, dict[str, str]] | None = None,
    form_error: str | None = None,
    game: int | None = None,
    status: int = 200,
    allowed: bool = True,
) -> HttpResponse:
    state = page.state
    rules = state.rules
    current = state.current
    errors = errors or {}
    outcomes = [
        (value, OUTCOME_LABELS[value])
        for value in _SHEET_OUTCOMES
        if value != "big_gin" or rules.big_gin
    ]
    if game is None and current is not None:
        game = current.game.number
    context = {
        "page": page,
        "match": state.match,
        "event": organiser().terms_for(match=state.match),
        "rules": rules,
        "detail": match_detail(state=state, show_pending=page.access.can_view),
        "hollywood": bool(rules.hollywood_games),
        "where": whereabouts(page),
        "qs": page.qs,
        "game": game,
        "fits": sheet_fits(state),
        "fresh": sheet_fresh(state),
        "over": current is None,
        "shown": _sheet_shown(state),
        "seats": [{"position": s.position, "name": s.player.name} for s in state.seats],
        "outcomes": outcomes,
        "labels": SHEET_LABELS,
        "rows": [
            {
                "index": i,
                "number": i + 1,
                "values": row,
                "errors": errors.get(i, {}),
                "messages": [
                    (SHEET_LABELS.get(name, ""), message)
                    for name, message in errors.get(i, {}).items()
                ],
            }
            for i, row in enumerate(rows)
        ],
        "row_count": len(rows),
        "can_add": len(rows) < SHEET_MAX,
        "more": SHEET_MORE,
        "max_rows": SHEET_MAX,
        "form_error": form_error,
        "allowed": allowed,
        "first_error": min(errors) + 1 if errors else None,
        "error_count": len(errors),
        "error_rows": ", ".join(str(row + 1) for row in sorted(errors)),
    }
    return render(page.request, "scoring/scoresheet.html", context, status=status)


def _sheet_problems(
    state: MatchState,
    inp: SheetInput,
    problems: Sequence[RowProblem],
    errors: dict[int, dict[str, str]],
) -> list[str]:
    """Put each of the service's problems at the row and column it names into ``errors``
    (``hands[3].knocker_deadwood`` is the fourth hand's knocker deadwood, in the sheet row it
    was typed in); the messages of any it cannot place are returned, for above the sheet."""
    shown = _sheet_shown(state)
    leftover = []
    for problem in problems:
        m = _HAND_FIELD.match(problem.field or "")
        if m is None or int(m.group(1)) >= len(inp.rows_of):
            leftover.append(problem.message)
            continue
        name = m.group(2) or "row"
        if name not in shown:
            name = "row"
        errors.setdefault(inp.rows_of[int(m.group(1))], {})[name] = problem.message
    return leftover


@require_http_methods(["GET", "POST"])
def scoresheet_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter a paper score sheet: all hands of the current (fresh) game, stored all or none."""
    page = MatchPage(request, pk)
    if not page.access.can_view:
        raise Http404
    if request.method != "POST":
        refusal = scoresheet_refusal(actor=page.actor, match=page.match, access=page.access)
        return _sheet_render(
            page,
            blank_sheet_rows(SHEET_ROWS),
            form_error=refusal.message if refusal is not None else None,
            allowed=refusal is None,
        )
    inp = read_sheet(request.POST)
    if "more" in request.POST:
        extra = blank_sheet_rows(max(0, min(SHEET_MORE, SHEET_MAX - len(inp.rows))))
        return _sheet_render(page, inp.rows + extra, game=inp.game)
    # Every row's problem at once: the rows that are not numbers where they should be, and
    # (checked by the service, without storing while any row is mistyped) all the others.
    errors = {row: dict(fields) for row, fields in inp.errors.items()}
    general: list[str] = []
    status = 400
    stored: list[HandSubmission] = []
    if inp.entries or not inp.errors:
        try:
            stored = scoresheet_submit(
                match=page.match,
                actor=page.actor,
                hands=inp.entries,
                game_number=inp.game,
                dry_run=bool(inp.errors),
            )
        except ScoresheetProblems as exc:
            general += _sheet_problems(page.state, inp, exc.problems, errors)
        except ApplicationError as exc:
            if exc.status == 404:
                raise Http404 from None
            general.append(exc.message)
            status = match_status(exc)
        except EngineError as exc:
            general.append(engine_message(exc))
    if errors or general:
        return _sheet_render(
            page,
            inp.rows,
            errors=errors,
            form_error=" ".join(general) or None,
            game=inp.game,
            status=status,
        )
    messages.success(
        request,
        ngettext("Score sheet stored: %(n)s hand.", "Score sheet stored: %(n)s hands.", len(stored))
        % {"n": len(stored)},
    )
    return page.back("#sheet")
