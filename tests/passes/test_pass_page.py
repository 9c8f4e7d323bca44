"""What the pass shows, live: the table the moment the round is paired, one tap to the holder's
own seat (never the other), self check-in from the director's time, a bye, results and standing,
withdrawal; and the mails."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.core import mail
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.utils import timezone

from core.live import FRAGMENT_VERSION
from entries.models import Entry
from passes import tasks, views
from passes.links import SESSION_KEY
from passes.models import PlayerPass
from passes.selectors import pass_version
from passes.services import pass_checkin, pass_mail, round_passes_mail
from scoring.links import SESSION_KEY as SEAT_SESSION
from scoring.models import Match, MatchKey
from scoring.permissions import Actor, match_access
from tests.passes.helpers import active_pass, holding, swiss_with_passes
from tests.tournaments.helpers import play
from tournaments.models import Event, Registration, Round, Standing
from tournaments.services.clock import round_clock_set, round_clock_start
from tournaments.services.rounds import round_pair
from tournaments.services.standings import standings_recompute
from tournaments.services.withdrawals import registration_drop

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def _match_of(reg: Registration) -> Match:
    return Match.objects.get(event=reg.event, seats__player=reg.player)


def test_the_pass_answers_304_to_the_etag_it_gave_strong_or_weak(club):
    """A client echoing the ETag behind nginx's gzip sends it weak (W/"…"): still unchanged."""
    event, regs = swiss_with_passes(club)
    browser = holding(regs[0])
    url = f"/events/{event.pk}/pass/live/"
    first = browser.get(url)
    assert first.status_code == 200
    etag = first["ETag"]
    assert etag == f'"{pass_version(player_pass=active_pass(regs[0]))}"'
    assert browser.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    weak = browser.get(url, HTTP_IF_NONE_MATCH=f"W/{etag}")
    assert weak.status_code == 304
    assert weak["ETag"] == etag
    assert weak["Cache-Control"] == "private, no-store"
    assert browser.get(url, HTTP_IF_NONE_MATCH='"0"').status_code == 200


def test_the_pass_shows_the_table_once_the_round_is_paired_and_the_version_moves(club, director):
    event, regs = swiss_with_passes(club)
    browser = holding(regs[0])
    page = browser.get(f"/events/{event.pk}/pass/")
    version = str(pass_version(player_pass=active_pass(regs[0])))
    unchanged = browser.get(f"/events/{event.pk}/pass/live/", HTTP_IF_NONE_MATCH=f'"{version}"')
    assert unchanged.status_code == 304
    assert "No table for you yet" in page.content.decode()
    round_pair(event=event, user=director)
    match = _match_of(regs[0])
    seat = next(s for s in match.seats.all() if s.player_id == regs[0].player_id)
    other = next(s for s in match.seats.all() if s.player_id != regs[0].player_id)
    live = browser.get(f"/events/{event.pk}/pass/live/", HTTP_IF_NONE_MATCH=f'"{version}"')
    assert live.status_code == 200
    html = live.content.decode()
    assert "data-live-fragment" in html
    expected = (
        f"Round 1: table {match.table_number}, you (seat {seat.position + 1}) "
        f"against {other.player.name}"
    )
    assert expected in html
    assert live["ETag"] != f'"{version}"'
    assert live["Cache-Control"] == "private, no-store"


def test_one_tap_grants_the_holders_seat_only_for_that_match(club, director):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    browser = holding(regs[0])
    match = _match_of(regs[0])
    tapped = browser.post(f"/events/{event.pk}/pass/seat/", {"match": match.pk})
    assert tapped.status_code == 302
    assert tapped["Location"] == f"/matches/{match.pk}/"
    keys = browser.session[SEAT_SESSION]
    assert list(keys) == [str(match.pk)]
    key = MatchKey.objects.get(pk=keys[str(match.pk)])
    mine = next(s.position for s in match.seats.all() if s.player_id == regs[0].player_id)
    assert key.position == mine
    access = match_access(actor=Actor(key_ids=(key.pk,)), match=match)
    assert access.identities == (mine,)  # one seat: the other side still confirms
    # the pass keeps working after the session was cycled
    assert browser.get(f"/events/{event.pk}/pass/").status_code == 200


def test_a_pass_used_for_a_match_not_its_holders_is_refused_and_grants_nothing(club, director):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    browser = holding(regs[0])
    theirs = Match.objects.filter(event=event).exclude(seats__player=regs[0].player).get()
    refused = browser.post(f"/events/{event.pk}/pass/seat/", {"match": theirs.pk})
    assert refused.status_code == 403
    assert "not for that match" in refused.content.decode()
    assert not browser.session.get(SEAT_SESSION)
    assert browser.post(f"/events/{event.pk}/pass/seat/", {"match": "x1"}).status_code == 403


def test_self_checkin_opens_at_the_directors_time(club):
    event, regs = swiss_with_passes(club, players=2)
    Registration.objects.filter(pk=regs[0].pk).update(status=Registration.Status.REGISTERED)
    today = timezone.localdate()
    Event.objects.filter(pk=event.pk).update(starts_on=today, options={"pass_checkin_opens": 1800})
    player_pass = PlayerPass.objects.select_related("registration__event").get(
        registration=regs[0], revoked_at__isnull=True
    )
    opens = timezone.make_aware(datetime.combine(today, datetime.min.time())) + timedelta(hours=18)
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError) as refused:
        pass_checkin(player_pass=player_pass, now=opens - timedelta(minutes=1))
    assert refused.value.status == 409
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.REGISTERED
    pass_checkin(player_pass=player_pass, now=opens)
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN


def test_the_page_checks_in(club):
    event, regs = swiss_with_passes(club, players=2)
    Registration.objects.filter(pk=regs[1].pk).update(status=Registration.Status.REGISTERED)
    browser = holding(regs[1])
    assert "check me in" in browser.get(f"/events/{event.pk}/pass/").content.decode()
    done = browser.post(f"/events/{event.pk}/pass/checkin/")
    assert done.status_code == 302
    regs[1].refresh_from_db()
    assert regs[1].status == Registration.Status.CHECKED_IN


def test_a_bye_is_shown(club, director):
    event, regs = swiss_with_passes(club, players=3)
    round_pair(event=event, user=director)
    bye = Match.objects.get(event=event, decision=Match.Decision.BYE)
    reg = next(r for r in regs if bye.seats.filter(player=r.player).exists())
    html = holding(reg).get(f"/events/{event.pk}/pass/").content.decode()
    assert "Round 1: you have a bye." in html


def test_withdrawing_confirms_then_drops_and_tells_the_director(club, director):
    event, regs = swiss_with_passes(club)
    browser = holding(regs[2])
    ask = browser.get(f"/events/{event.pk}/pass/withdraw/")
    assert ask.status_code == 200
    assert "Yes, drop me out" in ask.content.decode()
    browser.post(f"/events/{event.pk}/pass/withdraw/")  # no confirmation: nothing happens
    regs[2].refresh_from_db()
    assert regs[2].status != Registration.Status.DROPPED
    browser.post(f"/events/{event.pk}/pass/withdraw/", {"confirm": "1"})
    regs[2].refresh_from_db()
    assert regs[2].status == Registration.Status.DROPPED
    round_pair(event=event, user=director)
    assert not Match.objects.filter(event=event, seats__player=regs[2].player).exists()
    console = Client()
    console.force_login(director)
    assert (
        "dropped out with their pass"
        in console.get(f"/events/{event.pk}/console/").content.decode()
    )
    assert "dropped out of this event" in browser.get(f"/events/{event.pk}/pass/").content.decode()


def test_results_and_standing_show_nothing_private_of_others(club, director):
    event, regs = swiss_with_passes(club, players=2)
    round_pair(event=event, user=director)
    registration_drop(registration=regs[1])  # the holder wins by walkover
    browser = holding(regs[0])
    html = browser.get(f"/events/{event.pk}/pass/").content.decode()
    assert "won by walkover" in html
    other = active_pass(regs[1])
    for private in (other.nonce, other.digest, regs[1].checkin_token):
        assert private not in html
    assert SESSION_KEY in browser.session


def test_a_pass_is_mailed_at_entry_and_when_a_round_is_paired(club, director, monkeypatch):
    event, regs = swiss_with_passes(club, players=2)
    Entry.objects.create(
        event=event, name="Ada", email="ada@example.org", registration=regs[0], status="accepted"
    )
    assert pass_mail(player_pass=active_pass(regs[0]))
    assert mail.outbox[-1].to == ["ada@example.org"]
    assert "/p/#" in mail.outbox[-1].body
    assert not pass_mail(player_pass=active_pass(regs[1]))  # no address
    monkeypatch.setattr(
        tasks.round_passes_mail_task, "delay", lambda rid: tasks.round_passes_mail_task(rid)
    )
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        round_pair(event=event, user=director)
    assert "Round 1: table" in mail.outbox[-1].body
    assert mail.outbox[-1].to == ["ada@example.org"]


def test_a_failing_mail_or_broker_never_breaks_pairing(club, director, monkeypatch):
    event, regs = swiss_with_passes(club, players=2)
    Entry.objects.create(
        event=event, name="Ada", email="ada@example.org", registration=regs[0], status="accepted"
    )

    def boom(*args, **kwargs):
        raise OSError("no broker")

    monkeypatch.setattr(tasks.round_passes_mail_task, "delay", boom)
    monkeypatch.setattr("passes.services.send_mail", boom)
    from django.test import TestCase

    with TestCase.captureOnCommitCallbacks(execute=True):
        rnd = round_pair(event=event, user=director)
    assert rnd.status == "paired"
    assert round_passes_mail(round_id=rnd.pk) == 0


def test_a_club_nights_pass_shows_the_current_table(club, director_api):
    from tests.clubs.factories import PlayerFactory
    from tests.passes.helpers import holding as hold
    from tests.tournaments.factories import EventFactory
    from tournaments.services.registrations import registration_create

    night = EventFactory(club=club)
    ada, bo = PlayerFactory(club=club, name="Ada N"), PlayerFactory(club=club, name="Bo N")
    reg = registration_create(event=night, player=ada)
    registration_create(event=night, player=bo)
    started = director_api.post(
        "/api/matches/",
        {"event": night.pk, "players": [ada.pk, bo.pk], "table_number": 7},
        format="json",
    )
    assert started.status_code == 201, started.content
    html = hold(reg).get(f"/events/{night.pk}/pass/", HTTP_ACCEPT_LANGUAGE="ko").content.decode()
    assert "Go to my seat" in html or "내 좌석으로 가기" in html
    assert "7" in html
    assert "Bo N" in html


def test_a_club_nights_pass_announces_each_table_as_a_round_does(club, director_api):
    from tests.clubs.factories import PlayerFactory
    from tests.tournaments.factories import EventFactory
    from tournaments.services.registrations import registration_create

    night = EventFactory(club=club, kind=Event.Kind.CLUB_NIGHT)
    ada, bo, cy = (PlayerFactory(club=club, name=n) for n in ("Ada N", "Bo N", "Cy N"))
    reg = registration_create(event=night, player=ada, checked_in=True)
    for player in (bo, cy):
        registration_create(event=night, player=player, checked_in=True)
    browser = holding(reg)
    page = f"/events/{night.pk}/pass/"
    assert "No table for you yet" in browser.get(page).content.decode()

    def start(opponent, table):
        started = director_api.post(
            "/api/matches/",
            {"event": night.pk, "players": [ada.pk, opponent.pk], "table_number": table},
            format="json",
        )
        assert started.status_code == 201, started.content
        return Match.objects.get(pk=started.json()["id"])

    first = start(bo, 7)
    assert "Table 7: you (seat 1) against Bo N" in browser.get(page).content.decode()
    play(first, winner=ada.pk)
    html = browser.get(page).content.decode()
    assert "No table for you yet" in html  # a club night has no rounds: the next table shows
    assert 'data-pass-table=""' in html
    assert "Bo N · won" in html
    start(cy, 3)
    html = browser.get(page).content.decode()
    assert "Table 3: you (seat 1) against Cy N" in html
    assert 'id="pass-seat"' in html


def test_during_a_round_another_tables_result_leaves_the_pass_as_it_is(club, director):
    """At an open, six results a second move the event's standings: a pass that moved with them
    would be drawn again at every poll. During a round it moves with the holder's own match and
    own standing; once the round is over it follows the whole table again."""
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    ada = _match_of(regs[0])
    other = Match.objects.exclude(pk=ada.pk).get(event=event)
    standings_recompute(event=Event.objects.get(pk=event.pk))
    before = pass_version(player_pass=active_pass(regs[0]))
    winner = other.seats.order_by("position").first().player_id
    play(other, winner=winner)
    standings_recompute(event=Event.objects.get(pk=event.pk))
    assert Standing.objects.filter(event=event, player_id=winner).exists()
    assert pass_version(player_pass=active_pass(regs[0])) == before  # not Ada's table
    play(ada, winner=regs[0].player_id)
    standings_recompute(event=Event.objects.get(pk=event.pk))
    after = pass_version(player_pass=active_pass(regs[0]))
    assert after != before  # her own result (and the round is over)
    # between rounds the standings move every pass
    Event.objects.filter(pk=event.pk).update(
        results_seq=F("results_seq") + 1, standings_seq=F("standings_seq") + 1
    )
    assert pass_version(player_pass=active_pass(regs[0])) != after


def test_during_a_round_the_holders_own_standing_moves_the_pass(club, director):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    before = pass_version(player_pass=active_pass(regs[0]))
    Standing.objects.update_or_create(
        event=event,
        player_id=regs[0].player_id,
        defaults={"rank": 1, "values": {"mp": 3}, "seq": 9},
    )
    assert pass_version(player_pass=active_pass(regs[0])) != before


def test_a_change_committed_while_the_pass_is_drawn_is_drawn_at_the_next_poll(
    club, director, monkeypatch
):
    """The version the pass shows is read before what it shows. A director starting the round's
    clock while a poll of the pass is being drawn (after its clock was read, before the rest) is
    drawn at the next poll: never answered ``304`` until something else changes, with the pass
    left showing a clock "not started" (seen in the browser journey on PostgreSQL)."""
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    rnd = Round.objects.get(event=event, number=1)
    round_clock_set(rnd=rnd, user=director, minutes=30)
    browser = holding(regs[0])
    url = f"/events/{event.pk}/pass/live/"
    read = views.match_clock_state

    def read_then_started(**kwargs):
        shown = read(**kwargs)
        monkeypatch.setattr(views, "match_clock_state", read)  # once
        round_clock_start(rnd=rnd, user=director)  # committed mid-drawing
        return shown

    monkeypatch.setattr(views, "match_clock_state", read_then_started)
    drawn = browser.get(url)
    assert drawn.status_code == 200
    assert b'data-clock-phase="ready"' in drawn.content  # the clock as read: not started
    shown = FRAGMENT_VERSION.search(drawn.content)
    assert shown is not None
    # live.js asks with the version the regions show: the start is drawn now.
    polled = browser.get(url, HTTP_IF_NONE_MATCH=f'"{int(shown[1])}"')
    assert polled.status_code == 200, "told 304: the pass would show the clock not started"
    assert b'data-clock-phase="running"' in polled.content
    settled = FRAGMENT_VERSION.search(polled.content)
    assert settled is not None
    assert browser.get(url, HTTP_IF_NONE_MATCH=f'"{int(settled[1])}"').status_code == 304
