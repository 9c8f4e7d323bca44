"""A match scored as it stands when its time is up (docs/rules.md §11, ``at_time`` =
``as_it_stands``).

Part of :mod:`engine.game`. The game in progress is not finished: nobody reaches the target, so
no game bonus, box bonus or shutout is added to it; it goes to the player (or team) ahead on the
points of its hands, by the difference. Games already finished keep their final totals and their
winners. Then:

- one game, a fixed number of hands, Hollywood: the match goes to the higher sum of what each
  game (column) stands at (finished ones with their bonuses, the one in progress without), by
  the difference of those sums;
- best of k: the games already won count and the game in progress goes to the player ahead in
  it; the match goes to the player with more games, by the sum of the differences of each game
  as it stands (never below 0);
- level points (or level games) are a draw: no winner, margin 0.

It reads a :class:`~engine.game.MatchResult` and computes; it stores and refuses nothing (a
finished match is the caller's to refuse).
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.game.match import MatchFormat, MatchResult
from engine.game.tally import GameResult

__all__ = ["StandingResult", "score_as_it_stands"]


@dataclass(frozen=True, slots=True)
class StandingResult:
    """A match scored as it stands.

    ``game_totals`` are the points of the game in progress (its hands only, no bonus);
    ``game_winner`` is who it goes to (None: level) by ``game_margin``; ``games_won`` count it;
    ``winner`` is the match's (None: a draw) by ``margin``.
    """

    game_totals: tuple[int, ...]
    game_winner: int | None
    game_margin: int
    games_won: tuple[int, ...]
    winner: int | None
    margin: int


def _leader(points: tuple[int, ...]) -> tuple[int | None, int]:
    """The one player ahead on ``points`` and by how much; (None, 0) when the lead is shared.

    >>> _leader((40, 25)), _leader((30, 30, 10))
    ((0, 15), (None, 0))
    """
    best = max(points)
    leaders = [p for p, value in enumerate(points) if value == best]
    if len(leaders) > 1:
        return None, 0
    return leaders[0], best - max(v for p, v in enumerate(points) if p != leaders[0])


def _stands_at(game: GameResult) -> tuple[int, ...]:
    return game.final_totals if game.finished else game.totals


def score_as_it_stands(result: MatchResult, fmt: MatchFormat) -> StandingResult:
    """Score ``result`` (a match not finished, as :func:`~engine.game.score_match` or
    :func:`~engine.game.score_hollywood` left it) as it stands.

    >>> from engine.game import ScoredHand, score_match
    >>> from engine.rules import find_rules
    >>> played = score_match(find_rules("standard"), MatchFormat(),
    ...                      [[ScoredHand(0, 30), ScoredHand(1, 12)]])
    >>> s = score_as_it_stands(played, MatchFormat())
    >>> s.winner, s.margin, s.game_totals
    (0, 18, (30, 12))
    """
    games = result.games
    players = len(result.games_won)
    current = games[-1] if games and not games[-1].finished else None
    game_totals = current.totals if current is not None else (0,) * players
    game_winner, game_margin = _leader(game_totals) if current is not None else (None, 0)
    won = list(result.games_won)
    if game_winner is not None and fmt.kind == "best_of":
        won[game_winner] += 1
    if fmt.kind == "best_of":
        winner, _ = _leader(tuple(won))
        margin = 0
        if winner is not None:
            margin = max(
                0,
                sum(
                    at[winner] - max(v for p, v in enumerate(at) if p != winner)
                    for at in map(_stands_at, games)
                ),
            )
    else:
        sums = tuple(sum(_stands_at(g)[p] for g in games) for p in range(players))
        winner, margin = _leader(sums)
    return StandingResult(
        game_totals=tuple(game_totals),
        game_winner=game_winner,
        game_margin=game_margin,
        games_won=tuple(won),
        winner=winner,
        margin=margin,
    )
