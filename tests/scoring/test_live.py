"""Live match pages: the version endpoint (ETag, 304), the live regions and the words for the
last change, a race's loser told which entry was kept (page and API), and a page entry sent
again with its Idempotency-Key stored once."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import HandSubmission, IdempotencyRecord, Match
from scoring.services import hand_confirm, match_link_token
from tests.scoring.helpers import knock_enter, live_match, seat_actor, seat_client
from tests.scoring.pages import Client

pytestmark = pytest.mark.django_db


def _form(**extra: str) -> dict[str, str]:
    return {
        "mode": "counts",
        "knocker": "0",
        "outcome": "knock",
        "knocker_deadwood": "5",
        "defender_deadwood": "25",
        **extra,
    }


def _version(client: Any, match: Match, etag: str | None = None) -> Any:
    headers = {"HTTP_IF_NONE_MATCH": etag} if etag else {}
    return client.get(f"/api/matches/{match.pk}/version/", **headers)


# -- the version endpoint ---------------------------------------------------------------------


def test_match_version_grows_with_every_move_and_answers_304_while_current():
    match = live_match()
    api = APIClient()
    first = _version(api, match)
    assert first.status_code == 200
    assert first["ETag"] == f'"{first.json()["version"]}"'
    assert first["Cache-Control"] == "public, max-age=0, s-maxage=1"  # core.live.cache_headers
    assert first.json()["poll_ms"] > 0
    same = _version(api, match, first["ETag"])
    assert same.status_code == 304
    assert same.content == b""
    seen = [first.json()["version"]]
    sub = knock_enter(match)
    seen.append(_version(api, match).json()["version"])
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    seen.append(_version(api, match).json()["version"])
    assert seen == sorted(set(seen)), seen  # strictly growing
    assert _version(api, match, first["ETag"]).status_code == 200


def test_a_refused_write_leaves_the_version_alone():
    match = live_match()
    knock_enter(match)
    before = Match.objects.get(pk=match.pk).live_seq
    with pytest.raises(Exception, match="already entered"):
        knock_enter(match, position=0, knocker=0)
    assert Match.objects.get(pk=match.pk).live_seq == before


def test_unknown_match_version_is_404():
    assert APIClient().get("/api/matches/999999/version/").status_code == 404


# -- the live regions ---------------------------------------------------------------------------


def test_page_and_fragment_have_the_same_live_regions():
    import re

    match = live_match()
    client = seat_client(match, 0)
    page = client.get(f"/matches/{match.pk}/").content.decode()
    fragment = client.get(f"/matches/{match.pk}/live/").content.decode()
    names = re.compile(r'data-live-region="([a-z-]+)"')
    assert names.findall(page) == names.findall(fragment)
    assert set(names.findall(page)) >= {"scoreboard", "pending", "entry", "sheet"}
    assert f'data-live-version-url="/api/matches/{match.pk}/version/"' in page
    assert 'name="hand_number" value="1"' in page


def test_the_picker_script_comes_with_the_page_even_before_there_is_a_form_to_pick_for():
    """A script inside a region swapped in live never runs (live.js imports the nodes): the card
    picker's script comes with the page, outside the regions, even when the page had no entry
    form yet (the visitor's own entry waiting), so the next hand's form swapped in gets its
    picker; the fragment carries no script of its own, only data."""
    match = live_match()
    sub = knock_enter(match, position=1)
    dee = seat_client(match, 1)
    page = dee.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="entry"' not in page  # her own entry waits: nothing to enter yet
    assert page.count("js/picker.js") == 1
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    fragment = dee.get(f"/matches/{match.pk}/live/").content.decode()
    assert 'id="entry"' in fragment
    assert "data-picker" in fragment
    assert "<script src=" not in fragment  # data (JSON) only
    assert dee.get(f"/matches/{match.pk}/").content.decode().count("js/picker.js") == 1


def test_the_other_player_is_told_who_entered_which_hand():
    match = live_match()
    cleo = seat_client(match, 0)
    knock_enter(match, position=1)  # Dee enters hand 1
    fragment = cleo.get(f"/matches/{match.pk}/live/").content.decode()
    assert "Dee entered hand 1 — review it." in fragment
    assert 'data-submission="' in fragment  # the pending entry, to confirm or dispute
    dee = seat_client(match, 1)
    assert "review it" not in dee.get(f"/matches/{match.pk}/live/").content.decode()
    spectator = Client().get(f"/matches/{match.pk}/live/").content.decode()
    assert "review it" not in spectator
    assert 'data-submission="' not in spectator  # never an unconfirmed entry


def test_a_new_entry_is_told_once_whether_it_arrives_live_or_with_the_page():
    """The other player reads who entered the hand once: in the live notice when the update
    brings it, in the page's "where am I" block when the page is loaded."""
    match = live_match()
    cleo = seat_client(match, 0)
    knock_enter(match, position=1)  # Dee enters hand 1
    fragment = cleo.get(f"/matches/{match.pk}/live/").content.decode()
    assert fragment.count("Dee entered hand 1") == 1
    assert "Dee entered hand 1 — review it." in fragment
    page = cleo.get(f"/matches/{match.pk}/").content.decode()
    assert page.count("Dee entered hand 1") == 1
    assert "Dee entered hand 1: check it, then confirm or dispute." in page


def test_the_submitter_is_told_of_the_confirmation():
    match = live_match()
    sub = knock_enter(match, position=1)
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    fragment = seat_client(match, 1).get(f"/matches/{match.pk}/live/").content.decode()
    assert "Cleo confirmed hand 1." in fragment


# -- races ----------------------------------------------------------------------------------------


def test_the_page_tells_the_loser_of_a_race_which_entry_was_kept():
    match = live_match()
    cleo = seat_client(match, 0)
    knock_enter(match, position=1)  # Dee was quicker
    response = cleo.post(f"/matches/{match.pk}/hands/", _form(hand_number="1"))
    assert response.status_code == 409
    html = response.content.decode()
    assert "Hand 1: your entry was not stored" in html
    assert "Dee entered this hand first: their entry was kept." in html
    assert "Knock · Dee scores" in html
    assert HandSubmission.objects.filter(hand__game__match=match).count() == 1


def test_a_stale_form_for_a_recorded_hand_is_not_stored_as_the_next_hand():
    match = live_match()
    sub = knock_enter(match, position=1)
    hand_confirm(submission=sub, actor=seat_actor(match, 0))
    response = seat_client(match, 0).post(f"/matches/{match.pk}/hands/", _form(hand_number="1"))
    assert response.status_code == 409
    assert "See it on the score sheet" in response.content.decode()
    assert HandSubmission.objects.filter(hand__game__match=match).count() == 1


def test_the_api_answers_a_race_with_409_and_the_kept_entry():
    match = live_match()
    kept = knock_enter(match, position=1)
    api = APIClient()
    api.credentials(HTTP_X_MATCH_KEY=match_link_token(match=match, position=0))
    body = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
    response = api.post(
        f"/api/matches/{match.pk}/hands/", {**body, "hand_number": 1}, format="json"
    )
    assert response.status_code == 409
    data = response.json()
    assert data["stored"]["id"] == kept.pk
    assert data["stored"]["submitted_by"]["player"] == "Dee"
    assert data["stored"]["status"] == "pending"


def test_the_schema_documents_the_kept_entry_of_a_409():
    schema = Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()
    conflict = schema["paths"]["/api/matches/{match_id}/hands/"]["post"]["responses"]["409"]
    ref = conflict["content"]["application/json"]["schema"]["$ref"].rsplit("/", 1)[1]
    component = schema["components"]["schemas"][ref]
    stored = component["properties"]["stored"]
    refs = [stored.get("$ref")] + [part.get("$ref") for part in stored.get("allOf", [])]
    assert "#/components/schemas/Hand" in refs, stored
    for path in ("/api/matches/{match_id}/version/", "/api/events/{event_id}/version/"):
        assert set(schema["paths"][path]["get"]["responses"]) >= {"200", "304", "404"}


# -- an entry sent again after a lost answer ----------------------------------------------------


def test_a_page_entry_sent_twice_with_its_key_is_stored_once():
    match = live_match()
    cleo = seat_client(match, 0)
    url = f"/matches/{match.pk}/hands/"
    first = cleo.post(url, _form(hand_number="1"), HTTP_IDEMPOTENCY_KEY="phone-1")
    assert first.status_code == 302
    again = cleo.post(url, _form(hand_number="1"), HTTP_IDEMPOTENCY_KEY="phone-1")
    assert again.status_code == 302
    assert again["Idempotent-Replayed"] == "true"
    assert again["Location"] == first["Location"]
    assert HandSubmission.objects.filter(hand__game__match=match).count() == 1
    assert IdempotencyRecord.objects.filter(key="phone-1").count() == 1
    other = cleo.post(url, _form(hand_number="1", knocker_deadwood="6", idempotency_key="phone-1"))
    assert other.status_code == 422


def test_a_refused_page_entry_is_not_remembered_so_a_corrected_one_follows():
    match = live_match()
    cleo = seat_client(match, 0)
    url = f"/matches/{match.pk}/hands/"
    bad = cleo.post(url, _form(knocker_deadwood="-3"), HTTP_IDEMPOTENCY_KEY="phone-2")
    assert bad.status_code == 400
    assert not IdempotencyRecord.objects.filter(key="phone-2").exists()
    good = cleo.post(url, _form(), HTTP_IDEMPOTENCY_KEY="phone-2")
    assert good.status_code == 302
    assert HandSubmission.objects.filter(hand__game__match=match).count() == 1
