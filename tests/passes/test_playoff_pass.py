"""A playoff's players hold a pass for it from the moment it is cut, mailed like any other (to
the address they entered the group stage with), and the group-stage pass points on to it."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.core.cache import cache
from django.test import TestCase

from entries.models import Entry
from passes import tasks
from passes.links import secret_from
from passes.models import PlayerPass
from tests.passes.helpers import holding, secret
from tests.tournaments.helpers import api_event, open_matches, play, seated
from tournaments.models import Event, Registration
from tournaments.services import event_playoff_create, standings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def _group_stage(director_api: Any, club: Any, make_players: Any) -> Event:
    players = make_players(4)
    data = api_event(director_api, club, players, "round_robin", playoff_cut=2)
    event = Event.objects.get(pk=data["id"])
    for registration in Registration.objects.filter(event=event).select_related("player"):
        Entry.objects.create(
            event=event,
            name=registration.player.name,
            email=f"p{registration.player_id}@example.org",
            language="ko" if registration.player_id == players[1].pk else "en",
            registration=registration,
            player=registration.player,
            status=Entry.Status.ACCEPTED,
        )
    number = 0
    while director_api.post(f"/api/events/{event.pk}/rounds/").status_code == 201:
        number += 1
        for m in open_matches(event.pk, number):
            play(m, winner=min(seated(m)))
    standings_recompute(event=event)
    event.refresh_from_db()
    return event


def _mail_now(monkeypatch: Any) -> None:
    for task in (tasks.pass_mail_task, tasks.round_passes_mail_task):
        monkeypatch.setattr(task, "delay", lambda *args, task=task: task(*args))


def test_the_cut_players_get_their_playoff_pass_by_mail(
    director_api, club, make_players, monkeypatch
):
    event = _group_stage(director_api, club, make_players)
    _mail_now(monkeypatch)
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        playoff = event_playoff_create(event=event)
    assert playoff.playoff_of_id == event.pk
    regs = list(Registration.objects.filter(event=playoff).order_by("seed"))
    assert len(regs) == 2
    assert PlayerPass.objects.filter(registration__in=regs, revoked_at__isnull=True).count() == 2
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"p{r.player_id}@example.org" for r in regs
    )
    for message in mail.outbox:
        reg = next(r for r in regs if message.to[0] == f"p{r.player_id}@example.org")
        link = next(line for line in message.body.splitlines() if "/p/#" in line)
        assert secret_from(link) == secret(reg)  # the playoff's pass, not the group stage's
        assert playoff.name in message.subject
    # the playoff's rounds are mailed too: its players entered the event it was cut from
    mail.outbox.clear()
    with TestCase.captureOnCommitCallbacks(execute=True):
        assert director_api.post(f"/api/events/{playoff.pk}/rounds/").status_code == 201
    assert len(mail.outbox) == 2
    assert all("table" in m.body or "테이블" in m.body for m in mail.outbox)


def test_the_group_stage_pass_points_to_the_playoff_pass(director_api, club, make_players, api):
    event = _group_stage(director_api, club, make_players)
    first = Registration.objects.filter(event=event).order_by("player_id").first()
    out = Registration.objects.filter(event=event).order_by("-player_id").first()
    assert first is not None
    assert out is not None
    browser = holding(first)
    page = browser.get(f"/events/{event.pk}/pass/").content.decode()
    assert 'id="pass-next-event"' not in page
    playoff = event_playoff_create(event=event, name="Finals")
    playoff_reg = Registration.objects.get(event=playoff, player_id=first.player_id)
    page = browser.get(f"/events/{event.pk}/pass/").content.decode()
    assert "Your next event: Finals" in page
    assert page.count('id="pass-next-open"') == 1
    assert f"/p/#{secret(playoff_reg)}" in page
    # following it opens the playoff's pass in this browser
    assert browser.post("/p/", {"secret": secret(playoff_reg)}).status_code == 302
    assert browser.get(f"/events/{playoff.pk}/pass/").status_code == 200
    # a player who was not cut is shown nothing of it
    other = holding(out).get(f"/events/{event.pk}/pass/").content.decode()
    assert "Finals" not in other
    assert 'id="pass-next-event"' not in other
    # the API says the same
    data = api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(first)).json()
    assert data["next_event"]["event"] == playoff.pk
    assert data["next_event"]["name"] == "Finals"
    assert secret_from(data["next_event"]["link"]) == secret(playoff_reg)
    assert (
        api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(out)).json()["next_event"]
        is None
    )


def test_a_revoked_playoff_pass_is_not_pointed_to(director_api, club, make_players, director):
    from passes.services import pass_revoke

    event = _group_stage(director_api, club, make_players)
    first = Registration.objects.filter(event=event).order_by("player_id").first()
    assert first is not None
    playoff = event_playoff_create(event=event, name="Finals")
    pass_revoke(
        registration=Registration.objects.get(event=playoff, player_id=first.player_id),
        user=director,
    )
    page = holding(first).get(f"/events/{event.pk}/pass/").content.decode()
    assert 'id="pass-next-event"' not in page
