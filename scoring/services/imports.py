"""CSV import of past score sheets (:func:`csv_import`, columns :data:`CSV_COLUMNS`, of which
:data:`CSV_REQUIRED` must be in the header): every row checked and every problem reported
(:class:`ImportReport`), then all stored confirmed or none.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.parsing import parse_ascii_int
from scoring.models import Match
from scoring.organiser import EventTerms, ResultChanges, organiser
from scoring.permissions import ActedBy, Actor
from scoring.selectors import MatchState, event_is_director
from scoring.services.common import match_lock, submission_store
from scoring.services.entries import HandEntry, entry_family, entry_from_dict, hand_prepare
from scoring.services.matches import match_sync


@dataclass(frozen=True, slots=True)
class RowProblem:
    """One row's problem: ``row`` is the CSV line (the header is 1) or, for a score sheet, the
    index ``n`` of ``hands[n]``; ``field`` the column (or ``hands[n].column``) when one is at
    fault."""

    row: int
    field: str | None
    message: str


@dataclass(slots=True)
class ImportReport:
    """What an import did: ``stored`` hands (on a dry run: the rows that passed) of the matches
    ``matches`` (ids, in the order the CSV first names them; empty when nothing was stored)."""

    dry_run: bool
    rows: int = 0
    stored: int = 0
    problems: list[RowProblem] = field(default_factory=list)
    matches: list[int] = field(default_factory=list)


CSV_COLUMNS = (
    "match",
    "game",
    "hand",
    "knocker",
    "defender",
    "outcome",
    "knocker_deadwood",
    "defender_deadwood",
    "knocker_cards",
    "defender_cards",
    "knocker_melds",
    "upcard",
    "knock_limit",
    "points",
)
# The columns a CSV's header must name (a dead hand or a hand by cards leaves knocker or outcome
# empty, but the columns are there).
CSV_REQUIRED = ("match", "hand", "knocker", "outcome")
_INT_COLUMNS = (
    "match",
    "game",
    "hand",
    "knock_limit",
    "points",
    "knocker_deadwood",
    "defender_deadwood",
)


def _row_entry(row: Mapping[str, str], state: MatchState) -> HandEntry:
    values: dict[str, Any] = {}
    for key in CSV_COLUMNS:
        raw = (row.get(key) or "").strip()
        if not raw or key in ("match", "game", "hand"):
            continue
        if key in ("knocker", "defender"):
            values[key] = _seat_by_name(state, raw, key)
        elif key in _INT_COLUMNS:
            number = parse_ascii_int(raw, signed=True)
            if number is None:
                raise ApplicationError(
                    _("%(value)s is not a whole number.") % {"value": raw}, field=key
                )
            values[key] = number
        else:
            values[key] = raw
    return entry_from_dict(values, family=entry_family(rules=state.rules, seats=len(state.seats)))


def _seat_by_name(state: MatchState, raw: str, column: str) -> int:
    """The position of the player a CSV cell names: by name, or by seat number counting from 1
    as on the slips and the pages (position 0 is seat 1)."""
    number = parse_ascii_int(raw)
    if number is not None and number >= 1 and state.seat(number - 1) is not None:
        return number - 1
    for seat in state.seats:
        if seat.player.name.casefold() == raw.casefold():
            return seat.position
    raise ApplicationError(
        _("%(value)s is not a player of this match.") % {"value": raw}, field=column
    )


def csv_import(
    *, actor: Actor, text: str, dry_run: bool, event: EventTerms | None = None
) -> ImportReport:
    """Import past score sheets: one row per hand (columns :data:`CSV_COLUMNS`; the header names
    at least :data:`CSV_REQUIRED`).

    Rows are grouped by match and game and must give each game's hands in order from its next
    hand. Every row is checked (against the engine and the game as the rows before it leave it)
    and every problem reported; unless it is a dry run and nothing is wrong, everything is
    stored confirmed, or nothing is. With ``event`` (its terms), a row whose match is in another
    event is a problem of that row. The organiser is told once, at the end.
    """
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    report = ImportReport(dry_run=dry_run)
    missing = [c for c in CSV_REQUIRED if c not in header]
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if missing or unknown:
        message = []
        if missing:
            message.append(_("missing column(s): %(names)s") % {"names": ", ".join(missing)})
        if unknown:
            message.append(_("unknown column(s): %(names)s") % {"names": ", ".join(unknown)})
        report.problems.append(RowProblem(1, None, "; ".join(message)))
        return report
    rows = list(reader)
    report.rows = len(rows)
    failed_games: set[tuple[str, str]] = set()
    checked_matches: dict[int, bool] = {}
    changes = ResultChanges()
    with transaction.atomic():
        for line, row in enumerate(rows, start=2):
            row = {(k or "").strip(): (v or "") for k, v in row.items()}
            key = (row.get("match", "").strip(), row.get("game", "").strip() or "1")
            if key in failed_games:
                report.problems.append(
                    RowProblem(line, None, _("Skipped: an earlier row of this game has a problem."))
                )
                continue
            try:
                with transaction.atomic():
                    match_id = _import_row(actor, row, checked_matches, event, changes)
                report.stored += 1
                if match_id not in report.matches:
                    report.matches.append(match_id)
            except ApplicationError as exc:
                failed_games.add(key)
                report.problems.append(RowProblem(line, exc.field, exc.message))
        changes.tell()
        if dry_run or report.problems:
            transaction.set_rollback(True)
            if not dry_run:
                report.stored = 0
                report.matches = []
    return report


def _import_row(
    actor: Actor,
    row: Mapping[str, str],
    checked: dict[int, bool],
    event: EventTerms | None,
    changes: ResultChanges,
) -> int:
    """Check and store one row; the id of its match (its result noted in ``changes``)."""
    match_id = parse_ascii_int(row.get("match") or "")
    if match_id is None:
        raise ApplicationError(_("Give the match id."), field="match")
    match = Match.objects.select_related("event").filter(pk=match_id).first()
    if match is None:
        raise ApplicationError(_("There is no match %(id)s.") % {"id": match_id}, field="match")
    if event is not None and match.event_id != event.event_id:
        raise ApplicationError(
            _("Match %(id)s is not a match of %(event)s.") % {"id": match_id, "event": event.name},
            field="match",
        )
    if match_id not in checked:
        user = actor.user
        checked[match_id] = (
            user is not None
            and event_is_director(event=organiser().terms_for(match=match), user=user)
            and not match.seats.filter(player__user_id=user.pk).exists()
        )
    if not checked[match_id]:
        raise ApplicationError(
            _(
                "Only a director of the match's event who does not play in it can import its "
                "results."
            ),
            field="match",
        )
    state = match_lock(match)
    view = state.current
    if view is None:
        raise ApplicationError(_("This match is over."), field="match")
    game = (row.get("game") or "").strip()
    if game and game != str(view.game.number):
        raise ApplicationError(
            _("The game being played is game %(number)s.") % {"number": view.game.number},
            field="game",
        )
    number = (row.get("hand") or "").strip()
    if number != str(view.next_number) or view.pending is not None:
        raise ApplicationError(
            _("The next hand of this game is hand %(next)s.") % {"next": view.next_number},
            field="hand",
        )
    entry = _row_entry(row, state)
    prepared = hand_prepare(state=state, context=view.next_context, entry=entry)
    submission_store(
        game=view.game,
        number=view.next_number,
        prepared=prepared,
        actor=actor,
        player=None,
        via=ActedBy(actor.account_via or ""),
        confirmed=True,
    )
    match_sync(match=state.match, changes=changes)
    changes.result_changed(match=state.match)
    return match_id
