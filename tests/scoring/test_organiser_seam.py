"""Scoring tells tournaments about results through the organiser it registered, inside the
result's transaction: a refusal there leaves nothing stored and nothing bumped."""

from __future__ import annotations

import inspect
from collections.abc import Iterator, Sequence
from typing import Any, cast

import pytest
from django.core.exceptions import ImproperlyConfigured
from django.db.models import F

from clubs.models import Player
from core.errors import ApplicationError
from scoring import organiser as seam
from scoring.models import HandSubmission, Match
from tests.clubs.factories import ClubFactory, PlayerFactory
from tests.scoring.conftest import players, seat_api
from tournaments.models import Event, Registration, Round
from tournaments.organiser import TournamentsOrganiser

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
GIN = {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90}


class _Refusing(TournamentsOrganiser):
    """Does what tournaments does, then refuses: the caller's transaction must undo it all."""

    def results_changed(self, *, event_id: int, counted: bool = True) -> None:
        super().results_changed(event_id=event_id, counted=counted)
        raise ApplicationError("refused by the organiser", status=409)


class _Counting(TournamentsOrganiser):
    """Does what tournaments does, and counts what scoring told it."""

    def __init__(self) -> None:
        self.told: list[tuple[str, Any]] = []
        self.counted: list[bool] = []
        self.entered: list[tuple[int, int | None]] = []

    def players_enter(
        self, *, match: Match, players: Sequence[Player], round_number: int | None
    ) -> None:
        super().players_enter(match=match, players=players, round_number=round_number)
        self.entered.append((match.event_id, match.round_id and round_number))

    def results_changed(self, *, event_id: int, counted: bool = True) -> None:
        self.told.append(("results_changed", event_id))
        self.counted.append(counted)
        super().results_changed(event_id=event_id, counted=counted)

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
    # An entry awaiting its answer, in a match still in play: nothing the standings count.
    assert counting.counted == [False]
    counting.told.clear()
    seat_api(m, 1).action(entered["id"], "confirm")
    assert counting.told == [("results_changed", event.pk), ("match_finished", m)]
    assert counting.counted == [False, True]
    assert Event.objects.get(pk=event.pk).results_seq == seq + 2
    assert Match.objects.get(pk=m).status == Match.Status.FINISHED


def test_a_hand_of_a_match_in_play_leaves_current_standings_current(
    make_event, director_api_for, django_capture_on_commit_callbacks
):
    """Standings count final results only: a hand entered and confirmed in a match still in
    play moves the results sequence (the live scores' version) and the standings' with it, so
    no rebuild is prompted; the hand that finishes the match is counted and prompts one."""
    event = make_event("standard", confirmation="opponent")
    m = director_api_for(event).start(event, players(event, 2))["id"]
    Event.objects.filter(pk=event.pk).update(standings_seq=F("results_seq"))
    with django_capture_on_commit_callbacks() as callbacks:
        entered = seat_api(m, 0).hand(m, **KNOCK)
        seat_api(m, 1).action(entered["id"], "confirm")
    stored = Event.objects.get(pk=event.pk)
    assert stored.standings_seq == stored.results_seq
    assert Match.objects.get(pk=m).status == Match.Status.PLAYING
    prompts = [c for c in callbacks if "standings" in getattr(c, "__qualname__", "")]
    assert prompts == []
    before = stored.results_seq
    with django_capture_on_commit_callbacks() as callbacks:
        entered = seat_api(m, 0).hand(m, **GIN)
        seat_api(m, 1).action(entered["id"], "confirm")
    stored = Event.objects.get(pk=event.pk)
    assert Match.objects.get(pk=m).status == Match.Status.FINISHED
    # the entry moved both; the confirmation that finished the match is counted: a rebuild due
    assert (stored.results_seq, stored.standings_seq) == (before + 2, before + 1)
    prompts = [c for c in callbacks if "standings" in getattr(c, "__qualname__", "")]
    assert len(prompts) == 1


def test_without_an_organiser_scoring_refuses_to_start(monkeypatch):
    monkeypatch.setattr(seam, "_organiser", None)
    with pytest.raises(ImproperlyConfigured):
        seam.organiser()


def test_the_organiser_is_read_only_through_the_terms_and_commands_otherwise():
    """Scoring asks the organiser for an event's terms and, for a match page, the clock of the
    match's round (a value: scoring keeps no clock) and nothing else: every other method is a
    command (or the one veto) returning nothing. A read added to the port fails here."""
    reads = {"terms_for_event", "terms_for", "clock_for"}
    commands = {
        "players_enter",
        "results_changed",
        "match_result_change_allowed",
        "match_result_changed",
        "match_finished",
    }
    methods = {
        name
        for name, value in vars(seam.Organiser).items()
        if callable(value) and not name.startswith("_")
    }
    assert methods == reads | commands
    returns = {
        name: inspect.signature(getattr(seam.Organiser, name)).return_annotation for name in methods
    }
    assert returns == dict.fromkeys(commands, "None") | {
        "terms_for_event": "EventTerms | None",
        "terms_for": "EventTerms",
        "clock_for": "RoundClock | None",
    }
    public = {name for name in vars(TournamentsOrganiser) if not name.startswith("_")}
    assert public == methods  # tournaments answers exactly the port, no more


def test_starting_a_match_files_it_in_its_round_through_the_organiser(
    make_event, director_api_for, counting
):
    """The round a match is started at is the organiser's to find: it is given the number with
    the players, files the match there, and refuses a round the event does not have (nothing
    stored)."""
    event = make_event("standard", confirmation="opponent")
    rnd = Round.objects.create(event=event, number=1)
    api = director_api_for(event)
    m = api.start(event, players(event, 2), round=1)["id"]
    assert Match.objects.get(pk=m).round_id == rnd.pk
    assert counting.entered == [(event.pk, 1)]
    before = Match.objects.count()
    api.start(event, players(event, 2), round=2, expect=400)
    assert Match.objects.count() == before


def test_a_player_of_another_club_sits_down_only_when_registered(make_event, director_api_for):
    event = make_event("standard", confirmation="opponent")
    guest = cast(Player, PlayerFactory(club=ClubFactory()))
    own = players(event, 1)[0]
    api = director_api_for(event)
    refused = api.start(event, [own, guest], expect=400)
    assert "is not a player of this event's club" in str(refused)
    assert not Match.objects.filter(event_id=event.pk).exists()
    assert not Registration.objects.filter(event=event, player=guest).exists()
    Registration.objects.create(event=event, player=guest)
    m = api.start(event, [own, guest])["id"]
    seated = set(Match.objects.get(pk=m).seats.values_list("player_id", flat=True))
    assert seated == {own.pk, guest.pk}
