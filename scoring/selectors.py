"""Reads for matches, games, hands and submissions.

:func:`match_state` is the one place where a match's confirmed submissions become engine inputs
and the engine's game scoring is called: every total, bonus, dealer and role shown anywhere comes
from it. The other selectors shape its output for the API and pages, and answer who may see what.
Nothing here writes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Prefetch, Q, QuerySet

from engine.errors import EngineError
from engine.game import (
    BoxRoles,
    GameResult,
    HollywoodResult,
    MatchFormat,
    ScoredHand,
    dealer_out_seats,
    score_game,
    score_hollywood,
    score_match,
    score_three_box,
)
from engine.rules import RuleSet
from engine.scoring import HandOutcome
from scoring.formats import match_format_read
from scoring.models import Game, Hand, HandSubmission, Match, Seat
from tournaments.models import ClubRole, Event, Round

UserLike = AbstractBaseUser | AnonymousUser | None


# -- who directs what ---------------------------------------------------------------------------


def event_is_director(*, event: Event, user: UserLike) -> bool:
    """True for the event's directors, its club's admins and directors, and superusers."""
    if user is None or not user.is_authenticated:
        return False
    if getattr(user, "is_superuser", False):
        return True
    if event.directors.filter(pk=user.pk).exists():
        return True
    return ClubRole.objects.filter(club_id=event.club_id, user_id=user.pk).exists()


def events_directed(*, user: UserLike) -> QuerySet[Event]:
    """Events ``user`` directs (directly, or as an admin or director of the club)."""
    if user is None or not user.is_authenticated:
        return Event.objects.none()
    if getattr(user, "is_superuser", False):
        return Event.objects.all()
    return Event.objects.filter(Q(directors=user) | Q(club__roles__user=user)).distinct()


def match_list_visible(*, user: UserLike, event_id: int | None = None) -> QuerySet[Match]:
    """Matches a signed-in user may see: the ones they play in and those of events they direct."""
    if user is None or not user.is_authenticated:
        return Match.objects.none()
    directed = events_directed(user=user).values("pk")
    qs = Match.objects.filter(Q(seats__player__user=user) | Q(event__in=directed)).distinct()
    if event_id is not None:
        qs = qs.filter(event_id=event_id)
    return qs.select_related("event").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player"))
    )


# -- the engine's view of a match ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandContext:
    """Who plays a hand: its dealer (an engine index: seat, or team in a partnership), the seat
    positions that may knock or defend, and the in-the-box roles."""

    number: int
    dealer: int
    playing: tuple[int, ...]
    roles: BoxRoles | None = None


@dataclass(frozen=True, slots=True)
class GameView:
    """One game row with its confirmed hands, its pending entry and the engine's result.

    ``results`` holds one :class:`GameResult` (three for a Hollywood set: one per column).
    ``contexts`` has one entry per confirmed hand and, last, one for the next hand.
    """

    game: Game
    hands: tuple[HandSubmission, ...]
    pending: HandSubmission | None
    results: tuple[GameResult, ...]
    contexts: tuple[HandContext, ...]
    entered: tuple[tuple[int, ...], ...] = ()

    @property
    def result(self) -> GameResult:
        return self.results[0]

    @property
    def finished(self) -> bool:
        return all(r.finished for r in self.results)

    @property
    def next_number(self) -> int:
        return len(self.hands) + 1

    @property
    def next_context(self) -> HandContext:
        return self.contexts[-1]


@dataclass(frozen=True, slots=True)
class MatchState:
    """A match as the engine scores it from its confirmed hands."""

    match: Match
    rules: RuleSet
    fmt: MatchFormat
    seats: tuple[Seat, ...]
    engine_players: int
    games: tuple[GameView, ...]
    finished: bool
    winner: int | None
    games_won: tuple[int, ...]

    @property
    def current(self) -> GameView | None:
        """The game the next hand belongs to, or None when the match is over."""
        if self.finished or not self.games or self.games[-1].finished:
            return None
        return self.games[-1]

    @property
    def partnership(self) -> bool:
        return self.rules.table == "partnership"

    def seat(self, position: int) -> Seat | None:
        for seat in self.seats:
            if seat.position == position:
                return seat
        return None

    def side_of(self, position: int) -> int:
        """The engine index a seat plays for: its team in a partnership, else itself."""
        if self.partnership:
            seat = self.seat(position)
            return seat.team if seat is not None and seat.team is not None else position % 2
        return position

    def name_of(self, index: int | None) -> str | None:
        """A player's (or a team's) name for an engine index."""
        if index is None:
            return None
        if self.partnership:
            names = [s.player.name for s in self.seats if self.side_of(s.position) == index]
            return " & ".join(names)
        seat = self.seat(index)
        return seat.player.name if seat is not None else None


def match_prefetched(*, match_id: int) -> Match:
    """A match with everything :func:`match_state` reads, in a fixed number of queries."""
    return _with_state_relations(Match.objects.all()).get(pk=match_id)


def _with_state_relations(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` with every relation :func:`match_state` reads prefetched (six queries for
    any number of matches)."""
    return matches.select_related("event__club", "winner").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player")),
        Prefetch(
            "games",
            queryset=Game.objects.prefetch_related(
                Prefetch(
                    "hands",
                    queryset=Hand.objects.prefetch_related(
                        Prefetch(
                            "submissions",
                            queryset=HandSubmission.objects.select_related(
                                "submitted_by_player",
                                "confirmed_by_player",
                                "submitted_by_user",
                                "confirmed_by_user",
                            ),
                        )
                    ),
                )
            ),
        ),
    )


def scored_hand_from(result: dict[str, Any]) -> ScoredHand:
    """The engine's game entry for a stored verdict (built by the engine when it was entered)."""
    scored = result["scored"]
    outcome = HandOutcome(scored["outcome"])
    if outcome is HandOutcome.DEAD or scored["winner"] is None:
        return ScoredHand.dead()
    return ScoredHand(
        winner=scored["winner"],
        points=scored["points"],
        outcome=outcome,
        others=tuple((int(p), int(v)) for p, v in scored.get("others", ())),
    )


def _engine_players(rules: RuleSet, seats: int) -> int:
    if rules.table == "partnership":
        return 2
    return seats


def _game_hands(game: Game) -> tuple[tuple[HandSubmission, ...], HandSubmission | None]:
    confirmed: list[HandSubmission] = []
    pending: HandSubmission | None = None
    for hand in sorted(game.hands.all(), key=lambda h: h.number):
        subs = list(hand.submissions.all())
        current = next((s for s in subs if s.status == HandSubmission.Status.CONFIRMED), None)
        if current is not None:
            current.hand = hand
            confirmed.append(current)
            continue
        waiting = next((s for s in subs if s.status == HandSubmission.Status.PENDING), None)
        if waiting is not None:
            waiting.hand = hand
            pending = waiting
    return tuple(confirmed), pending


def _contexts(
    rules: RuleSet,
    players: int,
    first_dealer: int,
    hands: Sequence[ScoredHand],
    result: GameResult,
    roles: Sequence[BoxRoles] | None,
    seats: int,
) -> tuple[HandContext, ...]:
    out: list[HandContext] = []
    dealers = [*result.dealers, result.next_dealer]
    if rules.table == "three_box" and roles is not None:
        for number, role in enumerate(roles, start=1):
            out.append(HandContext(number, role.box, (role.box, role.captain), role))
        return tuple(out)
    if rules.table == "three_dealer_out":
        for number, (dealer, playing) in enumerate(
            dealer_out_seats(first_dealer, hands, players=players), start=1
        ):
            out.append(HandContext(number, dealer, tuple(playing)))
        return tuple(out)
    everyone = tuple(range(seats))
    return tuple(
        HandContext(number, dealer, everyone) for number, dealer in enumerate(dealers, start=1)
    )


def match_state(*, match: Match) -> MatchState:
    """Score ``match`` from its confirmed hands with the engine (the only place that does).

    ``match`` should come from :func:`match_prefetched` (else its relations are queried here).
    Trailing game rows with no hands are left out of the engine's input; an empty next game is
    scored on its own from the dealer the previous game hands on. Raises the engine's
    :class:`~engine.errors.ScoreError` if the stored hands do not make a valid match (which only
    a correction can cause; services check before storing).
    """
    rules = RuleSet.from_dict(match.rules)
    fmt = match_format_read(data=match.match_format, rules=rules)
    seats = tuple(sorted(match.seats.all(), key=lambda s: s.position))
    players = _engine_players(rules, len(seats))
    game_rows = sorted(match.games.all(), key=lambda g: g.number)
    if not game_rows:  # a match paired by a tournament round, before its first hand
        game_rows = [Game(match=match, number=1, first_dealer=0)]
    per_game = [_game_hands(g) if g.pk else ((), None) for g in game_rows]
    streams = [[scored_hand_from(s.result) for s in hands] for hands, _ in per_game]
    while len(streams) > 1 and not streams[-1]:
        streams.pop()
    first_dealer = game_rows[0].first_dealer if game_rows else 0
    views: list[GameView] = []
    if rules.hollywood_games:
        holly: HollywoodResult = score_hollywood(rules, streams[0], first_dealer=first_dealer)
        pair = holly.games_won
        finished = holly.finished
        winner = pair.index(max(pair)) if finished else None
        contexts = tuple(
            HandContext(n, d, (0, 1))
            for n, d in enumerate([*holly.dealers, holly.next_dealer], start=1)
        )
        hands, pending = per_game[0]
        views.append(GameView(game_rows[0], hands, pending, holly.games, contexts, holly.entered))
        return MatchState(match, rules, fmt, seats, players, tuple(views), finished, winner, pair)
    if rules.table == "three_box":
        plain = rules
        if fmt.kind == "fixed_hands":
            plain = rules.with_overrides(target=None, max_hands=fmt.hands)
        game, roles = score_three_box(plain, (0, 1, 2), streams[0])
        hands, pending = per_game[0]
        ctx = _contexts(plain, players, 0, streams[0], game, roles, len(seats))
        views.append(GameView(game_rows[0], hands, pending, (game,), ctx))
        won = tuple(1 if game.winner == p else 0 for p in range(3))
        return MatchState(
            match, rules, fmt, seats, players, tuple(views), game.finished, game.winner, won
        )
    result = score_match(rules, fmt, streams, players=players, first_dealer=first_dealer)
    plain = rules
    if fmt.kind == "fixed_hands":
        plain = rules.with_overrides(target=None, max_hands=fmt.hands)
    dealer = first_dealer
    for index, game in enumerate(result.games):
        hands, pending = per_game[index]
        ctx = _contexts(plain, players, dealer, streams[index], game, None, len(seats))
        views.append(GameView(game_rows[index], hands, pending, (game,), ctx))
        dealer = game.next_dealer
    if not result.finished and result.games and result.games[-1].finished:
        nxt = len(result.games)
        if nxt < len(game_rows):
            empty = score_game(plain, [], players=players, first_dealer=dealer)
            ctx = _contexts(plain, players, dealer, [], empty, None, len(seats))
            views.append(GameView(game_rows[nxt], (), per_game[nxt][1], (empty,), ctx))
    return MatchState(
        match,
        rules,
        fmt,
        seats,
        players,
        tuple(views),
        result.finished,
        result.winner,
        result.games_won,
    )


# -- live scores of many tables ------------------------------------------------------------------


def _live(state: MatchState) -> dict[str, Any]:
    detail = match_detail(state=state, show_pending=False)
    game = detail["games"][-1] if detail["games"] else None
    return {
        "totals": game["totals"] if game is not None and "totals" in game else None,
        "games_won": detail["games_won"],
        "best_of": len(detail["games"]) > 1 or detail["match_format"].get("kind") == "best_of",
        "sides": detail["sides"],
        "winner_name": detail["winner_name"],
    }


def matches_live_scores(*, match_ids: Sequence[int]) -> dict[int, dict[str, Any]]:
    """Each match's live score (current game's totals, games won, sides, winner) by match id.

    Every match is loaded with one set of prefetches (six queries whatever their number) and
    scored by :func:`match_state` in memory, so a pairings list of 512 tables costs what one
    table does. A match whose stored hands the engine rejects is left out.
    """
    out: dict[int, dict[str, Any]] = {}
    if not match_ids:
        return out
    for match in _with_state_relations(Match.objects.filter(pk__in=list(match_ids))):
        try:
            out[match.pk] = _live(match_state(match=match))
        except EngineError:
            continue
    return out


def round_live_scores(*, rnd: Round) -> dict[int, dict[str, Any]]:
    """The live score of every played table of a round (see :func:`matches_live_scores`)."""
    ids = Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED).values_list(
        "pk", flat=True
    )
    return matches_live_scores(match_ids=list(ids))


# -- shapes for the API -------------------------------------------------------------------------


def _who(sub: HandSubmission, which: str) -> dict[str, Any] | None:
    user = getattr(sub, f"{which}_by_user")
    player = getattr(sub, f"{which}_by_player")
    if user is None and player is None:
        return None
    return {
        "user": user.get_username() if user is not None else None,
        "player": player.name if player is not None else None,
    }


def submission_out(sub: HandSubmission, *, game_number: int | None = None) -> dict[str, Any]:
    """A submission as the API shows it: the engine's verdict and its status."""
    verdict = dict(sub.result)
    verdict.pop("scored", None)
    return {
        "id": sub.pk,
        "game": game_number if game_number is not None else sub.hand.game.number,
        "hand_number": sub.hand.number,
        "version": sub.version,
        "status": sub.status,
        "entry": sub.entry,
        **verdict,
        "submitted_by": _who(sub, "submitted"),
        "confirmed_by": _who(sub, "confirmed"),
        "override_reason": sub.override_reason,
        "created_at": sub.created_at.isoformat(),
        "confirmed_at": sub.confirmed_at.isoformat() if sub.confirmed_at else None,
    }


def _roles_out(state: MatchState, roles: BoxRoles | None) -> dict[str, Any] | None:
    if roles is None:
        return None
    return {
        name: {"position": pos, "player": state.name_of(pos)}
        for name, pos in (("box", roles.box), ("captain", roles.captain), ("sitter", roles.sitter))
    }


def _next_out(state: MatchState, view: GameView) -> dict[str, Any]:
    ctx = view.next_context
    out: dict[str, Any] = {
        "game": view.game.number,
        "hand_number": view.next_number,
        "dealer": ctx.dealer,
        "dealer_name": state.name_of(ctx.dealer),
        "playing": list(ctx.playing),
        "roles": _roles_out(state, ctx.roles),
    }
    if state.rules.table == "three_dealer_out":
        out["sitting_out"] = ctx.dealer
    return out


def _game_result_out(state: MatchState, result: GameResult) -> dict[str, Any]:
    return {
        "finished": result.finished,
        "winner": result.winner,
        "winner_name": state.name_of(result.winner),
        "totals": list(result.totals),
        "hands_won": list(result.hands_won),
        "bonuses": {
            "game": list(result.game_bonus),
            "box": list(result.box_bonus),
            "shutout": list(result.shutout_bonus),
        },
        "shutout": result.shutout,
        "tiebreak": result.tiebreak,
        "final_totals": list(result.final_totals),
        "margin": result.margin,
        "next_dealer": result.next_dealer,
    }


def game_summary(*, state: MatchState, view: GameView) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": view.game.number,
        "status": "finished" if view.finished else "playing",
        "hands": len(view.hands),
        "first_dealer": view.contexts[0].dealer if view.contexts else view.game.first_dealer,
    }
    if state.rules.hollywood_games:
        out["columns"] = [_game_result_out(state, r) for r in view.results]
    else:
        out.update(_game_result_out(state, view.result))
    return out


def _sides(state: MatchState) -> list[dict[str, Any]]:
    """The engine's players: seats, or the two teams of a partnership."""
    if state.partnership:
        return [
            {
                "index": team,
                "name": state.name_of(team),
                "positions": [s.position for s in state.seats if state.side_of(s.position) == team],
            }
            for team in (0, 1)
        ]
    return [
        {"index": s.position, "name": s.player.name, "positions": [s.position]} for s in state.seats
    ]


def match_detail(*, state: MatchState, show_pending: bool = True) -> dict[str, Any]:
    """A match with its games, totals, bonuses, next dealer and roles."""
    match = state.match
    current = state.current
    pending = None
    if current is not None and current.pending is not None and show_pending:
        pending = submission_out(current.pending, game_number=current.game.number)
    return {
        "id": match.pk,
        "event": match.event_id,
        "event_name": match.event.name,
        "round": match.round_id,
        "table_number": match.table_number,
        "status": match.status,
        "decision": match.decision,
        "rules": state.rules.to_dict(),
        "match_format": match.match_format,
        "confirmation": match.event.confirmation,
        "seats": [
            {
                "position": s.position,
                "player": s.player_id,
                "name": s.player.name,
                "team": s.team,
            }
            for s in state.seats
        ],
        "sides": _sides(state),
        "games": [game_summary(state=state, view=v) for v in state.games],
        "games_won": list(state.games_won),
        "finished": state.finished,
        "winner": state.winner,
        "winner_name": state.name_of(state.winner),
        "next": _next_out(state, current) if current is not None else None,
        "pending": pending,
        "summary": match.summary,
    }


def _row(
    state: MatchState, view: GameView, index: int, sub: HandSubmission, result: GameResult
) -> dict[str, Any]:
    ctx = view.contexts[index]
    verdict = sub.result
    return {
        "hand_number": sub.hand.number,
        "submission": sub.pk,
        "version": sub.version,
        "dealer": ctx.dealer,
        "roles": _roles_out(state, ctx.roles),
        "outcome": verdict.get("outcome"),
        "knocker": verdict.get("knocker"),
        "winner": verdict.get("winner"),
        "winner_name": state.name_of(verdict.get("winner")),
        "knocker_deadwood": verdict.get("knocker_deadwood"),
        "defender_deadwood": verdict.get("defender_deadwood"),
        "points": verdict.get("points"),
        "credits": {str(k): v for k, v in scored_hand_from(verdict).credits().items()},
    }


def match_scoresheet(*, state: MatchState, show_pending: bool = True) -> dict[str, Any]:
    """Every game's hands in order with running totals, dealers and, at the end, the bonuses.

    A Hollywood set shows its three columns side by side: each hand row says which columns it
    was entered in and each column has its own running totals.
    """
    games = []
    for view in state.games:
        rows = []
        if state.rules.hollywood_games:
            cursors = [0] * len(view.results)
            for index, sub in enumerate(view.hands):
                row = _row(state, view, index, sub, view.result)
                columns: list[list[int] | None] = []
                for column, result in enumerate(view.results):
                    if column in view.entered[index]:
                        columns.append(list(result.running_totals[cursors[column]]))
                        cursors[column] += 1
                    else:
                        columns.append(None)
                row["columns"] = columns
                rows.append(row)
        else:
            for index, sub in enumerate(view.hands):
                row = _row(state, view, index, sub, view.result)
                row["running_totals"] = list(view.result.running_totals[index])
                rows.append(row)
        game = game_summary(state=state, view=view)
        game["rows"] = rows
        game["pending"] = (
            submission_out(view.pending, game_number=view.game.number)
            if view.pending is not None and show_pending
            else None
        )
        game["next_dealer"] = view.next_context.dealer
        game["next_dealer_name"] = state.name_of(view.next_context.dealer)
        games.append(game)
    return {
        "match": state.match.pk,
        "sides": _sides(state),
        "rules": state.rules.name,
        "games": games,
        "games_won": list(state.games_won),
        "finished": state.finished,
        "winner": state.winner,
        "winner_name": state.name_of(state.winner),
    }


def submission_get(*, submission_id: int) -> HandSubmission:
    """A submission with its hand, game, match and event (raises DoesNotExist)."""
    return HandSubmission.objects.select_related(
        "hand__game__match__event",
        "submitted_by_player",
        "confirmed_by_player",
        "submitted_by_user",
        "confirmed_by_user",
    ).get(pk=submission_id)


def hand_history(*, submission: HandSubmission) -> dict[str, Any]:
    """Every version of a hand and every change of each version: who, when, from where, what."""
    hand = submission.hand
    versions = list(
        HandSubmission.objects.filter(hand=hand)
        .select_related(
            "submitted_by_player", "confirmed_by_player", "submitted_by_user", "confirmed_by_user"
        )
        .order_by("version")
    )
    records = list(
        HandSubmission.history.filter(hand_id=hand.pk)
        .select_related("history_user", "history_player")
        .order_by("history_date", "history_id")
    )
    changes = []
    for record in records:
        changes.append(
            {
                "submission": record.id,
                "version": record.version,
                "change": {"+": "created", "~": "changed", "-": "deleted"}[record.history_type],
                "status": record.status,
                "when": record.history_date.isoformat(),
                "user": record.history_user.get_username() if record.history_user else None,
                "player": record.history_player.name if record.history_player else None,
                "ip": record.history_ip,
                "user_agent": record.history_user_agent,
                "reason": record.history_change_reason or record.override_reason or "",
            }
        )
    for version in versions:
        version.hand = hand
    return {
        "hand": hand.pk,
        "game": hand.game.number,
        "hand_number": hand.number,
        "versions": [
            {
                **submission_out(v, game_number=hand.game.number),
                "payload": v.payload,
                "ip": v.ip_address,
                "user_agent": v.user_agent,
            }
            for v in versions
        ],
        "changes": changes,
    }
