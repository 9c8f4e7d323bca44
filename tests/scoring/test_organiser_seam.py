"""Scoring tells tournaments about results through the organiser it registered, inside the
result's transaction: a refusal there leaves nothing stored and nothing bumped."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.errors import ApplicationError
from scoring import organiser as seam
from scoring.models import HandSubmission, Match
from tests.scoring.conftest import players, seat_api
from tournaments.models import Event
from tournaments.organiser import TournamentsOrganiser

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
GIN = {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90}


class _Refusing(TournamentsOrganiser):
    """Does what tournaments does, then refuses: the caller's transaction must undo it all."""

    def results_changed(self, *, event_id: int) -> None:
        super().results_changed(event_id=event_id)
        raise ApplicationError("refused by the organiser", status=409)


class _Counting(TournamentsOrganiser):
    """Does what tournaments does, and counts what scoring told it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Any]] = []

    def results_changed(self, *, event_id: int) -> None:
        self.told.append(("results_changed", event_id))
        super().results_changed(event_id=event_id)

    def match_finished(self, *, match: Match) -> None:
        self.told.append(("match_finished", match.pk))
        super().match_finished(match=match)


@pytest.fixture
def counting() -> Iterator[_Counting]:
    real = seam.organiser()
    told = _Counting()
    seam.organiser_register(organiser=told)
    try:
        yield told
    finally:
        seam.organiser_register(organiser=real)


@pytest.fixture
def refusing() -> Iterator[None]:
    real = seam.organiser()
    seam.organiser_register(organiser=_Refusing())
    try:
        yield
    finally:
        seam.organiser_register(organiser=real)


def test_tournaments_registers_itself_as_the_organiser():
    assert isinstance(seam.organiser(), TournamentsOrganiser)


def test_a_refusal_by_the_organiser_rolls_the_result_back(
    make_event, director_api_for, refusing, django_capture_on_commit_callbacks
):
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    seq = Event.objects.get(pk=event.pk).results_seq
    with django_capture_on_commit_callbacks() as callbacks:
        seat_api(m, 0).hand(m, expect=409, **KNOCK)
    assert Event.objects.get(pk=event.pk).results_seq == seq
    assert not HandSubmission.objects.filter(hand__game__match_id=m).exists()
    assert callbacks == []


def test_a_confirmation_that_finishes_the_match_tells_the_organiser_once(
    make_event, director_api_for, counting
):
    """One service call, one bump: confirming the hand that ends the game (and the match) tells
    the organiser once that the results changed, then once that the match finished."""
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    seq = Event.objects.get(pk=event.pk).results_seq
    entered = seat_api(m, 0).hand(m, **GIN)
    assert counting.told == [("results_changed", event.pk)]
    counting.told.clear()
    seat_api(m, 1).action(entered["id"], "confirm")
    assert counting.told == [("results_changed", event.pk), ("match_finished", m)]
    assert Event.objects.get(pk=event.pk).results_seq == seq + 2
    assert Match.objects.get(pk=m).status == Match.Status.FINISHED


def test_without_an_organiser_scoring_refuses_to_start(monkeypatch):
    monkeypatch.setattr(seam, "_organiser", None)
    with pytest.raises(ImproperlyConfigured):
        seam.organiser()
