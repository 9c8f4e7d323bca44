"""Exports of an event's standings and results as tables of text (headers and rows), which the
pages and the API turn into CSV (:func:`csv_bytes`) or a PDF (:mod:`printing.pdf`).

Public data only (names, points, results): nothing here exposes a link or a token.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clubs.models import Player
from scoring.models import Match
from tournaments.models import Event
from tournaments.selectors.options import event_tiebreak_order
from tournaments.selectors.results import MatchRecord, event_match_records
from tournaments.selectors.standings import event_standings, league_table
from tournaments.standings_labels import TIEBREAK_LABELS, TIEBREAK_LEGENDS

EXPORT_TIEBREAK_LABELS: dict[str, Any] = {
    "match_points": gettext_lazy("Match points"),
    "game_points": gettext_lazy("Game points"),
    "head_to_head": gettext_lazy("Head to head"),
    "buchholz": gettext_lazy("Buchholz"),
    "buchholz_cut1": gettext_lazy("Buchholz cut 1"),
    "median_buchholz": gettext_lazy("Median Buchholz"),
    "sonneborn_berger": gettext_lazy("Sonneborn-Berger"),
    "hands_won": gettext_lazy("Hands won"),
    "gins": gettext_lazy("Gins"),
    "opponents_match_win": gettext_lazy("Opponents' match win %"),
}


@dataclass(frozen=True, slots=True)
class ExportTable:
    """A titled table of text: what an export holds, whatever its format. A CSV has the full
    ``headers``; a PDF page has room for ``short_headers`` (as the event page's table) and
    prints the ``legend`` under the table, what each short header stands for."""

    title: str
    headers: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    widths: tuple[float, ...] = ()
    short_headers: tuple[str, ...] = ()
    legend: tuple[str, ...] = ()

    @property
    def printed_headers(self) -> tuple[str, ...]:
        """The headers a PDF prints: the short ones when there are."""
        return self.short_headers or self.headers


def _text(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{round(value, 3):g}"  # a share to three places (0.333), as it is read
    return str(value)


def _standing_lines(event: Event) -> list[tuple[int, str, dict[str, Any]]]:
    """The event's standings as the event page shows them: rank, player's name and values. A
    league stores no standings of its own: its table is :func:`league_table`, aggregated from
    its nights, as the page and the API read it; any other event's are the stored ones."""
    if event.kind == Event.Kind.LEAGUE:
        table = league_table(league=event)
        names = dict(
            Player.objects.filter(pk__in=[line.player for line in table]).values_list("pk", "name")
        )
        return [(line.rank, names.get(line.player, "?"), line.values) for line in table]
    return [(s.rank, s.player.name, s.values) for s in event_standings(event=event).rows]


def event_standings_export(*, event: Event) -> ExportTable:
    """The standings the event page shows (a league's from its nights), one row per player:
    rank, name, match points, W-D-L, tie-breaks. No rows while nothing has been played."""
    keys = [
        tb.value
        for tb in event_tiebreak_order(event=event)
        if tb.value not in ("lots", "match_points")
    ]
    headers = (
        _("Rank"),
        _("Player"),
        str(EXPORT_TIEBREAK_LABELS["match_points"]),
        _("Won"),
        _("Drawn"),
        _("Lost"),
        *(str(EXPORT_TIEBREAK_LABELS.get(k, k)) for k in keys),
    )
    rows = []
    for place, player, v in _standing_lines(event):
        name = player + (" " + _("(dropped)") if v.get("dropped") else "")
        rows.append(
            (
                _text(place),
                name,
                _text(v.get("match_points")),
                _text(v.get("won", 0)),
                _text(v.get("drawn", 0)),
                _text(v.get("lost", 0)),
                *(_text(v.get(k)) for k in keys),
            )
        )
    widths = (1.0, 4.0, 1.4, 1.0, 1.0, 1.0, *(1.4 for _k in keys))
    short = (
        _("Rank"),
        _("Player"),
        str(TIEBREAK_LABELS["match_points"]),
        _("Won"),
        _("Drawn"),
        _("Lost"),
        *(str(TIEBREAK_LABELS.get(k, EXPORT_TIEBREAK_LABELS.get(k, k))) for k in keys),
    )
    legend = tuple(
        _legend_line(str(TIEBREAK_LABELS[k]), str(TIEBREAK_LEGENDS[k]))
        for k in ("match_points", *keys)
        if k in TIEBREAK_LABELS and k in TIEBREAK_LEGENDS
    )
    return ExportTable(
        title=_("%(event)s · standings") % {"event": event.name},
        headers=headers,
        rows=tuple(rows),
        widths=widths,
        short_headers=short,
        legend=legend,
    )


def _legend_line(label: str, meaning: str) -> str:
    """A legend line in one form, "Name: explanation", named by the short header it explains.
    A legend reads "Full name: explanation" or just "explanation"; the full name is kept after
    the short header when it says more ("MP: Match points, the points for the matches won and
    drawn"), once when it is the header itself ("Buchholz: the opponents' match points added
    up")."""
    name, colon, explanation = meaning.partition(": ")
    if not colon:
        return f"{label}: {meaning}"
    if name == label:
        return meaning
    return f"{label}: {name}, {explanation}"


def _margin(record: MatchRecord) -> str:
    """A finished match's margin as the pages read it: the winner's points (the score sheet's
    "Ada wins by 386"), or the games each side won in a longer match, the winner's first (the
    player page's "games 2-1"). Never a loser's negative number beside the winner's."""
    if not record.finished or record.decision != Match.Decision.PLAYED or not record.winners:
        return ""
    won = [int(x or 0) for x in (record.summary or {}).get("games_won") or []]
    margins = (record.summary or {}).get("margins") or []
    seat = record.players.index(record.winners[0])
    side = record.winner_team if record.winner_team is not None else seat
    if len(margins) > 1 and len(won) == 2 and side in (0, 1):
        return _("games %(a)s-%(b)s") % {"a": won[side], "b": won[1 - side]}
    return _text(record.game_points[seat]) if seat < len(record.game_points) else ""


def event_results_export(*, event: Event) -> ExportTable:
    """Every match of the event: round, table, players, winner, the winner's margin (see
    :func:`_margin`) and how it ended (played, bye, forfeit), oldest first."""
    records = event_match_records(event=event, with_hands=False)
    ids = {p for r in records for p in r.players} | {r.winner for r in records if r.winner}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    tables = dict(Match.objects.filter(event=event).values_list("pk", "table_number"))
    decisions = dict(Match.Decision.choices)
    statuses = dict(Match.Status.choices)
    rows = []
    for r in records:
        how = (
            str(decisions.get(r.decision, r.decision))
            if r.finished
            else str(statuses.get(r.status, r.status))
        )
        rows.append(
            (
                _text(r.round),
                _text(tables.get(r.id)),
                _(" vs ").join(names.get(p, "?") for p in r.players),  # as the slips pair them
                " & ".join(names.get(p, "?") for p in r.winners),
                _margin(r),
                how,
                _text(r.finished_on),
            )
        )
    return ExportTable(
        title=_("%(event)s · results") % {"event": event.name},
        headers=(
            _("Round"),
            _("Table"),
            _("Players"),
            _("Winner"),
            _("Margin"),
            _("Result"),
            _("Date"),
        ),
        rows=tuple(rows),
        widths=(1.0, 1.0, 4.5, 2.4, 1.6, 1.8, 2.0),
    )


def csv_bytes(*, headers: Sequence[str], rows: Sequence[Sequence[str]]) -> bytes:
    """UTF-8 CSV with a byte-order mark, so spreadsheet programs read Korean names right.
    A cell starting with ``=``, ``+``, ``-`` or ``@`` is prefixed with ``'`` (no formula
    injection from a player's name)."""
    out = io.StringIO()
    writer = csv.writer(out)

    def safe(cell: str) -> str:
        return "'" + cell if cell[:1] in ("=", "+", "-", "@") and not _numeric(cell) else cell

    writer.writerow([safe(h) for h in headers])
    for row in rows:
        writer.writerow([safe(c) for c in row])
    return ("\ufeff" + out.getvalue()).encode("utf-8")


def _numeric(cell: str) -> bool:
    try:
        float(cell)
    except ValueError:
        return False
    return True
