"""Run the docstring examples of the engine core as part of the normal suite."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "engine",
    "engine.errors",
    "engine.cards",
    "engine.melds",
    "engine.deadwood",
    "engine.arrange",
    "engine.discard",
    "engine.layoff",
    "engine.rules.ruleset",
    "engine.scoring",
    "engine.scoring.outcome",
    "engine.scoring.two_player",
    "engine.scoring.by_cards",
    "engine.scoring.claims",
    "engine.scoring.partnership",
    "engine.scoring.gem_three",
    "engine.game.hands",
    "engine.game.seats",
    "engine.game.tally",
    "engine.game.hollywood",
    "engine.game.match",
    "engine.gem.deck",
    "engine.gem.layoffs",
    "engine.rummy",
    "engine.cli",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0
    assert result.failed == 0
