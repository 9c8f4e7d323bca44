"""The engine's view of a match (:func:`match_state`): the one place where a match's confirmed
submissions become engine inputs and the engine's game scoring is called.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from django.db.models import Prefetch, QuerySet

from engine.game import (
    BoxRoles,
    GameResult,
    HollywoodResult,
    MatchFormat,
    MatchResult,
    ScoredHand,
    StandingResult,
    dealer_out_seats,
    score_as_it_stands,
    score_game,
    score_hollywood,
    score_match,
    score_three_box,
)
from engine.rules import RuleSet
from engine.scoring import HandOutcome
from scoring.formats import match_format_read
from scoring.models import Game, Hand, HandSubmission, Match, Seat


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
    # A match closed as it stands at time: its result as it stands, from the hands as they are
    # now (``winner`` and ``games_won`` above are that result's); None for every other match.
    standing: StandingResult | None = None

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
    return with_state_relations(Match.objects.all()).get(pk=match_id)


def with_state_relations(matches: QuerySet[Match]) -> QuerySet[Match]:
    """``matches`` with every relation :func:`match_state` reads prefetched (six queries for
    any number of matches).

    Each related list is ordered within its parent only (seats by position, games and hands by
    number, submissions by version): the order the models' own ``Meta.ordering`` gives inside
    one match, game or hand (those fields are unique there), without the joins up to the match
    that ordering by ``match``/``game``/``hand`` costs (the match's own ordering, the
    creation time, would be joined into every prefetch query, and compiled for each request).
    """
    return matches.select_related("event__club", "winner").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")),
        Prefetch(
            "games",
            queryset=Game.objects.order_by("number").prefetch_related(
                Prefetch(
                    "hands",
                    queryset=Hand.objects.order_by("number").prefetch_related(
                        Prefetch(
                            "submissions",
                            queryset=HandSubmission.objects.select_related(
                                "submitted_by_player",
                                "confirmed_by_player",
                                "submitted_by_user",
                                "confirmed_by_user",
                            ).order_by("version"),
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
        waiting = next(
            (
                s
                for s in subs
                if s.status in (HandSubmission.Status.PENDING, HandSubmission.Status.DISPUTED)
            ),
            None,
        )
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

    A match a director closed as it stands at time (``summary["as_it_stands"]``,
    :mod:`scoring.services.stands`) is finished with the result stored then, whatever its
    unfinished game says: no hand is entered after it and no later sync re-opens it.

    ``match`` should come from :func:`match_prefetched` (else its relations are queried here).
    Trailing game rows with no hands are left out of the engine's input; an empty next game is
    scored on its own from the dealer the previous game hands on. Raises the engine's
    :class:`~engine.errors.ScoreError` if the stored hands do not make a valid match (which only
    a correction can cause; services check before storing).
    """
    state = _match_scored(match)
    if not match_closed_as_it_stands(match):
        return state
    standing = match_standing(state)
    return replace(
        state,
        finished=True,
        winner=standing.winner,
        games_won=standing.games_won,
        standing=standing,
    )


def match_closed_as_it_stands(match: Match) -> bool:
    """Whether a director closed ``match`` as it stands at time (its summary says by whom)."""
    return match.status == Match.Status.FINISHED and bool((match.summary or {}).get("as_it_stands"))


def match_standing(state: MatchState) -> StandingResult:
    """The engine's reading of ``state`` (as its hands score it, not yet closed) as it stands:
    computed from the hands every time, so that a director's later correction of a hand of a
    closed match changes its result as it would any other match's."""
    if state.standing is not None:
        return state.standing
    games = tuple(result for view in state.games for result in view.results)
    played = MatchResult(games, state.games_won, state.winner, state.finished)
    return score_as_it_stands(played, state.fmt)


def _match_scored(match: Match) -> MatchState:
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
        winner = holly.winner
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
