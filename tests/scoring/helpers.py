"""Helpers the scoring page tests share: a two-player match, its seats' links, actors and
clients, and the entries they make (the API tests' helpers are fixtures in ``conftest.py``)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.rules import find_rules
from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit, match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.scoring.pages import Client
from tests.tournaments.factories import EventFactory


def page_match(
    preset: str = "standard",
    confirmation: str = "opponent",
    *,
    names: Sequence[str] = ("Alice", "Bob"),
    **kwargs: Any,
) -> Match:
    """A match of an event played to the rule preset ``preset``, its players named ``names``
    (seated in that order); ``kwargs`` go to the match factory."""
    event = EventFactory(rules=find_rules(preset).to_dict(), confirmation=confirmation)
    players = [PlayerFactory(club=event.club, name=n) for n in names]
    match: Match = MatchFactory.create(event=event, players=players, **kwargs)
    return match


def live_match(confirmation: str = "opponent") -> Match:
    """The live-page tests' match: standard rules, Cleo in seat 0 and Dee in seat 1."""
    return page_match(confirmation=confirmation, names=("Cleo", "Dee"))


def match_url(match: Match, position: int | None = -1, suffix: str = "") -> str:
    """The match page's URL (plus ``suffix``), with the private link of seat ``position``;
    -1: no link (the page as a director or a passer-by opens it)."""
    base = f"/matches/{match.pk}/{suffix}"
    if position == -1:
        return base
    return f"{base}?k={match_link_token(match=match, position=position)}"


def seat_actor(match: Match, position: int) -> Actor:
    """Whoever holds seat ``position``'s private link."""
    return Actor(token=match_link_token(match=match, position=position))


def seat_client(match: Match, position: int) -> Client:
    """A page client that opened seat ``position``'s private link (its seat session is set)."""
    client = Client()
    client.get(f"/matches/{match.pk}/?k={match_link_token(match=match, position=position)}")
    return client


def knock_enter(match: Match, position: int = 1, knocker: int = 1) -> HandSubmission:
    """Seat ``position`` enters a knock by seat ``knocker``: 5 deadwood against 25."""
    entry = entry_from_dict(
        {"knocker": knocker, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    )
    return hand_submit(match=match, actor=seat_actor(match, position), entry=entry)


def gem_three_entry(
    knocker: int, die: int, k: int, *defenders: tuple[str, int], **extra: Any
) -> dict[str, Any]:
    """A three-player Gem Rummy hand by counts: the knocker's seat, the die, the knocker's
    deadwood, and each defender's (outcome, deadwood) in seat order."""
    return {
        "knocker": knocker,
        "knock_limit": die,
        "knocker_deadwood": k,
        "defenders": [{"outcome": o, "defender_deadwood": d} for o, d in defenders],
        **extra,
    }
