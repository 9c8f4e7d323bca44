"""Scoring tells tournaments about results through the organiser it registered, inside the
result's transaction: a refusal there leaves nothing stored and nothing bumped."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from django.core.exceptions import ImproperlyConfigured

from core.errors import ApplicationError
from scoring import organiser as seam
from scoring.models import HandSubmission
from tests.scoring.conftest import players, seat_api
from tournaments.models import Event
from tournaments.organiser import TournamentsOrganiser

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


class _Refusing(TournamentsOrganiser):
    """Does what tournaments does, then refuses: the caller's transaction must undo it all."""

    def results_changed(self, *, event: Any) -> None:
        super().results_changed(event=event)
        raise ApplicationError("refused by the organiser", status=409)


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
    make_event, director_api, refusing, django_capture_on_commit_callbacks
):
    event = make_event("standard", confirmation="opponent")
    m = director_api(event).start(event, players(event, 2))["id"]
    seq = Event.objects.get(pk=event.pk).results_seq
    with django_capture_on_commit_callbacks() as callbacks:
        seat_api(m, 0).hand(m, expect=409, **KNOCK)
    assert Event.objects.get(pk=event.pk).results_seq == seq
    assert not HandSubmission.objects.filter(hand__game__match_id=m).exists()
    assert callbacks == []


def test_without_an_organiser_scoring_refuses_to_start(monkeypatch):
    monkeypatch.setattr(seam, "_organiser", None)
    with pytest.raises(ImproperlyConfigured):
        seam.organiser()
