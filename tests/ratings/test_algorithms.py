"""Glicko-2 against Glickman's worked example, rating periods, and multiplayer ratings."""

from __future__ import annotations

import doctest

import pytest

from ratings import algorithms
from ratings.algorithms import (
    GameOutcome,
    Glicko2Rating,
    RatedGame,
    RatingState,
    glicko2_update,
    rate_multiplayer,
    rate_period,
)


def test_glickman_paper_example() -> None:
    # Mark Glickman, "Example of the Glicko-2 system", section "Example calculation":
    # 1500/200/0.06 beats 1400/30, loses to 1550/100 and 1700/300 with tau = 0.5.
    player = Glicko2Rating(1500, 200, 0.06)
    games = [
        GameOutcome(Glicko2Rating(1400, 30), 1),
        GameOutcome(Glicko2Rating(1550, 100), 0),
        GameOutcome(Glicko2Rating(1700, 300), 0),
    ]
    new = glicko2_update(player, games, tau=0.5)
    assert new.rating == pytest.approx(1464.06, abs=0.01)
    assert new.rd == pytest.approx(151.52, abs=0.01)
    assert new.volatility == pytest.approx(0.05999, abs=1e-5)


def test_no_games_only_widens_the_deviation() -> None:
    new = glicko2_update(Glicko2Rating(1600, 100, 0.06), [])
    assert new.rating == 1600
    assert new.volatility == 0.06
    assert new.rd > 100


def test_big_surprise_takes_the_other_volatility_branch() -> None:
    new = glicko2_update(Glicko2Rating(1500, 350, 0.06), [GameOutcome(Glicko2Rating(2500, 30), 1)])
    assert new.rating > 1800
    assert new.volatility > 0.06


def test_rate_period_uses_start_ratings_and_touches_everyone() -> None:
    ratings = {1: Glicko2Rating(1500, 200, 0.06), 2: Glicko2Rating(1500, 200, 0.06)}
    games = [RatedGame(1, 2, 1.0), RatedGame(2, 3, 0.5)]
    new = rate_period({**ratings, 4: Glicko2Rating()}, games)
    assert set(new) == {1, 2, 3, 4}
    assert new[1].rating > 1500 > new[2].rating
    assert new[4].rating == 1500
    assert new[4].rd > 350
    assert rate_period(ratings, list(reversed(games))) == rate_period(ratings, games)


def test_rate_multiplayer_orders_by_rank() -> None:
    teams = [[RatingState()], [RatingState()], [RatingState()]]
    new = rate_multiplayer(teams, [1, 2, 3])
    mus = [team[0].mu for team in new]
    assert mus[0] > mus[1] > mus[2]
    pairs = rate_multiplayer([[RatingState(), RatingState()], [RatingState(30, 5)] * 2], [2, 1])
    assert pairs[0][0].mu < 25
    assert pairs[1][0].mu > 30
    assert RatingState(25, 5).ordinal == 10
    with pytest.raises(ValueError):
        rate_multiplayer(teams, [1, 2])
    with pytest.raises(ValueError):
        rate_multiplayer([[RatingState()], []], [1, 2])


def test_extreme_volatility_still_converges() -> None:
    # Twenty draws against an equal, well-known opponent: nothing surprising happened, so an
    # absurd volatility of 5 must come down; this walks the bracketing loop of step 5.
    games = [GameOutcome(Glicko2Rating(1500, 30), 0.5)] * 20
    new = glicko2_update(Glicko2Rating(1500, 30, 5.0), games, tau=3.0)
    assert new.rating == pytest.approx(1500)
    assert 0.06 < new.volatility < 5.0


def test_doctests() -> None:
    """The examples in the module's docstrings stay true (moved from the algorithms' doctests)."""
    failures, _ = doctest.testmod(algorithms, optionflags=doctest.ELLIPSIS)
    assert failures == 0
