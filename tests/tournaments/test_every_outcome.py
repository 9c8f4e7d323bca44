"""Standings, brackets and ratings from hands of every outcome, entered through the API: dead
hands, knocks, gins, big gins, undercuts, partnerships, three-player Gem and Rummy.

These read what the database returns for the stored verdicts, so they run on SQLite and on
PostgreSQL alike (CI runs the suite on both): a dead hand's winner must read as nobody on
either, never as the text 'null'.
"""

from __future__ import annotations

from typing import Any, cast

import pytest

from core.models import WorkDue
from engine.rules import find_rules
from ratings.models import Rating
from ratings.services import ratings_update_for_match
from scoring.models import HandSubmission, Match
from tests.scoring.conftest import client_for, players
from tests.scoring.factories import event_director
from tests.tournaments.factories import EventFactory
from tournaments.models import Event, Standing
from tournaments.selectors import event_bracket, event_standings
from tournaments.services import round_pair, standings_recompute

pytestmark = pytest.mark.django_db


def _event_factory(**fields: Any) -> Event:
    """An event from the factory, typed as the model it creates."""
    return cast(Event, EventFactory(**fields))


def _counts(knocker: int, outcome: str, k: int, d: int, **extra: Any) -> dict[str, Any]:
    return {
        "knocker": knocker,
        "outcome": outcome,
        "knocker_deadwood": k,
        "defender_deadwood": d,
        **extra,
    }


def _gem(knocker: int, die: int, k: int, *defenders: tuple[str, int]) -> dict[str, Any]:
    return {
        "knocker": knocker,
        "knock_limit": die,
        "knocker_deadwood": k,
        "defenders": [{"outcome": o, "defender_deadwood": d} for o, d in defenders],
    }


def _start(api: Any, event: Event, seated: list[Any], **data: Any) -> int:
    return int(api.start(event, seated, **data)["id"])


def _rated(match_ids: list[int]) -> None:
    for mid in match_ids:
        ratings_update_for_match(match_id=mid)


def test_a_club_night_of_every_outcome_has_standings_and_ratings():
    event = _event_factory(confirmation=Event.Confirmation.NONE)
    api = client_for(event_director(event))
    a, b, c, d, e, f, g = players(event, 7)

    # Standard: a dead hand, a knock, an undercut, then a gin that ends the game.
    std = _start(api, event, [a, b])
    api.hand(std, outcome="dead")
    api.hand(std, **_counts(0, "knock", 5, 25))  # a +20
    api.hand(std, **_counts(0, "undercut", 8, 6))  # b +27
    api.hand(std, **_counts(0, "gin", 0, 90))  # a +115: the game
    # Modern: a big gin, then a knock past 100.
    modern = _start(api, event, [c, d], rules="modern")
    api.hand(modern, **_counts(0, "big_gin", 0, 40))
    api.hand(modern, **_counts(0, "knock", 2, 40))
    # Partnership: a dead hand for both boards, then two boards that end the game.
    pair = _start(api, event, [a, c, e, f], rules="partnership", teams=[0, 1, 0, 1])
    api.hand(pair, outcome="dead")
    api.hand(
        pair,
        boards=[_counts(0, "gin", 0, 90, defender=1), _counts(2, "knock", 3, 60, defender=3)],
    )
    # Three-player Gem: a dead hand for all, then hands to 110.
    gem = _start(api, event, [b, d, g], rules="gem")
    api.hand(gem, outcome="dead")
    api.hand(gem, **_gem(0, 5, 4, ("knock", 30), ("undercut", 2)))
    api.hand(gem, **_gem(1, 6, 3, ("undercut", 2), ("knock", 50)))
    api.hand(gem, **_gem(0, 2, 1, ("knock", 61), ("knock", 10)))
    # Basic Rummy for three, three hands (one of them rummy).
    rummy = _start(
        api, event, [e, f, g], rules="rummy", match_format={"kind": "fixed_hands", "hands": 3}
    )
    api.hand(rummy, went_out=0, rummy=True, leftovers={"1": "KS 5H", "2": 7})
    api.hand(rummy, went_out=2, leftovers={"0": 12, "1": "QH 4C"})
    api.hand(rummy, went_out=0, leftovers={"1": 9, "2": 21})

    ids = [std, modern, pair, gem, rummy]
    assert set(Match.objects.filter(pk__in=ids).values_list("status", flat=True)) == {"finished"}
    stored = HandSubmission.objects.filter(hand__game__match__event=event)
    outcomes = set(stored.values_list("outcome", flat=True))
    assert {"dead", "knock", "undercut", "gin", "big_gin", "rummy", "out"} <= outcomes
    # A dead hand has no winner, on every database.
    dead = stored.filter(outcome="dead")
    assert dead.count() == 3
    assert set(dead.values_list("winner_position", "winner_team")) == {(None, None)}
    # The columns say exactly what the stored verdicts say.
    for sub in stored:
        assert HandSubmission.verdict_columns(sub.result) == {
            "winner_position": sub.winner_position,
            "winner_team": sub.winner_team,
            "outcome": sub.outcome,
        }

    seq = standings_recompute(event=event)
    st = event_standings(event=event)
    assert (st.state, st.error, st.as_of) == ("current", "", seq)
    rows = {s.player_id: s.values for s in Standing.objects.filter(event=event)}
    assert set(rows) == {p.pk for p in (a, b, c, d, e, f, g)}
    # a: the standard game (2 hands won: knock and gin; 1 gin) and the partnership's winning team
    # (both boards' hands are one team hand: the partnership hand).
    team_hand = stored.filter(hand__game__match_id=pair).exclude(outcome="dead").get()
    assert (team_hand.winner_team, team_hand.winner_position) == (0, None)
    assert rows[a.pk]["hands_won"] == 2 + 1
    assert rows[a.pk]["gins"] == 1 + (team_hand.outcome in ("gin", "big_gin"))
    assert rows[e.pk]["hands_won"] == 1 + 2  # the team hand with a; two Rummy hands out
    assert rows[b.pk]["hands_won"] >= 1  # the undercut, and any Gem hand won
    assert rows[c.pk]["gins"] == 1  # the big gin counts as a gin
    assert rows[c.pk]["hands_won"] == 2
    assert sum(v["won"] for v in rows.values()) == 4 + 2  # a winner a table; two partners
    assert rows[a.pk]["won"] == 2
    rummy_winner = Match.objects.get(pk=rummy).winner_id
    assert rows[e.pk]["won"] == 1 + (rummy_winner == e.pk)  # a's partner

    _rated(ids)
    assert WorkDue.objects.filter(key__in=ids).count() == len(ids)  # recorded at finish
    kinds = dict(Rating.objects.values_list("player_id", "kind"))
    assert kinds[a.pk] in ("glicko2", "openskill")
    assert {r.kind for r in Rating.objects.all()} == {"glicko2", "openskill"}
    assert Rating.objects.filter(kind="openskill").count() == 7  # everyone sat at a 3-4 table
    assert Rating.objects.filter(kind="glicko2").count() == 4  # the two-player games


def test_a_bracket_advances_through_dead_hands_and_gins():
    event = _event_factory(
        kind=Event.Kind.SINGLE_ELIMINATION,
        confirmation="none",
        rules=find_rules("modern").to_dict(),
    )
    director = event_director(event)
    api = client_for(director)
    entrants = players(event, 4)
    from tournaments.services import registration_create

    for k, p in enumerate(entrants, start=1):
        registration_create(event=event, player=p, seed=k, checked_in=True)
    event.status = Event.Status.REGISTRATION
    event.save(update_fields=["status"])
    round_pair(event=event)
    first = list(Match.objects.filter(event=event, status=Match.Status.SCHEDULED))
    assert len(first) == 2
    for m in first:
        api.hand(m.pk, outcome="dead")
        api.hand(m.pk, **_counts(1, "big_gin" if m.pk == first[0].pk else "gin", 0, 90))
    final = Match.objects.filter(event=event, status=Match.Status.SCHEDULED).get()
    api.hand(final.pk, outcome="dead")
    api.hand(final.pk, **_counts(0, "undercut", 9, 2))
    api.hand(final.pk, **_counts(0, "gin", 0, 80))
    event.refresh_from_db()
    bracket = event_bracket(event=event)
    assert bracket["champion"] is not None
    standings_recompute(event=event)
    assert event_standings(event=event).state == "current"
    _rated([m.pk for m in first] + [final.pk])
    assert Rating.objects.filter(kind="glicko2").count() == 4


def test_the_migration_fills_the_winner_columns_of_stored_verdicts():
    """Verdicts stored before the columns existed get them from their JSON, dead hands included."""
    import importlib

    from django.apps import apps

    migration = importlib.import_module("scoring.migrations.0004_hand_submission_winner_columns")
    event = _event_factory(confirmation=Event.Confirmation.NONE)
    api = client_for(event_director(event))
    m = _start(api, event, players(event, 2))
    api.hand(m, outcome="dead")
    api.hand(m, **_counts(1, "undercut", 8, 6))
    stored = HandSubmission.objects.filter(hand__game__match_id=m).order_by("pk")
    expected = list(stored.values_list("winner_position", "winner_team", "outcome"))
    stored.update(winner_position=None, winner_team=None, outcome="")
    migration.fill_winner_columns(apps, None)
    assert list(stored.values_list("winner_position", "winner_team", "outcome")) == expected
    assert expected == [(None, None, "dead"), (0, None, "undercut")]  # seat 0 undercut
