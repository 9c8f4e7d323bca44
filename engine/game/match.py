"""Matches: how many games make one (:class:`MatchFormat`) and scoring the games of a match.

Part of :mod:`engine.game`. Best-of-k matches: ``k`` is odd; the first dealer of each later game
is the player who would have dealt the next hand of the game before.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from engine.errors import RuleError, ScoreError, gettext_noop
from engine.game.hands import ScoredHand
from engine.game.hollywood import score_hollywood
from engine.game.seats import default_players
from engine.game.tally import GameResult, count_games_won, score_game
from engine.rules import RuleSet

__all__ = ["MATCH_KINDS", "MatchFormat", "MatchResult", "score_match"]

MATCH_KINDS: Final = ("single_game", "best_of", "hollywood", "fixed_hands")


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How many games make a match: ``single_game``, ``best_of`` ``games`` (odd),
    ``hollywood`` (one stream, the rule set's Hollywood games), ``fixed_hands`` (``hands`` hands).

    >>> MatchFormat("best_of", games=4)
    Traceback (most recent call last):
    ...
    engine.errors.RuleError: best_of needs an odd number of games (1, 3, 5 ...), not 4
    """

    kind: str = "single_game"
    games: int = 1
    hands: int | None = None

    def __post_init__(self) -> None:
        if self.kind not in MATCH_KINDS:
            raise RuleError(
                gettext_noop("Match format must be one of {kinds}, not {kind}"),
                kinds=", ".join(MATCH_KINDS),
                kind=repr(self.kind),
            )
        if self.kind == "best_of" and (self.games < 1 or self.games % 2 == 0):
            raise RuleError(
                gettext_noop("best_of needs an odd number of games (1, 3, 5 ...), not {games}"),
                games=self.games,
            )
        if self.kind != "best_of" and self.games != 1:
            raise RuleError(
                gettext_noop("Only best_of plays more than one game stream, not {kind}"),
                kind=self.kind,
            )
        if (self.kind == "fixed_hands") != (self.hands is not None):
            raise RuleError(
                gettext_noop("fixed_hands needs a number of hands, and only fixed_hands takes one")
            )
        if self.hands is not None and self.hands < 1:
            raise RuleError(gettext_noop("Hands must be at least 1, not {hands}"), hands=self.hands)


@dataclass(frozen=True, slots=True)
class MatchResult:
    """Games of a match, games won by each player, and the winner once decided."""

    games: tuple[GameResult, ...]
    games_won: tuple[int, ...]
    winner: int | None
    finished: bool


def score_match(
    rules: RuleSet,
    match: MatchFormat,
    games: Sequence[Sequence[ScoredHand]],
    *,
    players: int | None = None,
    first_dealer: int = 0,
) -> MatchResult:
    """Score a match: a list of games, each a list of hands (one stream for Hollywood).

    >>> from engine.rules import find_rules
    >>> m = score_match(find_rules("standard"), MatchFormat("best_of", games=3),
    ...                 [[ScoredHand(0, 100)], [ScoredHand(0, 100)]])
    >>> m.games_won, m.winner, m.finished
    ((2, 0), 0, True)
    """
    streams = 1 if match.kind != "best_of" else match.games
    if len(games) > streams:
        raise ScoreError(
            gettext_noop("A {kind} match has at most {streams} game(s), not {games}"),
            kind=match.kind,
            streams=streams,
            games=len(games),
        )
    if match.kind == "hollywood":
        holly = score_hollywood(rules, games[0] if games else (), first_dealer=first_dealer)
        return MatchResult(holly.games, holly.games_won, holly.winner, holly.finished)
    if match.kind == "fixed_hands":
        rules = rules.with_overrides(target=None, max_hands=match.hands)
    results: list[GameResult] = []
    dealer = first_dealer
    need = match.games // 2 + 1
    for number, hands in enumerate(games, start=1):
        if results and not results[-1].finished:
            raise ScoreError(
                gettext_noop("Game {number} was started before game {previous} ended"),
                number=number,
                previous=number - 1,
            )
        so_far = count_games_won(results, results[0].players if results else 0)
        if so_far and max(so_far) >= need:
            raise ScoreError(
                gettext_noop("Game {number} was entered after the match was decided"),
                number=number,
            )
        game = score_game(rules, hands, players=players, first_dealer=dealer)
        results.append(game)
        dealer = game.next_dealer
    n = results[0].players if results else default_players(rules, players)
    won = count_games_won(results, n)
    decided = max(won) >= need
    winner = won.index(max(won)) if decided else None
    return MatchResult(tuple(results), won, winner, decided)
