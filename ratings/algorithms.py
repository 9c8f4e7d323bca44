"""Ratings: Glicko-2 for two-player games, Plackett-Luce (openskill) for 3-6 players and teams.

This module owns the arithmetic only. Which games count, when a rating period closes and where
ratings are stored are :mod:`ratings.services`' business. Pure: no Django, no app.

Glicko-2 follows Mark Glickman, "Example of the Glicko-2 system" (glicko2.pdf, 2013 revision),
steps 1-8, with the Illinois iteration for the new volatility (convergence tolerance 1e-6). A
rating period is the unit of update: everybody's new rating is computed from everybody's rating
at the start of the period, and a player with no game in the period only sees their deviation grow.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from openskill.models import PlackettLuce

__all__ = [
    "GLICKO2_SCALE",
    "GameOutcome",
    "Glicko2Rating",
    "RatedGame",
    "RatingState",
    "glicko2_steps",
    "glicko2_update",
    "rate_multiplayer",
    "rate_period",
]

GLICKO2_SCALE = 173.7178
"""The factor between the Glicko scale (1500 / 350) and the Glicko-2 internal scale."""

_EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Glicko2Rating:
    """A Glicko-2 rating on the familiar scale: new players start at 1500 / 350 / 0.06."""

    rating: float = 1500.0
    rd: float = 350.0
    volatility: float = 0.06


@dataclass(frozen=True, slots=True)
class GameOutcome:
    """One game of a period from a player's side: the opponent's rating and the score (1, ½, 0)."""

    opponent: Glicko2Rating
    score: float


@dataclass(frozen=True, slots=True)
class RatedGame:
    """One game between two players of a period; ``first_score`` is 1, 0.5 or 0."""

    first: int
    second: int
    first_score: float


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def glicko2_update(
    player: Glicko2Rating, outcomes: Sequence[GameOutcome], *, tau: float = 0.5
) -> Glicko2Rating:
    """The player's rating after one period; with no games only the deviation grows (step 6).

    ``tau`` limits how fast volatility may change; Glickman suggests 0.3 to 1.2, and 0.5 suits a
    club where form changes slowly.

    >>> round(glicko2_update(Glicko2Rating(1500, 50, 0.06), []).rd, 2)
    51.07
    """
    mu = (player.rating - 1500.0) / GLICKO2_SCALE
    phi = player.rd / GLICKO2_SCALE
    sigma = player.volatility
    if not outcomes:
        rd = math.sqrt(phi * phi + sigma * sigma) * GLICKO2_SCALE
        return Glicko2Rating(player.rating, rd, sigma)
    inv_v = 0.0
    total = 0.0
    for o in outcomes:
        mu_j = (o.opponent.rating - 1500.0) / GLICKO2_SCALE
        g = _g(o.opponent.rd / GLICKO2_SCALE)
        e = 1.0 / (1.0 + math.exp(-g * (mu - mu_j)))
        inv_v += g * g * e * (1.0 - e)
        total += g * (o.score - e)
    v = 1.0 / inv_v
    delta = v * total
    sigma_new = _new_volatility(phi, sigma, v, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * total
    return Glicko2Rating(mu_new * GLICKO2_SCALE + 1500.0, phi_new * GLICKO2_SCALE, sigma_new)


def glicko2_steps(
    player: Glicko2Rating, outcomes: Sequence[GameOutcome], *, tau: float = 0.5
) -> list[Glicko2Rating]:
    """The player's provisional rating after each game of a period, in the order given: step
    ``k`` is the period rated on the first ``k + 1`` games, so the last is the period's result
    (:func:`glicko2_update` on all of them). This is the rating history a player reads, one
    point per match that moved it.

    >>> a = Glicko2Rating(1500, 200, 0.06)
    >>> steps = glicko2_steps(a, [GameOutcome(Glicko2Rating(1400, 30), 1.0),
    ...                          GameOutcome(Glicko2Rating(1550, 100), 0.0)])
    >>> [round(s.rating) for s in steps]
    [1564, 1492]
    >>> steps[-1] == glicko2_update(a, [GameOutcome(Glicko2Rating(1400, 30), 1.0),
    ...                                 GameOutcome(Glicko2Rating(1550, 100), 0.0)])
    True
    """
    return [glicko2_update(player, outcomes[: k + 1], tau=tau) for k in range(len(outcomes))]


def _new_volatility(phi: float, sigma: float, v: float, delta: float, tau: float) -> float:
    """Step 5: solve for the new volatility with the Illinois variant of regula falsi."""
    a = math.log(sigma * sigma)
    d2, p2 = delta * delta, phi * phi

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (d2 - p2 - v - ex) / (2.0 * (p2 + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if d2 > p2 + v:
        big_b = math.log(d2 - p2 - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > _EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2.0)


def rate_period(
    ratings: Mapping[int, Glicko2Rating],
    games: Iterable[RatedGame],
    *,
    tau: float = 0.5,
) -> dict[int, Glicko2Rating]:
    """Close a rating period: every player in ``ratings`` or in ``games`` gets a new rating.

    Opponents are always taken at their start-of-period rating, as Glicko-2 requires, so the
    order of the games does not matter. A player missing from ``ratings`` starts as unrated.
    """
    outcomes: dict[int, list[GameOutcome]] = {pid: [] for pid in ratings}
    start = dict(ratings)
    for game in games:
        a = start.setdefault(game.first, Glicko2Rating())
        b = start.setdefault(game.second, Glicko2Rating())
        outcomes.setdefault(game.first, []).append(GameOutcome(b, game.first_score))
        outcomes.setdefault(game.second, []).append(GameOutcome(a, 1.0 - game.first_score))
    return {pid: glicko2_update(start[pid], games_, tau=tau) for pid, games_ in outcomes.items()}


@dataclass(frozen=True, slots=True)
class RatingState:
    """A Plackett-Luce (Weng-Lin) rating: skill ``mu`` and uncertainty ``sigma``.

    The defaults are openskill's (25 and 25/3). ``ordinal`` is the conservative display value.
    """

    mu: float = 25.0
    sigma: float = 25.0 / 3.0

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: a rating the player is very likely to be above, for leaderboards.

        >>> RatingState().ordinal
        0.0
        """
        return self.mu - 3.0 * self.sigma


def rate_multiplayer(
    teams: Sequence[Sequence[RatingState]], ranks: Sequence[int]
) -> tuple[tuple[RatingState, ...], ...]:
    """New ratings after one game of several players or partnerships, ``ranks`` 1 = winner.

    Each team is one seat of the game (a single player in a 3-6 player game, two partners in a
    partnership); equal ranks are ties. The Plackett-Luce model rates the whole finishing order at
    once, which Glicko-2 cannot.
    """
    if len(teams) != len(ranks):
        raise ValueError("one rank is needed for each team")
    if len(teams) < 2 or any(not team for team in teams):
        raise ValueError("a game needs at least two teams, each with at least one player")
    model = PlackettLuce()
    rated = model.rate(
        [[model.rating(mu=p.mu, sigma=p.sigma) for p in team] for team in teams],
        ranks=[float(r) for r in ranks],
    )
    return tuple(tuple(RatingState(p.mu, p.sigma) for p in team) for team in rated)
