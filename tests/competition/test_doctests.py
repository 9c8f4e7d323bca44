"""Run the doctests of every module, so the examples in the docstrings stay true."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "bracket_layout",
    "elimination",
    "matching",
    "round_robin",
    "swiss.model",
    "swiss.pairing",
    "tiebreaks",
]


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"competition.{name}")
    failures, _ = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert failures == 0
