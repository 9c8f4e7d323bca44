"""The reads the pages use: live scores of a whole round in a bounded number of queries, and the
club, event and player selectors behind the event, club and player pages; the beat schedule."""

from __future__ import annotations

import pickle

import pytest
from django.conf import settings
from django.core.cache import caches

from clubs.services import player_update
from core import drawn
from core.live import LOCAL_CACHE
from ratings.models import Rating
from ratings.selectors import club_ratings
from scoring.models import Match
from scoring.permissions import Actor
from scoring.selectors import matches_live_scores, matches_live_states, round_live_scores
from scoring.services import entry_from_dict, hand_submit, match_start
from tournaments.models import Event, Registration
from tournaments.selectors import (
    event_active_players,
    event_forbidden_pairings,
    event_matches,
)
from tournaments.selectors.terms import event_terms
from tournaments.services import (
    event_create,
    forbidden_pairing_create,
    registration_create,
    registration_drop,
    round_pair,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def round_of_20(club, director, make_players):
    event = event_create(
        club_id=club.pk,
        name="Big Swiss",
        kind=Event.Kind.SWISS,
        confirmation=Event.Confirmation.NONE,
        rounds_planned=3,
        user=director,
    )
    for p in make_players(40):
        registration_create(event=event, player=p, checked_in=True)
    rnd = round_pair(event=event)
    actor = Actor(user=director)
    for k, match in enumerate(Match.objects.filter(round=rnd).order_by("table_number")):
        entry = {
            "knocker": k % 2,
            "outcome": "knock",
            "knocker_deadwood": 5,
            "defender_deadwood": 25,
        }
        hand_submit(match=match, actor=actor, entry=entry_from_dict(entry))
    return event, rnd


def test_round_live_scores_reads_every_table_at_once(round_of_20, django_assert_max_num_queries):
    _event, rnd = round_of_20
    with django_assert_max_num_queries(8):
        scores = round_live_scores(rnd=rnd)
    assert len(scores) == 20
    assert all(sorted(s["totals"]) == [0, 20] for s in scores.values())


def test_a_live_score_kept_by_version_is_plain_data_and_labelled_in_the_readers_language(
    round_of_20, client
):
    """What core.live.by_version keeps (pickled) holds no lazy translation: one unpickled is a
    class built anew each time (a twentieth of gunicorn's CPU at a 100-table open). The label
    is added at each reading, in the reader's language, even from a score kept in another."""
    event, rnd = round_of_20
    states = matches_live_states(match_ids=[m.pk for m in rnd.matches.all()])
    assert len(states) == 20
    assert all("status_label" not in s for s in states.values())
    assert pickle.loads(pickle.dumps(states)) == states
    assert {type(v) for s in states.values() for v in s.values()} <= {
        int,
        str,
        bool,
        list,
        dict,
        type(None),
    }
    english = client.get(f"/events/{event.pk}/live/").content.decode()
    korean = client.get(f"/events/{event.pk}/live/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert ">playing</span>" in english
    assert ">진행 중</span>" in korean


def test_the_event_regions_draw_again_only_the_rows_that_changed(
    round_of_20, client, director, drawn_renders
):
    """Each table's and standing's row is drawn once per content (core.drawn): after a hand at
    one table and a player renamed at another, the next drawing of the event's regions draws
    those two tables again and no other, shows both changes, and is what a drawing of every
    row from scratch gives; another language draws its own rows."""
    event, rnd = round_of_20
    calls = drawn_renders
    row = "tournaments/_pairing_row.html"
    url = f"/events/{event.pk}/live/"
    client.get(url)
    assert calls.count(row) == 20
    calls.clear()
    first, second = Match.objects.filter(round=rnd).order_by("table_number")[:2]
    entry = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 2, "defender_deadwood": 40}
    hand_submit(match=first, actor=Actor(user=director), entry=entry_from_dict(entry))
    renamed = second.seats.order_by("position").first().player
    player_update(player=renamed, name="Renamed Player", is_guest=renamed.is_guest)
    html = client.get(url).content.decode()
    assert calls.count(row) == 2
    assert "Renamed Player" in html
    assert html.count("58 – 0") + html.count("0 – 58") == 1  # 20 + 38 at the first table
    drawn.forget()
    for kept in (caches[LOCAL_CACHE], caches["default"]):
        kept.clear()  # the regions kept by version, too: everything drawn anew
    cache_free = client.get(url)
    assert calls.count(row) == 2 + 20
    assert cache_free.content.decode() == html
    calls.clear()
    korean = client.get(url, HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert calls.count(row) == 20
    assert ">진행 중</span>" in korean


def test_a_finished_tables_live_score_is_its_final_total(club, director, make_players):
    # Found on a walked club night: the event page showed a finished table as "21 – 132" (the
    # points) while its score sheet and the standings' margin read 46 – 282 (bonuses added).
    event = event_create(
        club_id=club.pk,
        name="Night",
        kind=Event.Kind.CLUB_NIGHT,
        confirmation=Event.Confirmation.NONE,
        user=director,
    )
    a, b = make_players(2)
    for p in (a, b):
        registration_create(event=event, player=p, checked_in=True)
    actor = Actor(user=director)
    match = match_start(actor=actor, event=event_terms(event=event), players=[a.pk, b.pk])
    for entry in (
        {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 26},
        {"knocker": 0, "outcome": "undercut", "knocker_deadwood": 8, "defender_deadwood": 6},
        {"knocker": 1, "outcome": "gin", "defender_deadwood": 80},
    ):
        hand_submit(match=match, actor=actor, entry=entry_from_dict(entry))
    [score] = matches_live_scores(match_ids=[match.pk]).values()
    # seat 0: 21 + one box of 25 = 46; seat 1: 27 + 105 = 132, + game 100 + two boxes 50 = 282
    assert score["totals"] == [46, 282]
    assert score["winner_name"] == b.name


def test_the_event_page_of_a_20_table_round_has_bounded_queries(
    round_of_20, client, django_assert_max_num_queries
):
    event, _rnd = round_of_20
    with django_assert_max_num_queries(25):  # 13 today; one table each would be 120+
        page = client.get(f"/events/{event.pk}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert html.count("20 – 0") + html.count("0 – 20") == 20  # every table's live total


def test_event_and_club_selectors(club, director, make_players):
    a, b, c = make_players(3)
    night = event_create(club_id=club.pk, name="Night", kind=Event.Kind.CLUB_NIGHT, user=director)
    assert set(event_active_players(event=night)) == {a, b, c}  # nobody registered: the club
    for p in (a, b, c):
        registration_create(event=night, player=p)
    registration_drop(registration=Registration.objects.get(event=night, player=c))
    assert list(event_active_players(event=night)) == sorted([a, b], key=lambda p: p.name)
    forbidden_pairing_create(event=night, player_a=b, player_b=a)
    pair = event_forbidden_pairings(event=night).get()
    assert {pair.player_a, pair.player_b} == {a, b}
    assert pair.hard
    actor = Actor(user=director)
    first = match_start(actor=actor, event=event_terms(event=night), players=[a.pk, b.pk])
    assert list(event_matches(event=night, open_only=True)) == [first]
    Match.objects.filter(pk=first.pk).update(status=Match.Status.FINISHED)
    assert list(event_matches(event=night, open_only=True)) == []
    assert list(event_matches(event=night)) == [first]
    Rating.objects.create(club=club, player=a, kind="glicko2", rating=1600, deviation=80)
    Rating.objects.create(club=club, player=b, kind="openskill", rating=25, deviation=8)
    assert {pid: r.rating for pid, r in club_ratings(club=club).items()} == {a.pk: 1600}


def test_the_club_and_player_pages_use_the_selectors(club, make_players, client):
    a = make_players(1)[0]
    Rating.objects.create(club=club, player=a, kind="glicko2", rating=1612, deviation=80)
    assert "1612" in client.get(f"/clubs/{club.slug}/").content.decode()
    assert client.get(f"/players/{a.pk}/").status_code == 200


def test_beat_runs_the_standings_sweep():
    sweeps = [
        entry
        for entry in settings.CELERY_BEAT_SCHEDULE.values()
        if entry["task"] == "tournaments.standings_sweep"
    ]
    assert len(sweeps) == 1
    assert float(sweeps[0]["schedule"]) <= 300
