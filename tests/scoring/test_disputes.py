"""Disputes: the other side disputes an entry with a reason; it is not counted; the submitter
withdraws and re-enters, or a director not playing at the table settles it; all on the history."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from scoring.models import HandSubmission
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.scoring.conftest import client_for, seat_api
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def _match() -> Any:
    event = EventFactory(confirmation="opponent")
    players = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    return MatchFactory(event=event, players=players)


def test_a_disputed_entry_is_not_counted_and_its_submitter_sees_why_and_re_enters():
    match = _match()
    alice, bob = seat_api(match.pk, 0), seat_api(match.pk, 1)
    entered = alice.hand(match.pk, **KNOCK)
    disputed = bob.action(entered["id"], "dispute", reason="I had 15, not 25.")
    assert disputed["status"] == "disputed"
    assert disputed["dispute_reason"] == "I had 15, not 25."
    assert disputed["disputed_by"] == {"user": None, "player": "Bob"}
    detail = alice.detail(match.pk)
    assert detail["pending"]["status"] == "disputed"
    assert all(total == 0 for total in alice.sheet(match.pk)["games"][0]["totals"])
    bob.action(entered["id"], "confirm", expect=403)  # a player does not settle
    alice.hand(match.pk, expect=409, **KNOCK)  # the hand is taken until withdrawn
    alice.action(entered["id"], "withdraw")
    again = alice.hand(match.pk, **{**KNOCK, "defender_deadwood": 15})
    assert again["version"] == 2
    bob.action(again["id"], "confirm")


def test_a_dispute_needs_a_reason_and_nobody_disputes_their_own_entry():
    match = _match()
    entered = seat_api(match.pk, 0).hand(match.pk, **KNOCK)
    seat_api(match.pk, 0).action(entered["id"], "dispute", expect=403, reason="oops")
    seat_api(match.pk, 1).action(entered["id"], "dispute", expect=400, reason="  ")
    seat_api(match.pk, 1).action(entered["id"], "dispute", expect=400)
    assert HandSubmission.objects.get(pk=entered["id"]).status == "pending"


def test_directors_list_disputes_and_settle_them_by_confirming_or_overriding():
    match = _match()
    director = client_for(event_director(match.event))
    entered = seat_api(match.pk, 0).hand(match.pk, **KNOCK)
    seat_api(match.pk, 1).action(entered["id"], "dispute", reason="wrong count")
    listing = director.client.get(f"/api/events/{match.event.pk}/disputes/").json()
    assert [(d["id"], d["dispute_reason"], d["match"]) for d in listing] == [
        (entered["id"], "wrong count", match.pk)
    ]
    stranger = client_for(UserFactory())
    assert stranger.client.get(f"/api/events/{match.event.pk}/disputes/").status_code == 403
    settled = director.action(entered["id"], "confirm")
    assert settled["status"] == "confirmed"
    assert director.client.get(f"/api/events/{match.event.pk}/disputes/").json() == []
    # the next one is overridden with a reason
    second = seat_api(match.pk, 1).hand(match.pk, **{**KNOCK, "knocker": 1})
    seat_api(match.pk, 0).action(second["id"], "dispute", reason="Bob ginned")
    corrected = director.action(
        second["id"],
        "override",
        expect=201,
        knocker=1,
        outcome="gin",
        knocker_deadwood=0,
        defender_deadwood=20,
        reason="both agreed Bob ginned",
    )
    assert corrected["status"] == "confirmed"
    history = director.client.get(f"/api/hands/{second['id']}/history/").json()
    reasons = [c["reason"] for c in history["changes"]]
    assert "disputed: Bob ginned" in reasons
    assert any("both agreed Bob ginned" in r for r in reasons)
    statuses = [c["status"] for c in history["changes"]]
    assert statuses[:2] == ["pending", "disputed"]


def test_the_dispute_reaches_the_directors_page_and_is_settled_there():
    match = _match()
    entered = seat_api(match.pk, 0).hand(match.pk, **KNOCK)
    bob = Client()
    from scoring.services import match_link_token

    bob.get(f"/l/{match_link_token(match=match, position=1)}/")
    page = bob.get(f"/matches/{match.pk}/").content.decode()
    assert f"/matches/{match.pk}/entries/{entered['id']}/dispute/" in page
    response = bob.post(
        f"/matches/{match.pk}/entries/{entered['id']}/dispute/", {"reason": "I had 15"}
    )
    assert response.status_code == 302
    alice = Client()
    alice.get(f"/l/{match_link_token(match=match, position=0)}/")
    page = alice.get(f"/matches/{match.pk}/").content.decode()
    assert "I had 15" in page
    assert "Withdraw" in page
    director = Client()
    director.force_login(event_director(match.event))
    listing = director.get(f"/events/{match.event.pk}/disputes/")
    assert listing.status_code == 200
    assert "I had 15" in listing.content.decode()
    response = director.post(
        f"/matches/{match.pk}/entries/{entered['id']}/confirm/", {"next": "disputes"}
    )
    assert response["Location"] == f"/events/{match.event.pk}/disputes/"
    assert HandSubmission.objects.get(pk=entered["id"]).status == "confirmed"
    assert (
        "No disputed hands" in director.get(f"/events/{match.event.pk}/disputes/").content.decode()
    )


def test_the_event_page_leads_its_directors_to_the_disputes_list():
    match = _match()
    director = Client()
    director.force_login(event_director(match.event))
    html = director.get(f"/events/{match.event.pk}/").content.decode()
    assert f'href="/events/{match.event.pk}/disputes/"' in html
    assert (
        f"/events/{match.event.pk}/disputes/"
        not in Client().get(f"/events/{match.event.pk}/").content.decode()
    )


def test_a_seated_director_reads_the_history_with_the_dispute_but_cannot_correct():
    event = EventFactory(confirmation="opponent")
    user = UserFactory(username="seated")
    event.directors.add(user)
    players = [
        PlayerFactory(club=event.club, name="Alice"),
        PlayerFactory(club=event.club, name="Sam", user=user),
    ]
    match = MatchFactory(event=event, players=players)
    entered = seat_api(match.pk, 0).hand(match.pk, **KNOCK)
    seat_api(match.pk, 1).action(entered["id"], "dispute", reason="miscounted")
    client = Client()
    client.force_login(user)
    url = f"/matches/{match.pk}/entries/{entered['id']}/"
    response = client.get(url)
    assert response.status_code == 200
    html = response.content.decode()
    assert "miscounted" in html
    assert 'name="reason"' not in html  # no correction form
    response = client.post(url, {**{k: str(v) for k, v in KNOCK.items()}, "reason": "mine"})
    assert response.status_code == 403
    assert HandSubmission.objects.get(pk=entered["id"]).status == "disputed"


def test_the_match_says_what_it_is_doing_as_its_page_does():
    # The stored status moves only with a confirmed hand; play_status follows the play.
    match = _match()
    alice, bob = seat_api(match.pk, 0), seat_api(match.pk, 1)
    assert alice.detail(match.pk)["play_status"] == "scheduled"
    entered = alice.hand(match.pk, **KNOCK)
    detail = bob.detail(match.pk)
    assert (detail["play_status"], detail["play_status_label"]) == (
        "waiting",
        "waiting for confirmation",
    )
    bob.action(entered["id"], "dispute", reason="I had 15, not 25.")
    assert alice.detail(match.pk)["play_status"] == "disputed"
    alice.action(entered["id"], "withdraw")
    again = alice.hand(match.pk, **KNOCK)
    bob.action(again["id"], "confirm")
    assert alice.detail(match.pk)["play_status"] == "playing"


def test_the_score_sheet_marks_a_disputed_entry_disputed_not_waiting():
    """The score sheet's row for the hand under dispute says so: it is not waiting for the
    other side's confirmation any more but for a director."""
    match = _match()
    alice, bob = seat_api(match.pk, 0), seat_api(match.pk, 1)
    entered = alice.hand(match.pk, **KNOCK)
    director = Client()
    director.force_login(event_director(match.event))

    def sheet_row() -> str:
        page = director.get(f"/matches/{match.pk}/").content.decode()
        sheet = page[page.index('id="sheet"') :]
        return sheet[: sheet.index("</table>")]

    assert "waiting for confirmation" in sheet_row()
    bob.action(entered["id"], "dispute", reason="I had 15, not 25.")
    row = sheet_row()
    assert '<span class="badge disputed">disputed</span>' in row
    assert "waiting for confirmation" not in row


def test_the_disputes_list_has_no_bullets_or_indent():
    """Each dispute is a panel: the list around them carries no bullet and no 40px indent,
    which on a phone pushed the panels off to the right with a stray "•"."""
    import re

    from django.conf import settings

    match = _match()
    entered = seat_api(match.pk, 0).hand(match.pk, **KNOCK)
    seat_api(match.pk, 1).action(entered["id"], "dispute", reason="I had 15")
    director = Client()
    director.force_login(event_director(match.event))
    html = director.get(f"/events/{match.event.pk}/disputes/").content.decode()
    assert '<ul class="disputes">' in html
    css = (settings.BASE_DIR / "static/css/knock.css").read_text()
    rule = re.search(r"^\.disputes \{([^}]*)\}", css, re.M)
    assert rule is not None
    assert "list-style: none" in rule.group(1)
    assert "padding: 0" in rule.group(1)
