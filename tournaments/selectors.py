"""Reads for tournaments: snapshots for the pure algorithms, standings, brackets, leagues, ratings.

Selectors turn stored rows into the frozen dataclasses of ``tournaments.algorithms`` (never model
instances) and shape what the API and pages show. They never write. Match points, byes, walkovers
and late entries are translated here, in one place, into the algorithms' records:

- a win is worth ``win_points`` (1), a draw half of it, a loss 0;
- a walkover is a win for the player who was there and a loss for the other, unplayed;
- both players forfeiting scores 0 for both, unplayed;
- a pairing bye scores ``bye_points`` (1), a requested bye ``requested_bye_points`` (0);
- a late entry's missed rounds score ``late_entry_points`` (0), unplayed.

A result is *final* when ``Match.status == "finished"``; a match still being played counts for
nothing. Game points are the net sum of game margins (a game won adds its margin, a game lost
subtracts it). Hands won and gins come from confirmed hand submissions.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import Any

from django.db.models import Count, F, Q, QuerySet
from django.db.models.fields.json import KeyTextTransform

from core.errors import ApplicationError
from scoring.models import Game, HandSubmission, Match, Seat
from tournaments.algorithms.elimination import (
    Bracket,
    BracketState,
    MatchStatus,
    Vacancy,
    bracket_state,
    double_elimination,
    single_elimination,
)
from tournaments.algorithms.swiss import ClubRule, ForbiddenPair, SwissConfig, SwissPlayer
from tournaments.algorithms.swiss import Seat as SwissSeat
from tournaments.algorithms.tiebreaks import (
    GameSide,
    RoundResult,
    StandingsRow,
    TieBreak,
    TieBreakConfig,
    rank,
)
from tournaments.models import (
    Club,
    Event,
    ForbiddenPairing,
    Player,
    Rating,
    RatingHistory,
    Registration,
    Round,
    Standing,
)

# --- Event options --------------------------------------------------------------------------

OPTION_DEFAULTS: dict[str, Any] = {
    "win_points": 1,
    "bye_points": 1,
    "requested_bye_points": 0,
    "late_entry_points": 0,
    "pair_by": "rating",  # or "seed": how round 1 and each score group are ordered
    "forbid_same_club": "allow",  # "allow" | "soft" | "hard"
    "forbid_family": "allow",  # "allow" | "soft" | "hard"
    "avoid_same_table": False,
    "double_round_robin": False,
    "groups": 1,
    "playoff_cut": None,
    "third_place": False,
    "grand_final_reset": True,
    "async_pairing_from": 256,  # fields at least this big are paired by a Celery task
}
"""Every event option with its default; ``Event.options`` stores only what differs."""

KIND_OPTION_DEFAULTS: dict[str, dict[str, Any]] = {
    Event.Kind.ROUND_ROBIN: {"bye_points": 0},
}

DEFAULT_TIEBREAKS: dict[str, tuple[str, ...]] = {
    Event.Kind.SWISS: (
        "buchholz_cut1",
        "buchholz",
        "sonneborn_berger",
        "game_points",
        "lots",
    ),
    Event.Kind.CLUB_NIGHT: ("game_points", "lots"),
    Event.Kind.LEAGUE: ("game_points", "lots"),
    Event.Kind.ROUND_ROBIN: ("head_to_head", "sonneborn_berger", "game_points", "lots"),
    Event.Kind.SINGLE_ELIMINATION: ("game_points", "lots"),
    Event.Kind.DOUBLE_ELIMINATION: ("game_points", "lots"),
}
"""Tie-breaks after match points, per kind (match points always come first)."""

TIEBREAK_CHOICES = ("match_points", *(tb.value for tb in TieBreak))


def event_option(*, event: Event, name: str) -> Any:
    """One option of ``event``: its own value, else the kind's default, else the global one."""
    if name in (event.options or {}):
        return event.options[name]
    return KIND_OPTION_DEFAULTS.get(event.kind, {}).get(name, OPTION_DEFAULTS[name])


def event_tiebreak_order(*, event: Event) -> tuple[TieBreak, ...]:
    """The event's tie-breaks after match points ("match_points" in the stored list is implied)."""
    names = event.tiebreaks or DEFAULT_TIEBREAKS[event.kind]
    return tuple(TieBreak(n) for n in names if n != "match_points")


# --- Results snapshot -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchRecord:
    """A stored match as the standings, pairing and bracket code need it (ids only)."""

    id: int
    round: int | None
    bracket_key: str
    status: str
    decision: str
    winner: int | None
    players: tuple[int, ...]
    teams: tuple[int | None, ...] = ()
    winner_team: int | None = None
    game_points: tuple[int, ...] = ()
    hands_won: tuple[int, ...] = ()
    gins: tuple[int, ...] = ()
    summary: dict[str, Any] = field(default_factory=dict, compare=False, hash=False)
    finished_on: date | None = None

    @property
    def finished(self) -> bool:
        return self.status == Match.Status.FINISHED

    @property
    def winners(self) -> tuple[int, ...]:
        """The players credited with the win: the winner, or both partners of the winning team."""
        if self.winner_team is not None:
            pairs = zip(self.players, self.teams, strict=True)
            return tuple(p for p, t in pairs if t == self.winner_team)
        return (self.winner,) if self.winner is not None else ()


HAND_WINNER_KEY = "winner"
"""The key of a confirmed ``HandSubmission.result`` holding the winning seat position."""
HAND_WINNER_TEAM_KEY = "winner_team"
"""In a partnership hand's verdict: the winning team (``Seat.team``); both partners won it."""
HAND_OUTCOME_KEY = "outcome"
GIN_OUTCOMES = frozenset({"gin", "big_gin"})


def event_match_records(
    *, event: Event, finished_only: bool = False, with_hands: bool = True
) -> list[MatchRecord]:
    """Every match of ``event`` with seats, net game points and (optionally) hands won and gins.

    Four flat queries whatever the size of the event, so a 1,024-player Swiss reads in well
    under a second. A partnership's games and hands are won by a team (``winner_team``): both
    partners are credited. Game points are net for two sides (two players, or two teams: the
    margins won less the margins lost) and the margins won at a table of three or more.
    """
    matches = Match.objects.filter(event=event)
    if finished_only:
        matches = matches.filter(status=Match.Status.FINISHED)
    rows = list(
        matches.order_by("id").values_list(
            "id",
            "round__number",
            "bracket_key",
            "status",
            "decision",
            "winner_id",
            "winner_team",
            "summary",
            "finished_at",
        )
    )
    seats: dict[int, list[tuple[int, int, int | None]]] = defaultdict(list)
    seat_qs = Seat.objects.filter(match__event=event)
    if finished_only:
        seat_qs = seat_qs.filter(match__status=Match.Status.FINISHED)
    for match_id, player_id, position, team in seat_qs.values_list(
        "match_id", "player_id", "position", "team"
    ):
        seats[match_id].append((position, player_id, team))
    # What a game or hand was won by, per match: ("seat", position) or ("team", team).
    margins: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    game_qs = Game.objects.filter(match__event=event, status=Game.Status.FINISHED).filter(
        Q(winner_position__isnull=False) | Q(winner_team__isnull=False)
    )
    for match_id, winner_pos, winner_team, margin in game_qs.values_list(
        "match_id", "winner_position", "winner_team", "margin"
    ):
        if winner_team is not None:
            margins[match_id][("team", winner_team)] += margin or 0
        elif winner_pos is not None:
            margins[match_id][("seat", winner_pos)] += margin or 0
    hands: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    gins: dict[int, dict[tuple[str, int], int]] = defaultdict(lambda: defaultdict(int))
    if with_hands:
        sub_qs = HandSubmission.objects.filter(
            hand__game__match__event=event, status=HandSubmission.Status.CONFIRMED
        ).annotate(
            _winner=KeyTextTransform(HAND_WINNER_KEY, "result"),
            _team=KeyTextTransform(HAND_WINNER_TEAM_KEY, "result"),
            _outcome=KeyTextTransform(HAND_OUTCOME_KEY, "result"),
        )
        for match_id, raw_winner, raw_team, outcome in sub_qs.values_list(
            "hand__game__match_id", "_winner", "_team", "_outcome"
        ):
            if raw_team not in (None, ""):
                hand_side = ("team", int(raw_team))
            elif raw_winner not in (None, ""):
                hand_side = ("seat", int(raw_winner))
            else:
                continue
            hands[match_id][hand_side] += 1
            if outcome in GIN_OUTCOMES:
                gins[match_id][hand_side] += 1
    records = []
    for match_id, rnd, key, status, decision, winner, win_team, summary, finished_at in rows:
        ordered = sorted(seats.get(match_id, []))
        sides = [("team", t) if t is not None else ("seat", p) for p, _, t in ordered]
        won = margins.get(match_id, {})
        if len(set(sides)) == 2:  # two players, or two teams: net
            total = sum(won.values())
            game_points = tuple(2 * won.get(s, 0) - total for s in sides)
        else:
            game_points = tuple(won.get(s, 0) for s in sides)
        records.append(
            MatchRecord(
                id=match_id,
                round=rnd,
                bracket_key=key,
                status=status,
                decision=decision,
                winner=winner,
                players=tuple(pid for _, pid, _ in ordered),
                teams=tuple(t for _, _, t in ordered),
                winner_team=win_team,
                game_points=game_points,
                hands_won=tuple(hands.get(match_id, {}).get(s, 0) for s in sides),
                gins=tuple(gins.get(match_id, {}).get(s, 0) for s in sides),
                summary=summary or {},
                finished_on=finished_at.date() if finished_at else None,
            )
        )
    return records


@dataclass(frozen=True, slots=True)
class ResultsSnapshot:
    """An event's players and results in the form :func:`tiebreaks.rank` takes."""

    players: tuple[int, ...]
    results: tuple[RoundResult, ...]
    rounds: int | None
    dropped: frozenset[int]
    config: TieBreakConfig


def _points(event: Event, name: str) -> Fraction:
    return Fraction(str(event_option(event=event, name=name)))


def _round_result(
    record: MatchRecord, number: int, event: Event, win: Fraction
) -> RoundResult | None:
    """One finished two-seat match (or a bye) as a round result; ``None`` if it scores nothing."""
    if len(record.players) == 1:
        kind = record.summary.get("bye", "pairing")
        points = {
            "pairing": _points(event, "bye_points"),
            "requested": _points(event, "requested_bye_points"),
            "late_entry": _points(event, "late_entry_points"),
        }.get(kind, Fraction(0))
        return RoundResult(number, GameSide(record.players[0], points), None, played=False)
    if len(record.players) != 2:
        return None
    a, b = record.players
    if record.decision == Match.Decision.FORFEIT:
        pa = pb = Fraction(0)
    elif record.winner is None:
        pa = pb = win / 2
    else:
        pa = win if record.winner == a else Fraction(0)
        pb = win if record.winner == b else Fraction(0)
    played = record.decision == Match.Decision.PLAYED
    return RoundResult(
        number,
        GameSide(a, pa, record.game_points[0], record.hands_won[0], record.gins[0]),
        GameSide(b, pb, record.game_points[1], record.hands_won[1], record.gins[1]),
        played=played,
    )


def _table_results(record: MatchRecord, number: int, win: Fraction) -> list[RoundResult]:
    """A finished table of three or more players (in the box, dealer-out, Rummy 2-6, a
    partnership) as one one-sided, played result per player in round ``number``.

    The winner (both partners of a winning team) scores a match win, everybody else a loss; a
    table without a winner is a draw for all. Game points, hands won and gins are the record's
    (see :func:`event_match_records`). Such a table has no single opponent, so tie-breaks that
    look at opponents (Buchholz, Sonneborn-Berger, head-to-head, opponents' win %) see the round
    as unplayed; club nights and leagues rank by match points, then game points.
    """
    if record.decision == Match.Decision.FORFEIT:
        return []
    winners = set(record.winners)
    return [
        RoundResult(
            number,
            GameSide(
                pid,
                (win if pid in winners else Fraction(0)) if winners else win / 2,
                record.game_points[k],
                record.hands_won[k],
                record.gins[k],
            ),
            None,
            played=True,
        )
        for k, pid in enumerate(record.players)
    ]


def _open_play_results(record: MatchRecord, number: int, event: Event) -> list[RoundResult]:
    """A club night's or league's finished match as round ``number``'s results (two or more)."""
    win = _points(event, "win_points")
    if len(record.players) > 2:
        return _table_results(record, number, win)
    r = _round_result(record, number, event, win)
    return [r] if r is not None else []


def _uses_rounds(event: Event) -> bool:
    return event.kind not in (Event.Kind.CLUB_NIGHT, Event.Kind.LEAGUE)


def event_results_snapshot(
    *, event: Event, records: Sequence[MatchRecord] | None = None
) -> ResultsSnapshot:
    """Everybody registered (dropped players included: past results stand) and every result.

    Round-based kinds use the round numbers; club nights give each match its own round, since
    players sit down with anyone and play as many matches as they like. A late entry's missed
    rounds (those already paired before ``joined_round``) score ``late_entry_points``.

    Round-based kinds count two-player matches only (their pairings never seat more). Club
    nights count every table: a match of three or more players (or two teams) is a match win
    for the winner (both partners), a loss for everyone else, and each game's margin is the
    winner's game points (see :func:`_table_results`).
    """
    regs = list(
        Registration.objects.filter(event=event).values_list("player_id", "status", "joined_round")
    )
    players = tuple(sorted(pid for pid, _, _ in regs))
    dropped = frozenset(pid for pid, status, _ in regs if status == Registration.Status.DROPPED)
    if records is None:
        records = event_match_records(event=event, finished_only=True)
    win = _points(event, "win_points")
    results: list[RoundResult] = []
    registered = set(players)
    rounds: int | None = None
    if _uses_rounds(event):
        numbers = list(Round.objects.filter(event=event).values_list("number", flat=True))
        rounds = max((n for n in numbers), default=0)
        for rec in records:
            if not rec.finished or rec.round is None:
                continue
            if not set(rec.players) <= registered:
                continue
            r = _round_result(rec, rec.round, event, win)
            if r is not None:
                results.append(r)
        late = _points(event, "late_entry_points")
        has_result = {
            (side.player, r.round) for r in results for side in (r.first, r.second) if side
        }
        existing = set(numbers)
        for pid, _status, joined in regs:
            for number in range(1, joined):
                if number in existing and (pid, number) not in has_result:
                    results.append(RoundResult(number, GameSide(pid, late), None, played=False))
    else:
        number = 0
        for rec in records:
            if not rec.finished or not set(rec.players) <= registered:
                continue
            found = _open_play_results(rec, number + 1, event)
            if found:
                number += 1
                results.extend(found)
    return ResultsSnapshot(
        players=players,
        results=tuple(results),
        rounds=rounds,
        dropped=dropped,
        config=TieBreakConfig(win_points=win),
    )


# --- Standings ------------------------------------------------------------------------------


def _num(value: Fraction | int) -> float | int:
    f = Fraction(value)
    return int(f) if f.denominator == 1 else round(float(f), 6)


def _counts(snapshot: ResultsSnapshot) -> dict[int, dict[str, Any]]:
    """Matches played, won, drawn and lost, byes, game points, hands won and gins per player."""
    out = {
        p: {
            "played": 0,
            "won": 0,
            "drawn": 0,
            "lost": 0,
            "byes": 0,
            "game_points": 0,
            "hands_won": 0,
            "gins": 0,
        }
        for p in snapshot.players
    }
    win = Fraction(snapshot.config.win_points)
    for r in snapshot.results:
        if r.second is None and not r.played:
            out[r.first.player]["byes"] += 1
            continue
        for side in (r.first,) if r.second is None else (r.first, r.second):
            row = out[side.player]
            row["played"] += 1 if r.played else 0
            mp = Fraction(side.match_points)
            if mp == win:
                row["won"] += 1
            elif r.played and mp * 2 == win:
                row["drawn"] += 1
            else:
                row["lost"] += 1
            row["game_points"] += int(side.game_points)
            row["hands_won"] += side.hands_won
            row["gins"] += side.gins
    return out


@dataclass(frozen=True, slots=True)
class StandingLine:
    """One computed line of standings, ready to store or to compare with the stored one."""

    player: int
    rank: int
    values: dict[str, Any]


def standings_compute(
    *, event: Event, snapshot: ResultsSnapshot | None = None
) -> list[StandingLine]:
    """The event's standings computed from scratch from stored results (nothing is stored).

    The ranking is :func:`tournaments.algorithms.tiebreaks.rank` with the event's tie-break
    order; for grouped round robins each group is ranked on its own as well.
    """
    if snapshot is None:
        snapshot = event_results_snapshot(event=event)
    order = event_tiebreak_order(event=event)
    rows = rank(
        snapshot.players,
        snapshot.results,
        order,
        event.lots_seed,
        config=snapshot.config,
        rounds=snapshot.rounds,
    )
    counts = _counts(snapshot)
    group_of: dict[int, int] = {}
    group_rank: dict[int, int] = {}
    groups = (event.draw or {}).get("groups") or []
    if len(groups) > 1:
        for g, members in enumerate(groups, start=1):
            inside = set(members)
            sub = [
                r
                for r in snapshot.results
                if r.first.player in inside and (r.second is None or r.second.player in inside)
            ]
            for row in rank(
                sorted(inside),
                sub,
                order,
                event.lots_seed,
                config=snapshot.config,
                rounds=snapshot.rounds,
            ):
                group_of[row.player] = g
                group_rank[row.player] = row.rank
    return [_line(row, counts, snapshot, group_of, group_rank) for row in rows]


def _line(
    row: StandingsRow,
    counts: dict[int, dict[str, Any]],
    snapshot: ResultsSnapshot,
    group_of: dict[int, int],
    group_rank: dict[int, int],
) -> StandingLine:
    values: dict[str, Any] = {"match_points": _num(row.match_points)}
    for tb, v in row.tiebreaks:
        values[tb.value] = _num(v)
    values.update(counts[row.player])
    values["dropped"] = row.player in snapshot.dropped
    if row.player in group_of:
        values["group"] = group_of[row.player]
        values["group_rank"] = group_rank[row.player]
    return StandingLine(player=row.player, rank=row.rank, values=values)


@dataclass(frozen=True, slots=True)
class EventStandings:
    """Stored standings with their freshness: ``as_of`` results sequence, ``stale`` if behind."""

    event: Event
    rows: list[Standing]
    as_of: int
    results_seq: int
    stale: bool
    updated_at: Any


def event_standings(*, event: Event) -> EventStandings:
    """The stored standings: current, or marked "updating, as of result ``as_of``".

    A league's table is aggregated from its events on the fly instead (see :func:`league_table`).
    """
    event.refresh_from_db(fields=["results_seq", "standings_seq", "standings_updated_at"])
    rows = list(Standing.objects.filter(event=event).select_related("player").order_by("rank"))
    return EventStandings(
        event=event,
        rows=rows,
        as_of=event.standings_seq,
        results_seq=event.results_seq,
        stale=event.standings_seq < event.results_seq,
        updated_at=event.standings_updated_at,
    )


def league_table(*, league: Event) -> list[StandingLine]:
    """A league's table: every finished match of its events, ranked as one club night would be.

    Each match counts once, tables of three or more players included (a win for the winner, a
    loss for the others, margins as game points: see :func:`event_results_snapshot`); the
    league's own tie-break order applies (default: game points, lots). Players are everyone
    registered in the league or any of its events.
    """
    if league.kind != Event.Kind.LEAGUE:
        raise ApplicationError("only a league has a league table", status=400)
    events = list(Event.objects.filter(league=league))
    records: list[tuple[int, MatchRecord]] = []
    players: set[int] = set(
        Registration.objects.filter(Q(event=league) | Q(event__league=league)).values_list(
            "player_id", flat=True
        )
    )
    for ev in events:
        records.extend((ev.pk, r) for r in event_match_records(event=ev, finished_only=True))
    win = _points(league, "win_points")
    results: list[RoundResult] = []
    number = 0
    for _ev_id, rec in records:
        if not set(rec.players) <= players:
            continue
        found = _open_play_results(rec, number + 1, league)
        if found:
            number += 1
            results.extend(found)
    dropped = frozenset(
        Registration.objects.filter(event=league, status=Registration.Status.DROPPED).values_list(
            "player_id", flat=True
        )
    )
    snapshot = ResultsSnapshot(
        players=tuple(sorted(players)),
        results=tuple(results),
        rounds=None,
        dropped=dropped,
        config=TieBreakConfig(win_points=win),
    )
    lines = standings_compute(event=league, snapshot=snapshot)
    played_in: dict[int, set[int]] = defaultdict(set)
    for ev_id, rec in records:
        for pid in rec.players:
            played_in[pid].add(ev_id)
    for line in lines:
        line.values["events"] = len(played_in.get(line.player, ()))
    return lines


def league_results_seq(*, league: Event) -> int:
    """The sum of the league's events' result sequences: it moves whenever any result does."""
    total = Event.objects.filter(league=league).values_list("results_seq", flat=True)
    return sum(total)


# --- Swiss pairing input --------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SwissInput:
    """Everything :func:`pair_swiss` takes for one round, built from stored rows."""

    players: tuple[SwissPlayer, ...]
    forbidden: tuple[ForbiddenPair, ...]
    config: SwissConfig


def _club_rule(value: object) -> ClubRule:
    if value in (True, "hard"):
        return ClubRule.HARD
    if value == "soft":
        return ClubRule.SOFT
    return ClubRule.ALLOW


def event_pairing_registrations(*, event: Event) -> QuerySet[Registration]:
    """Who takes part in the next round: checked in and not dropped."""
    return Registration.objects.filter(event=event, status=Registration.Status.CHECKED_IN)


def swiss_input(*, event: Event, round_number: int) -> SwissInput:
    """The pairing snapshot for ``round_number``: scores, opponents, byes, seats, constraints.

    Scores come from the stored results themselves (not from the standings, which may be
    behind), so a round is always paired from what was actually played.
    """
    regs = list(
        event_pairing_registrations(event=event).values_list(
            "player_id", "seed", "requested_byes", "player__club_id", "player__family"
        )
    )
    ids = [r[0] for r in regs]
    records = event_match_records(event=event, with_hands=False)
    unfinished = [r for r in records if not r.finished and r.round is not None]
    if unfinished:
        raise ApplicationError(
            f"round {unfinished[0].round} still has {len(unfinished)} match(es) without a final "
            "result",
            status=409,
        )
    snapshot = event_results_snapshot(event=event, records=records)
    score: dict[int, Fraction] = defaultdict(Fraction)
    for r in snapshot.results:
        for side in (r.first, r.second):
            if side is not None:
                score[side.player] += Fraction(side.match_points)
    opponents: dict[int, set[int]] = defaultdict(set)
    byes: dict[int, int] = defaultdict(int)
    seats: dict[int, list[SwissSeat]] = defaultdict(list)
    for rec in sorted(records, key=lambda r: (r.round or 0, r.id)):
        if len(rec.players) == 1:
            if rec.summary.get("bye", "pairing") == "pairing":
                byes[rec.players[0]] += 1
            continue
        if len(rec.players) == 2:
            a, b = rec.players
            opponents[a].add(b)
            opponents[b].add(a)
            if rec.decision == Match.Decision.PLAYED:
                seats[a].append(SwissSeat.FIRST)
                seats[b].append(SwissSeat.SECOND)
    ratings = dict(
        Rating.objects.filter(
            club=event.club, kind=Rating.Kind.GLICKO2, player_id__in=ids
        ).values_list("player_id", "rating")
    )
    big_seed = 10**9
    players = tuple(
        SwissPlayer(
            id=pid,
            score=score.get(pid, Fraction(0)),
            rating=float(ratings.get(pid, 0.0)),
            seed=seed if seed is not None else big_seed,
            opponents=frozenset(opponents.get(pid, ())),
            byes=byes.get(pid, 0),
            seats=tuple(seats.get(pid, ())),
            requests_bye=round_number in (requested or []),
            club=club_id,
        )
        for pid, seed, requested, club_id, _family in regs
    )
    forbidden = [
        ForbiddenPair(a, b, hard)
        for a, b, hard in ForbiddenPairing.objects.filter(event=event).values_list(
            "player_a_id", "player_b_id", "hard"
        )
    ]
    family_rule = _club_rule(event_option(event=event, name="forbid_family"))
    if family_rule is not ClubRule.ALLOW:
        families: dict[str, list[int]] = defaultdict(list)
        for pid, _seed, _req, _club, family in regs:
            if family:
                families[family.strip().lower()].append(pid)
        for members in families.values():
            for i, a in enumerate(members):
                for b in members[i + 1 :]:
                    forbidden.append(ForbiddenPair(a, b, family_rule is ClubRule.HARD))
    config = SwissConfig(
        order_by="seed" if event_option(event=event, name="pair_by") == "seed" else "rating",
        same_club=_club_rule(event_option(event=event, name="forbid_same_club")),
        pairing_bye_points=_points(event, "bye_points"),
        requested_bye_points=_points(event, "requested_bye_points"),
    )
    return SwissInput(players=players, forbidden=tuple(forbidden), config=config)


def event_table_history(*, event: Event) -> dict[int, set[int]]:
    """The table numbers each player has sat at in this event (for "avoid the same table")."""
    out: dict[int, set[int]] = defaultdict(set)
    for pid, table in Seat.objects.filter(
        match__event=event, match__table_number__isnull=False
    ).values_list("player_id", "match__table_number"):
        if table is not None:
            out[pid].add(table)
    return out


def seeded_registrations(*, event: Event) -> list[int]:
    """Checked-in players in seed order: seed first (unseeded last), then rating, then id."""
    regs = list(event_pairing_registrations(event=event).values_list("player_id", "seed"))
    ratings = dict(
        Rating.objects.filter(club=event.club, kind=Rating.Kind.GLICKO2).values_list(
            "player_id", "rating"
        )
    )
    regs.sort(key=lambda r: (r[1] is None, r[1] or 0, -ratings.get(r[0], 0.0), r[0]))
    return [pid for pid, _ in regs]


# --- Brackets -------------------------------------------------------------------------------


def event_bracket_structure(*, event: Event) -> Bracket:
    """The event's bracket, rebuilt from the entrants fixed when it started."""
    entrants = (event.draw or {}).get("entrants")
    if not entrants:
        raise ApplicationError("the bracket has not been drawn yet", status=404)
    if event.kind == Event.Kind.DOUBLE_ELIMINATION:
        return double_elimination(
            entrants, reset=bool(event_option(event=event, name="grand_final_reset"))
        )
    return single_elimination(
        entrants, third_place=bool(event_option(event=event, name="third_place"))
    )


@dataclass(frozen=True, slots=True)
class BracketSnapshot:
    """A bracket, its state after the stored results, and the stored match of each bracket slot."""

    bracket: Bracket
    state: BracketState
    matches: dict[int, MatchRecord]
    depth: dict[int, int]


def event_bracket_snapshot(
    *, event: Event, overrides: Mapping[int, int | None] | None = None
) -> BracketSnapshot:
    """Replay the stored results through the bracket.

    Both players forfeiting counts as both having dropped for that match, so nobody advances
    from it. ``overrides`` (bracket id → winner, or None for "no result") replaces stored
    results: what the bracket would look like if a correction went through.
    """
    bracket = event_bracket_structure(event=event)
    records = [r for r in event_match_records(event=event, with_hands=False) if r.bracket_key]
    by_key = {int(r.bracket_key): r for r in records}
    results = {
        k: r.winner
        for k, r in by_key.items()
        if r.finished and r.winner is not None and r.decision != Match.Decision.BYE
    }
    for key, winner in (overrides or {}).items():
        if winner is None:
            results.pop(key, None)
        else:
            results[key] = winner
    dropped = set(
        Registration.objects.filter(event=event, status=Registration.Status.DROPPED).values_list(
            "player_id", flat=True
        )
    )
    forfeited = {
        k: r for k, r in by_key.items() if r.finished and r.decision == Match.Decision.FORFEIT
    }
    dropped.update(p for r in forfeited.values() for p in r.players)
    try:
        state = bracket_state(bracket, results, dropped)
    except ValueError as exc:
        raise ApplicationError(str(exc), status=409) from exc
    depth: dict[int, int] = {}
    for m in bracket.matches:
        sources = [s.ref for s in (m.home, m.away) if s.kind != "seed"]
        depth[m.id] = 1 + max((depth[s] for s in sources), default=0)
    return BracketSnapshot(bracket=bracket, state=state, matches=by_key, depth=depth)


def event_bracket(*, event: Event) -> dict[str, Any]:
    """The bracket view: every bracket match with its slots, status, winner and stored match."""
    snap = event_bracket_snapshot(event=event)
    names = dict(Player.objects.filter(pk__in=snap.bracket.entrants).values_list("pk", "name"))

    def slot(value: int | Vacancy) -> dict[str, Any]:
        if isinstance(value, Vacancy):
            return {"player": None, "name": None, "vacancy": value.value}
        return {"player": value, "name": names.get(value), "vacancy": None}

    out = []
    for ms in snap.state.matches:
        stored = snap.matches.get(ms.match.id)
        out.append(
            {
                "key": ms.match.id,
                "section": ms.match.section.value,
                "round": ms.match.round,
                "home": slot(ms.home),
                "away": slot(ms.away),
                "status": ms.status.value,
                "winner": slot(ms.winner),
                "match": stored.id if stored else None,
                "table_number": None,
            }
        )
    tables = dict(
        Match.objects.filter(pk__in=[o["match"] for o in out if o["match"]]).values_list(
            "pk", "table_number"
        )
    )
    for o in out:
        if isinstance(o["match"], int):
            o["table_number"] = tables.get(o["match"])
    return {
        "kind": event.kind,
        "entrants": [slot(p) for p in snap.bracket.entrants],
        "matches": out,
        "champion": slot(snap.state.champion) if snap.state.champion else None,
        "ready": [ms.match.id for ms in snap.state.ready],
    }


def bracket_pending(snapshot: BracketSnapshot) -> list[int]:
    """Bracket matches that can be played or were decided by walkover but have no stored match."""
    return [
        ms.match.id
        for ms in snapshot.state.matches
        if ms.status in (MatchStatus.READY, MatchStatus.WALKOVER)
        and ms.match.id not in snapshot.matches
    ]


# --- Ratings --------------------------------------------------------------------------------


def club_ratings(*, club: Club) -> dict[int, Rating]:
    """The club's current two-player (Glicko-2) ratings by player id."""
    return {r.player_id: r for r in Rating.objects.filter(club=club, kind=Rating.Kind.GLICKO2)}


def player_ratings(*, player: Player) -> dict[str, Any]:
    """A player's current club ratings and their history, newest last."""
    current = list(Rating.objects.filter(player=player).order_by("kind"))
    history = list(RatingHistory.objects.filter(player=player).order_by("created_at", "id")[:1000])
    return {"player": player, "current": current, "history": history}


def club_rating_period_start(*, club: Club, day: date) -> date:
    """The first day of the club's rating period containing ``day``.

    Periods are ``rating_period_days`` long and counted from 2000-01-03 (a Monday), so a weekly
    period starts on Mondays and a 30-day period is the same for every match of the club.
    """
    epoch = date(2000, 1, 3)
    length = max(1, club.rating_period_days)
    offset = (day - epoch).days // length * length
    return date.fromordinal(epoch.toordinal() + offset)


# --- Lists for the API ----------------------------------------------------------------------


def club_list() -> QuerySet[Club]:
    return Club.objects.annotate(
        player_count=Count("players", distinct=True), event_count=Count("events", distinct=True)
    ).order_by("name")


def player_list(*, club_id: int | None = None) -> QuerySet[Player]:
    qs = Player.objects.select_related("club").order_by("club_id", "name")
    return qs.filter(club_id=club_id) if club_id else qs


def event_list(*, club_id: int | None = None, kind: str | None = None) -> QuerySet[Event]:
    qs = Event.objects.select_related("club").annotate(
        registration_count=Count("registrations", distinct=True)
    )
    if club_id:
        qs = qs.filter(club_id=club_id)
    if kind:
        qs = qs.filter(kind=kind)
    return qs.order_by(F("starts_on").desc(nulls_last=True), "-id")


def event_rounds(*, event: Event) -> QuerySet[Round]:
    return Round.objects.filter(event=event).order_by("number")


def round_matches(*, rnd: Round) -> list[Match]:
    return list(
        Match.objects.filter(round=rnd)
        .prefetch_related("seats__player")
        .order_by(F("table_number").asc(nulls_last=True), "id")
    )


def event_matches(*, event: Event, open_only: bool = False) -> QuerySet[Match]:
    """The event's matches with their seated players: the ones still being played first, then
    newest first (a club night's tables); only those without a final result if ``open_only``."""
    qs = Match.objects.filter(event=event)
    if open_only:
        qs = qs.exclude(status=Match.Status.FINISHED)
    return qs.prefetch_related("seats__player").order_by("status", "-created_at", "-id")


def event_forbidden_pairings(*, event: Event) -> QuerySet[ForbiddenPairing]:
    """The pairs of players this event keeps apart, with both players."""
    return (
        ForbiddenPairing.objects.filter(event=event)
        .select_related("player_a", "player_b")
        .order_by("player_a__name", "player_b__name")
    )


def event_active_players(*, event: Event) -> QuerySet[Player]:
    """Who can be seated at the event now: its registered players who have not dropped (at a
    club night nobody registered for, any player of the club)."""
    registered = Registration.objects.filter(event=event)
    if event.kind == Event.Kind.CLUB_NIGHT and not registered.exists():
        return player_list(club_id=event.club_id)
    active = registered.exclude(status=Registration.Status.DROPPED)
    return Player.objects.filter(pk__in=active.values("player_id")).order_by("name")


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One of a player's matches as their page lists it."""

    match: Match
    opponents: tuple[Player, ...]
    partners: tuple[Player, ...]
    result: str  # "playing", "won", "lost", "draw" or "forfeit"


def player_matches(*, player: Player, limit: int = 100) -> list[PlayerMatch]:
    """A player's matches, newest first, with opponents, partners and the player's result.

    A partnership is won by a team: the player won when their seat's team is the winning one.
    """
    seats = list(
        Seat.objects.filter(player=player)
        .select_related("match__event", "match__winner", "match__round")
        .prefetch_related("match__seats__player")
        .order_by("-match__created_at", "-match_id")[:limit]
    )
    out = []
    for seat in seats:
        m = seat.match
        others = [s for s in m.seats.all() if s.player_id != player.pk]
        same_side = [s for s in others if seat.team is not None and s.team == seat.team]
        if m.status != Match.Status.FINISHED:
            result = "playing"
        elif m.winner_team is not None:
            result = "won" if seat.team == m.winner_team else "lost"
        elif m.winner_id is None:
            result = "forfeit" if m.decision == Match.Decision.FORFEIT else "draw"
        else:
            result = "won" if m.winner_id == player.pk else "lost"
        out.append(
            PlayerMatch(
                match=m,
                opponents=tuple(s.player for s in others if s not in same_side),
                partners=tuple(s.player for s in same_side),
                result=result,
            )
        )
    return out


def registration_list(*, event: Event) -> QuerySet[Registration]:
    return (
        Registration.objects.filter(event=event)
        .select_related("player")
        .order_by(F("seed").asc(nulls_last=True), "id")
    )
