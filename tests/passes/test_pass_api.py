"""The pass in the API: the holder's view by ``X-Pass-Key``, the directors' list, revoke and
reissue; bad passes refused with nothing stored."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from passes.models import PlayerPass
from passes.services import pass_revoke
from scoring.models import HandSubmission, Match
from tests.passes.helpers import secret, swiss_with_passes
from tournaments.models import Registration
from tournaments.services.rounds import round_pair
from tournaments.services.withdrawals import match_forfeit

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def test_the_holder_reads_their_view_with_the_header(club, director):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    client = APIClient()
    got = client.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=secret(regs[0]))
    assert got.status_code == 200, got.content
    body = got.json()
    assert body["player"] == "Ada"
    assert body["current"]["round"] == 1
    assert body["current"]["seat"] in (1, 2)
    assert len(body["current"]["opponents"]) == 1
    assert "Ada" not in body["current"]["opponents"]
    text = got.content.decode()
    for reg in regs[1:]:
        other = PlayerPass.objects.get(registration=reg, revoked_at__isnull=True)
        assert other.nonce not in text
        assert reg.checkin_token not in text
    assert PlayerPass.objects.get(registration=regs[0], revoked_at__isnull=True).opened_at


def test_bad_passes_are_refused(club):
    event_a, regs_a = swiss_with_passes(club, players=2)
    event_b, _ = swiss_with_passes(club, players=2, suffix=" B")
    client = APIClient()
    assert client.get(f"/api/events/{event_a.pk}/pass/").status_code == 404
    assert (
        client.get(f"/api/events/{event_a.pk}/pass/", HTTP_X_PASS_KEY="z" * 32).status_code == 404
    )
    other = client.get(f"/api/events/{event_b.pk}/pass/", HTTP_X_PASS_KEY=secret(regs_a[0]))
    assert other.status_code == 403
    assert not PlayerPass.objects.filter(opened_at__isnull=False).exists()  # nothing stored


def test_directors_list_reissue_and_revoke(club, director_api, api):
    event, regs = swiss_with_passes(club, players=2)
    listed = director_api.get(f"/api/events/{event.pk}/passes/")
    assert listed.status_code == 200
    assert {row["player"] for row in listed.json()} == {"Ada", "Bo"}
    assert all("/p/#" in row["link"] for row in listed.json())
    old = secret(regs[0])
    again = director_api.post(f"/api/events/{event.pk}/passes/{regs[0].pk}/reissue/")
    assert again.status_code == 200
    assert old not in again.json()["link"]
    assert secret(regs[0]) in again.json()["link"]
    assert api.get(f"/api/events/{event.pk}/pass/", HTTP_X_PASS_KEY=old).status_code == 404
    gone = director_api.post(f"/api/events/{event.pk}/passes/{regs[0].pk}/revoke/")
    assert gone.status_code == 200
    assert gone.json()["link"] == ""
    assert api.get(f"/api/events/{event.pk}/passes/").status_code in (401, 403)
    assert api.post(f"/api/events/{event.pk}/passes/{regs[1].pk}/revoke/").status_code in (
        401,
        403,
    )
    assert PlayerPass.objects.filter(registration=regs[1], revoked_at__isnull=True).exists()


def test_the_schema_documents_the_pass():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    assert "/api/events/{event_id}/pass/" in paths
    params = paths["/api/events/{event_id}/pass/"]["get"]["parameters"]
    assert any(p["name"] == "X-Pass-Key" and p["in"] == "header" for p in params)
    assert "/api/events/{event_id}/passes/{registration_id}/reissue/" in paths
    assert "/api/events/{event_id}/pass/seat/" in paths
    assert "/api/events/{event_id}/pass/seat/hands/" in paths
    confirm = "/api/events/{event_id}/pass/seat/hands/{submission_id}/confirm/"
    assert any(p["name"] == "X-Pass-Key" for p in paths[confirm]["post"]["parameters"])


# -- the holder's seat ----------------------------------------------------------------------------

KNOCK = {"outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def _paired(club, director, **kwargs):
    event, regs = swiss_with_passes(club, **kwargs)
    round_pair(event=event, user=director)
    return event, regs


def _table(event, reg, rnd=1):
    match = Match.objects.get(event=event, seats__player=reg.player, round__number=rnd)
    seats = {s.player_id: s.position for s in match.seats.all()}
    mine = seats[reg.player_id]
    other_player = next(pid for pid in seats if pid != reg.player_id)
    return (
        match,
        mine,
        next(r for r in Registration.objects.filter(event=event, player_id=other_player)),
    )


def _seat(event, reg):
    return f"/api/events/{event.pk}/pass/seat/", {"HTTP_X_PASS_KEY": secret(reg)}


def test_a_hand_entered_from_one_pass_is_confirmed_from_the_opponents(club, director):
    event, regs = _paired(club, director)
    match, mine, opponent = _table(event, regs[0])
    client = APIClient()
    url, ada = _seat(event, regs[0])
    seat = client.get(url, **ada)
    assert seat.status_code == 200, seat.content
    assert seat.json()["match"] == match.pk
    assert seat.json()["position"] == mine
    assert seat.json()["seat"] == mine + 1
    entered = client.post(url + "hands/", {"knocker": mine, **KNOCK}, format="json", **ada)
    assert entered.status_code == 201, entered.content
    sid = entered.json()["id"]
    assert HandSubmission.objects.get(pk=sid).status == HandSubmission.Status.PENDING
    own = client.post(f"{url}hands/{sid}/confirm/", {}, format="json", **ada)
    assert own.status_code in (403, 409)  # the two-person rule: not by the one who entered it
    _, bo = _seat(event, opponent)
    confirmed = client.post(f"{url}hands/{sid}/confirm/", {}, format="json", **bo)
    assert confirmed.status_code == 200, confirmed.content
    assert HandSubmission.objects.get(pk=sid).status == HandSubmission.Status.CONFIRMED
    row = HandSubmission.objects.get(pk=sid)
    assert row.submitted_via == "seat_link"
    assert row.confirmed_via == "seat_link"


def test_a_pass_never_acts_for_the_other_seat(club, director):
    event, regs = _paired(club, director)
    match, mine, _opponent = _table(event, regs[0])
    client = APIClient()
    url, ada = _seat(event, regs[0])
    theirs = 1 - mine
    refused = client.post(
        url + "hands/", {"knocker": mine, "as_position": theirs, **KNOCK}, format="json", **ada
    )
    assert refused.status_code == 403, refused.content
    assert "another player" in refused.json()["detail"]
    assert not HandSubmission.objects.filter(hand__game__match=match).exists()


def test_a_pass_is_refused_for_a_hand_of_another_table(club, director):
    event, regs = _paired(club, director)
    _match, _mine, opponent = _table(event, regs[0])
    others = [r for r in regs if r.pk not in (regs[0].pk, opponent.pk)]
    client = APIClient()
    url, cy = _seat(event, others[0])
    _other_match, cy_seat, _ = _table(event, others[0])
    entered = client.post(url + "hands/", {"knocker": cy_seat, **KNOCK}, format="json", **cy)
    assert entered.status_code == 201, entered.content
    _, ada = _seat(event, regs[0])
    sid = entered.json()["id"]
    refused = client.post(f"{url}hands/{sid}/confirm/", {}, format="json", **ada)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "This pass is not for that match."
    assert HandSubmission.objects.get(pk=sid).status == HandSubmission.Status.PENDING


def test_a_pass_is_refused_once_the_round_moves_on(club, director):
    event, regs = _paired(club, director)
    match, mine, opponent = _table(event, regs[0])
    client = APIClient()
    url, ada = _seat(event, regs[0])
    entered = client.post(url + "hands/", {"knocker": mine, **KNOCK}, format="json", **ada)
    assert entered.status_code == 201, entered.content
    sid = entered.json()["id"]
    for table in Match.objects.filter(event=event, round__number=1):
        players = [s.player for s in table.seats.all()]
        match_forfeit(match=table, players=players[:1])
    round_pair(event=event, user=director)
    _, bo = _seat(event, opponent)
    refused = client.post(f"{url}hands/{sid}/confirm/", {}, format="json", **bo)
    assert refused.status_code == 403, refused.content
    assert refused.json()["detail"] == "This pass is not for that match."
    now = client.get(url, **ada)
    assert now.status_code == 200
    assert now.json()["match"] != match.pk  # the pass now acts at round 2's table only


def test_a_revoked_pass_acts_nowhere(club, director):
    event, regs = _paired(club, director)
    match, mine, _ = _table(event, regs[0])
    url, ada = _seat(event, regs[0])
    pass_revoke(registration=regs[0], user=director)
    client = APIClient()
    assert client.get(url, **ada).status_code == 404
    refused = client.post(url + "hands/", {"knocker": mine, **KNOCK}, format="json", **ada)
    assert refused.status_code == 404
    assert refused.json()["detail"] == "This pass is not valid: it was replaced or never existed."
    assert not HandSubmission.objects.filter(hand__game__match=match).exists()


def test_another_events_pass_is_refused_in_the_readers_language(club, director):
    event, regs = _paired(club, director)
    _other, other_regs = _paired(club, director, suffix=" B")
    match, mine, _ = _table(event, regs[0])
    client = APIClient()
    url = f"/api/events/{event.pk}/pass/seat/hands/"
    stranger = {"HTTP_X_PASS_KEY": secret(other_regs[0])}
    refused = client.post(url, {"knocker": mine, **KNOCK}, format="json", **stranger)
    assert refused.status_code == 403
    assert refused.json()["detail"] == "Your pass is for another event."
    korean = client.post(
        url, {"knocker": mine, **KNOCK}, format="json", HTTP_ACCEPT_LANGUAGE="ko", **stranger
    )
    assert korean.status_code == 403
    assert korean.json()["detail"] != "Your pass is for another event."
    assert not HandSubmission.objects.filter(hand__game__match=match).exists()
