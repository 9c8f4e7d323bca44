"""The director's console: its selector (table states, order, counts, what can be paired), the
forced pairing with its reason in the event log, the API and the page."""

from __future__ import annotations

import pytest

from clubs.models import ClubRole
from core.errors import ApplicationError
from scoring.models import Game, Hand, HandSubmission, Match
from tests.clubs.factories import ClubRoleFactory, UserFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import swiss_event
from tests.tournaments.helpers import open_matches, play, seated
from tournaments.models import Event, EventLog, Round
from tournaments.selectors import event_console
from tournaments.services import round_pair

pytestmark = pytest.mark.django_db


def _entry(match: Match, status: str) -> HandSubmission:
    """An open entry of the match's first hand (pending or disputed), as scoring stores it."""
    game, _ = Game.objects.get_or_create(match=match, number=1)
    hand = Hand.objects.create(game=game, number=1)
    result = {"winner": 0, "outcome": "knock", "points": 20}
    return HandSubmission.objects.create(
        hand=hand,
        version=1,
        entry=HandSubmission.Entry.COUNTS,
        payload={"knocker": 0, "knocker_deadwood": 5, "defender_deadwood": 25},
        result=result,
        **HandSubmission.verdict_columns(result),
        status=status,
    )


def _director(event: Event):
    return ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user


@pytest.fixture
def swiss8():
    event = swiss_event(8)
    round_pair(event=event)
    return event


def test_a_fresh_round_lists_every_table_playing_and_cannot_be_paired(swiss8):
    console = event_console(event=swiss8)
    assert console.round is not None
    assert console.round.number == 1
    assert [t.state for t in console.tables] == ["playing"] * 4
    assert [t.table_number for t in console.tables] == [1, 2, 3, 4]
    assert (console.finished, console.total, console.missing) == (0, 4, 4)
    assert not console.can_pair
    assert console.can_force
    assert console.blocked == "results_missing"
    assert console.next_round == 2


def test_disputed_then_waiting_then_playing_then_finished(swiss8):
    t1, t2, _t3, t4 = open_matches(swiss8.pk, 1)
    play(t1, winner=seated(t1)[0])
    waiting = _entry(t2, HandSubmission.Status.PENDING)
    disputed = _entry(t4, HandSubmission.Status.DISPUTED)
    console = event_console(event=swiss8)
    assert [(t.table_number, t.state) for t in console.tables] == [
        (4, "disputed"),
        (2, "waiting"),
        (3, "playing"),
        (1, "finished"),
    ]
    assert console.tables[0].open_entry == disputed.pk
    assert console.tables[1].open_entry == waiting.pk
    assert console.tables[3].winner is not None
    assert (console.finished, console.total) == (1, 4)


def test_a_complete_round_can_be_paired_and_earlier_rounds_stay_reachable(swiss8):
    for m in open_matches(swiss8.pk, 1):
        play(m, winner=seated(m)[0])
    console = event_console(event=swiss8)
    assert console.can_pair
    assert not console.can_force
    assert console.blocked == ""
    round_pair(event=swiss8)
    now = event_console(event=swiss8)
    assert now.round.number == 2
    assert now.is_latest
    assert [(r.number, r.finished, r.tables) for r in now.rounds] == [(1, 4, 4), (2, 0, 4)]
    earlier = event_console(event=swiss8, round_number=1)
    assert not earlier.is_latest
    assert [t.state for t in earlier.tables] == ["finished"] * 4
    with pytest.raises(Round.DoesNotExist):
        event_console(event=swiss8, round_number=9)


def test_the_last_planned_round_blocks_pairing(swiss8):
    for number in (1, 2, 3):
        for m in open_matches(swiss8.pk, number):
            play(m, winner=seated(m)[0])
        if number < 3:
            round_pair(event=swiss8)
    assert event_console(event=swiss8).blocked == "all_rounds_paired"


def test_pairing_before_the_round_is_complete_is_refused_without_force(swiss8):
    with pytest.raises(ApplicationError) as refused:
        round_pair(event=swiss8)
    assert refused.value.status == 409
    with pytest.raises(ApplicationError) as no_reason:
        round_pair(event=swiss8, force=True, reason="   ")
    assert no_reason.value.field == "reason"
    assert Round.objects.filter(event=swiss8).count() == 1
    assert not EventLog.objects.exists()


def test_a_forced_round_keeps_its_reason_and_the_open_table(swiss8):
    matches = open_matches(swiss8.pk, 1)
    for m in matches[:3]:
        play(m, winner=seated(m)[0])
    slow = matches[3]
    user = _director(swiss8)
    rnd = round_pair(event=swiss8, user=user, force=True, reason="Table 4 is still playing")
    assert rnd.number == 2
    assert rnd.status == Round.Status.PAIRED
    entry = EventLog.objects.get(event=swiss8)
    assert (entry.kind, entry.round_number, entry.reason, entry.user) == (
        EventLog.Kind.ROUND_FORCED,
        2,
        "Table 4 is still playing",
        user,
    )
    assert entry.details == {"open_tables": [4]}
    # The slow pair are not paired together again, and their match still counts when it ends.
    a, b = seated(slow)
    again = {frozenset(seated(m)) for m in open_matches(swiss8.pk, 2)}
    assert frozenset((a, b)) not in again
    play(slow, winner=a)
    assert Round.objects.get(event=swiss8, number=1).status == Round.Status.FINISHED
    assert event_console(event=swiss8).log[0].reason == "Table 4 is still playing"


def test_a_club_night_console_lists_its_tables_without_rounds():
    event = swiss_event(2)
    Event.objects.filter(pk=event.pk).update(kind=Event.Kind.CLUB_NIGHT)
    event.refresh_from_db()
    console = event_console(event=event)
    assert console.rounds == ()
    assert console.blocked == "no_rounds"
    assert not console.can_pair


# -- API --------------------------------------------------------------------------------------


def test_api_console_for_directors_only(swiss8, api):
    t1 = open_matches(swiss8.pk, 1)[0]
    _entry(t1, HandSubmission.Status.DISPUTED)
    assert api.get(f"/api/events/{swiss8.pk}/console/").status_code == 403
    api.force_authenticate(UserFactory())
    assert api.get(f"/api/events/{swiss8.pk}/console/").status_code == 403
    api.force_authenticate(_director(swiss8))
    body = api.get(f"/api/events/{swiss8.pk}/console/").json()
    assert body["round"] == 1
    assert body["finished"] == 0
    assert body["total"] == 4
    assert body["tables"][0]["state"] == "disputed"
    assert body["tables"][0]["table_number"] == 1
    assert body["can_pair"] is False
    assert body["can_force"] is True
    assert body["blocked"] == "results_missing"
    assert api.get(f"/api/events/{swiss8.pk}/console/?round=7").status_code == 404
    assert api.get(f"/api/events/{swiss8.pk}/console/?round=x").status_code == 404


def test_api_force_needs_a_reason_and_is_logged(swiss8, api):
    api.force_authenticate(_director(swiss8))
    url = f"/api/events/{swiss8.pk}/rounds/"
    assert api.post(url, format="json").status_code == 409
    refused = api.post(url, {"force": True}, format="json")
    assert refused.status_code == 400
    assert refused.json()["field"] == "reason"
    forced = api.post(url, {"force": True, "reason": "Late start"}, format="json")
    assert forced.status_code == 201, forced.json()
    assert forced.json()["number"] == 2
    log = api.get(f"/api/events/{swiss8.pk}/console/").json()["log"]
    assert [(e["kind"], e["round_number"], e["reason"]) for e in log] == [
        ("round_forced", 2, "Late start")
    ]


# -- page -------------------------------------------------------------------------------------


def test_console_page_lists_tables_and_offers_force_with_a_reason(swiss8):
    user = _director(swiss8)
    client = page_client(user)
    page = client.get(f"/events/{swiss8.pk}/console/")
    html = page.content.decode()
    assert page.status_code == 200
    assert "0 of 4 tables finished" in html
    assert 'id="force-pair"' in html
    assert "Pair round 2</button>" not in html
    back = client.post(f"/events/{swiss8.pk}/pair/", {"next": "console", "force": "1"})
    assert back.status_code == 302
    assert back["Location"] == f"/events/{swiss8.pk}/console/"
    assert Round.objects.filter(event=swiss8).count() == 1
    client.post(f"/events/{swiss8.pk}/pair/", {"next": "console", "force": "1", "reason": "Clock"})
    assert Round.objects.filter(event=swiss8).count() == 2
    html = client.get(f"/events/{swiss8.pk}/console/").content.decode()
    assert "Clock" in html
    assert "?round=1" in html


def test_console_page_is_for_directors(swiss8):
    assert page_client().get(f"/events/{swiss8.pk}/console/").status_code == 302
    assert page_client(UserFactory()).get(f"/events/{swiss8.pk}/console/").status_code == 403


def test_event_page_links_its_directors_to_the_console(swiss8):
    html = page_client(_director(swiss8)).get(f"/events/{swiss8.pk}/").content.decode()
    assert f'href="/events/{swiss8.pk}/console/"' in html
    public = page_client().get(f"/events/{swiss8.pk}/").content.decode()
    assert "/console/" not in public


def test_the_event_page_offers_pair_next_round_only_when_the_round_is_complete(swiss8):
    client = page_client(_director(swiss8))
    html = client.get(f"/events/{swiss8.pk}/").content.decode()
    assert "Pair next round" not in html
    assert "Results missing: see the console" in html
    for m in open_matches(swiss8.pk, 1):
        play(m, winner=seated(m)[0])
    html = client.get(f"/events/{swiss8.pk}/").content.decode()
    assert "Pair next round" in html


def test_console_page_says_how_an_unplayed_table_was_decided():
    """A bye reads "bye" and a dropped player's table "walkover": not "decided by the pairing",
    which a walkover never was."""
    from tournaments.services import registration_drop

    event = swiss_event(7)
    round_pair(event=event)
    match = Match.objects.filter(event=event, decision=Match.Decision.PLAYED).first()
    leaver = match.seats.first().player
    registration_drop(registration=event.registrations.get(player=leaver))
    html = page_client(_director(event)).get(f"/events/{event.pk}/console/").content.decode()
    assert '<span class="badge decided">bye</span>' in html
    assert '<span class="badge decided">walkover</span>' in html
    assert "decided by the pairing" not in html


def test_the_event_page_offers_re_pairing_only_while_the_round_has_no_result(swiss8):
    """Re-pairing is refused once a result exists, so the button goes away then."""
    client = page_client(_director(swiss8))
    repair = f'action="/events/{swiss8.pk}/rounds/1/repair/"'
    assert repair in client.get(f"/events/{swiss8.pk}/").content.decode()
    first = open_matches(swiss8.pk, 1)[0]
    play(first, winner=min(seated(first)))
    assert repair not in client.get(f"/events/{swiss8.pk}/").content.decode()
