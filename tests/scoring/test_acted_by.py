"""Who acted is recorded: every entry, confirmation, dispute and withdrawal keeps the credential
that made it (a seat link, the table link, a signed-in session, an API token); one table link on
both sides reads "on the table's phone" on the history and the score sheet; and an event can
refuse confirmations and disputes made on the table's phone (``confirm_by_seat_link``)."""

from __future__ import annotations

import html
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from scoring.models import HandSubmission, Match, MatchKey
from scoring.permissions import Actor, match_access
from scoring.services import entry_from_dict, hand_confirm, hand_submit, match_link_token
from tests.clubs.factories import PASSWORD, PlayerFactory, UserFactory
from tests.scoring.conftest import Api, client_for, seat_api
from tests.scoring.factories import MatchFactory, event_director
from tests.scoring.pages import Client as PageClient
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}
REFUSED = "not on the table's phone"
REFUSED_KO = "테이블 공용 휴대폰이 아니라 자기 좌석 링크"


def _match(*, accounts: bool = False, **options: Any) -> Any:
    event = EventFactory(confirmation="opponent", options=options)
    if accounts:
        players = [
            PlayerFactory(club=event.club, name=n, user=UserFactory(username=n.lower()))
            for n in ("Bao", "Cleo")
        ]
    else:
        players = [PlayerFactory(club=event.club, name=n) for n in ("Bao", "Cleo")]
    return MatchFactory(event=event, players=players)


def _text(response: Any) -> str:
    """A page's text as a reader sees it (entities such as ``&#x27;`` decoded)."""
    return html.unescape(response.content.decode())


def _key(match: Match, position: int | None) -> int:
    match_link_token(match=match, position=position)  # issued if not yet
    return MatchKey.objects.get(match=match, position=position, revoked_at__isnull=True).pk


def _history(sub_id: int) -> list[tuple[str, str, int | None]]:
    """(status, credential, key id) of each history row of the submission, oldest first."""
    rows = HandSubmission.history.filter(id=sub_id).order_by("history_date", "history_id")
    return [(r.status, r.history_via, r.history_via_key) for r in rows]


def _session_api(user: Any) -> Api:
    """Signed in through the site's session (DRF's SessionAuthentication: no ``request.auth``)."""
    client = APIClient()
    client.force_login(user)
    return Api(client)


def _token_api(username: str) -> Api:
    """Signed in with an API token obtained the documented way (``POST /api/auth/token/``)."""
    client = APIClient()
    response = client.post(
        "/api/auth/token/", {"username": username, "password": PASSWORD}, format="json"
    )
    assert response.status_code in (200, 201), response.content
    client.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    return Api(client)


# -- every credential, every act ----------------------------------------------------------------


def test_seat_links_are_recorded_with_their_keys_for_every_act():
    match = _match()
    bao, cleo = seat_api(match.pk, 0), seat_api(match.pk, 1)
    k0, k1 = _key(match, 0), _key(match, 1)
    first = bao.hand(match.pk, **KNOCK)
    assert first["submitted_via"] == "seat_link"
    disputed = cleo.action(first["id"], "dispute", reason="I had 20")
    assert disputed["disputed_via"] == "seat_link"
    bao.action(first["id"], "withdraw")
    second = bao.hand(match.pk, **{**KNOCK, "defender_deadwood": 20})
    confirmed = cleo.action(second["id"], "confirm")
    assert confirmed["confirmed_via"] == "seat_link"
    assert confirmed["on_table_phone"] is False
    one, two = (
        HandSubmission.objects.get(pk=first["id"]),
        HandSubmission.objects.get(pk=second["id"]),
    )
    assert (one.submitted_via, one.submitted_via_key_id) == ("seat_link", k0)
    assert (one.disputed_via, one.disputed_via_key_id) == ("seat_link", k1)
    assert (two.confirmed_via, two.confirmed_via_key_id) == ("seat_link", k1)
    assert _history(one.pk) == [
        ("pending", "seat_link", k0),
        ("disputed", "seat_link", k1),
        ("withdrawn", "seat_link", k0),
    ]
    assert _history(two.pk) == [("pending", "seat_link", k0), ("confirmed", "seat_link", k1)]


def test_the_table_link_is_recorded_for_every_act_and_both_sides_read_as_one_phone():
    match = _match()
    table, key = seat_api(match.pk, None), _key(match, None)
    first = table.hand(match.pk, as_position=0, **KNOCK)
    table.action(first["id"], "dispute", as_position=1, reason="recount")
    table.action(first["id"], "withdraw", as_position=0)
    assert _history(first["id"]) == [
        ("pending", "table_link", key),
        ("disputed", "table_link", key),
        ("withdrawn", "table_link", key),
    ]
    second = table.hand(match.pk, as_position=0, **KNOCK)
    confirmed = table.action(second["id"], "confirm", as_position=1)
    assert (confirmed["submitted_via"], confirmed["confirmed_via"]) == ("table_link", "table_link")
    assert confirmed["on_table_phone"] is True
    sub = HandSubmission.objects.get(pk=second["id"])
    assert sub.submitted_via_key_id == sub.confirmed_via_key_id == key
    # The players are still named (the history says who was declared), and the sheet says how.
    assert confirmed["submitted_by"]["player"] == "Bao"
    assert confirmed["confirmed_by"]["player"] == "Cleo"
    assert table.sheet(match.pk)["games"][0]["rows"][0]["on_table_phone"] is True


def test_a_signed_in_session_is_recorded_for_every_act():
    match = _match(accounts=True)
    bao, cleo = (
        _session_api(UserFactory(username="bao")),
        _session_api(UserFactory(username="cleo")),
    )
    first = bao.hand(match.pk, **KNOCK)
    cleo.action(first["id"], "dispute", reason="no")
    bao.action(first["id"], "withdraw")
    second = bao.hand(match.pk, **KNOCK)
    confirmed = cleo.action(second["id"], "confirm")
    assert (confirmed["submitted_via"], confirmed["confirmed_via"]) == ("session", "session")
    assert _history(first["id"]) == [
        ("pending", "session", None),
        ("disputed", "session", None),
        ("withdrawn", "session", None),
    ]
    assert _history(second["id"])[-1] == ("confirmed", "session", None)


def test_an_api_token_is_recorded_by_its_kind_only_for_every_act():
    match = _match(accounts=True)
    bao, cleo = _token_api("bao"), _token_api("cleo")
    first = bao.hand(match.pk, **KNOCK)
    assert first["submitted_via"] == "token"
    disputed = cleo.action(first["id"], "dispute", reason="no")
    assert disputed["disputed_via"] == "token"
    bao.action(first["id"], "withdraw")
    second = bao.hand(match.pk, **KNOCK)
    confirmed = cleo.action(second["id"], "confirm")
    assert (confirmed["submitted_via"], confirmed["confirmed_via"]) == ("token", "token")
    assert _history(first["id"]) == [
        ("pending", "token", None),
        ("disputed", "token", None),
        ("withdrawn", "token", None),
    ]
    sub = HandSubmission.objects.get(pk=second["id"])
    assert sub.submitted_via_key_id is None
    assert sub.confirmed_via_key_id is None


def test_a_director_confirms_and_corrects_with_their_account():
    match = _match()
    director = client_for(event_director(match.event))
    entered = seat_api(match.pk, 0).hand(match.pk, **KNOCK)
    confirmed = director.action(entered["id"], "confirm")
    assert (confirmed["submitted_via"], confirmed["confirmed_via"]) == ("seat_link", "session")
    corrected = director.action(
        entered["id"], "override", 201, reason="recount", **{**KNOCK, "defender_deadwood": 30}
    )
    assert (corrected["submitted_via"], corrected["confirmed_via"]) == ("session", "session")
    assert _history(entered["id"])[-1][:2] == ("superseded", "session")


def test_the_account_comes_before_a_link_and_a_spoken_for_seat_is_the_table_link():
    """A player signed in who also holds their seat's link acts with the account; a director
    holding the table link who speaks for a seat acts with the table link."""
    match = _match(accounts=True)
    bao = UserFactory(username="bao")
    both = Actor(user=bao, token=match_link_token(match=match, position=0))
    access = match_access(actor=both, match=match)
    assert access.acted_by(0).kind == "session"
    director = Actor(
        user=event_director(match.event), token=match_link_token(match=match, position=None)
    )
    access = match_access(actor=director, match=match)
    assert access.acted_by(1).kind == "table_link"
    assert access.acted_by(1).key_id == _key(match, None)
    assert access.acted_by(None).kind == "session"


# -- "on the table's phone": the history and the score sheet -------------------------------------


def _one_phone_hand(match: Match) -> HandSubmission:
    table = Actor(token=match_link_token(match=match, position=None))
    sub = hand_submit(match=match, actor=table, entry=entry_from_dict(KNOCK), as_position=0)
    return hand_confirm(submission=sub, actor=table, as_position=1)


def test_the_history_and_the_sheet_say_on_the_tables_phone_in_english_and_korean():
    match = _match()
    sub = _one_phone_hand(match)
    director = Client()
    director.force_login(event_director(match.event))
    history = _text(director.get(f"/matches/{match.pk}/entries/{sub.pk}/"))
    assert "Bao entered on the table's phone: Bao knocked with 5, Cleo 25" in history
    assert "Cleo confirmed it on the table's phone." in history
    assert "Entered and confirmed on the table's phone" in history
    sheet = _text(director.get(f"/matches/{match.pk}/"))
    assert "entered and confirmed on the table's phone" in sheet
    ko = Client(HTTP_ACCEPT_LANGUAGE="ko")
    ko.force_login(event_director(match.event))
    history = _text(ko.get(f"/matches/{match.pk}/entries/{sub.pk}/"))
    assert "Bao 님이 테이블 공용 휴대폰으로 입력했습니다:" in history
    assert "Cleo 님이 테이블 공용 휴대폰으로 확인했습니다." in history
    assert "테이블 공용 휴대폰으로 입력하고 확인했습니다" in history
    assert "테이블 공용 휴대폰으로 입력·확인" in _text(ko.get(f"/matches/{match.pk}/"))
    # Anyone reading the final sheet sees it too (no private data in it).
    assert "entered and confirmed on the table's phone" in (
        _text(Client().get(f"/matches/{match.pk}/"))
    )


def test_two_seat_links_are_not_the_tables_phone_and_the_history_names_the_credential():
    match = _match()
    bao = Actor(token=match_link_token(match=match, position=0))
    cleo = Actor(token=match_link_token(match=match, position=1))
    sub = hand_submit(match=match, actor=bao, entry=entry_from_dict(KNOCK))
    hand_confirm(submission=sub, actor=cleo)
    director = Client()
    director.force_login(event_director(match.event))
    history = _text(director.get(f"/matches/{match.pk}/entries/{sub.pk}/"))
    assert "table's phone" not in history
    assert "Bao entered: Bao knocked with 5" in history
    assert "(seat link)" in history
    assert "table's phone" not in _text(director.get(f"/matches/{match.pk}/"))
    assert seat_api(match.pk, 0).sheet(match.pk)["games"][0]["rows"][0]["on_table_phone"] is False


def test_a_table_link_reissued_between_entry_and_confirmation_is_not_one_phone():
    match = _match()
    table = Actor(token=match_link_token(match=match, position=None))
    sub = hand_submit(match=match, actor=table, entry=entry_from_dict(KNOCK), as_position=0)
    client_for(event_director(match.event)).client.post(
        f"/api/matches/{match.pk}/links/reissue/", {"table": True}, format="json"
    )
    again = Actor(token=match_link_token(match=match, position=None))
    done = hand_confirm(submission=sub, actor=again, as_position=1)
    assert (done.submitted_via, done.confirmed_via) == ("table_link", "table_link")
    assert done.submitted_via_key_id != done.confirmed_via_key_id
    row = seat_api(match.pk, 0).sheet(match.pk)["games"][0]["rows"][0]
    assert row["on_table_phone"] is False


# -- the event option: confirm on one's own link -------------------------------------------------


def test_with_the_option_the_api_refuses_the_tables_phone_and_stores_nothing():
    match = _match(confirm_by_seat_link=True)
    table = seat_api(match.pk, None)
    entered = table.hand(match.pk, as_position=0, **KNOCK)  # entering stays open to it
    rows = HandSubmission.history.filter(id=entered["id"]).count()
    seq = Match.objects.get(pk=match.pk).live_seq
    response = table.client.post(
        f"/api/hands/{entered['id']}/confirm/", {"as_position": 1}, format="json"
    )
    assert response.status_code == 403
    assert REFUSED in response.json()["detail"]
    response = table.client.post(
        f"/api/hands/{entered['id']}/dispute/",
        {"as_position": 1, "reason": "no"},
        format="json",
        headers={"Accept-Language": "ko"},
    )
    assert response.status_code == 403
    assert REFUSED_KO in response.json()["detail"]
    sub = HandSubmission.objects.get(pk=entered["id"])
    assert (sub.status, sub.confirmed_via, sub.disputed_via) == ("pending", "", "")
    assert HandSubmission.history.filter(id=sub.pk).count() == rows
    assert Match.objects.get(pk=match.pk).live_seq == seq
    # The other side's own link, and a director, still confirm.
    confirmed = seat_api(match.pk, 1).action(entered["id"], "confirm")
    assert confirmed["confirmed_via"] == "seat_link"
    second = table.hand(match.pk, as_position=0, **KNOCK)
    table.action(second["id"], "withdraw", as_position=0)  # withdrawing stays open to it
    third = table.hand(match.pk, as_position=0, **KNOCK)
    director = client_for(event_director(match.event))
    assert director.action(third["id"], "confirm")["confirmed_via"] == "session"


def test_without_the_option_the_tables_phone_confirms():
    match = _match()
    table = seat_api(match.pk, None)
    entered = table.hand(match.pk, as_position=0, **KNOCK)
    assert table.action(entered["id"], "confirm", as_position=1)["status"] == "confirmed"


def _phone(match: Match, position: int | None, language: str = "en") -> PageClient:
    """A browser that opened the link of ``position`` (None: the table's), as a phone does."""
    phone = PageClient(HTTP_ACCEPT_LANGUAGE=language)
    secret = match_link_token(match=match, position=position)
    assert phone.get(f"/l/{secret}/").status_code == 200
    return phone


def test_with_the_option_the_page_offers_no_confirmation_on_the_tables_phone_and_refuses_one():
    match = _match(confirm_by_seat_link=True)
    table = _phone(match, None)
    entry = {"mode": "counts", "as_position": "0", "knocker": "0", "outcome": "knock"}
    entry |= {"knocker_deadwood": "5", "defender_deadwood": "25"}
    assert table.post(f"/matches/{match.pk}/hands/", entry).status_code == 302
    sub = HandSubmission.objects.get()
    assert sub.submitted_via == "table_link"
    page = _text(table.get(f"/matches/{match.pk}/"))
    assert f"/entries/{sub.pk}/confirm/" not in page
    assert f"/entries/{sub.pk}/dispute/" not in page
    assert "Cleo confirms on their own seat's link" in page
    confirm = f"/matches/{match.pk}/entries/{sub.pk}/confirm/"
    response = table.post(confirm, {"as_position": "1"})
    assert response.status_code == 403
    assert REFUSED in _text(response)
    ko = _phone(match, None, "ko")
    response = ko.post(
        f"/matches/{match.pk}/entries/{sub.pk}/dispute/", {"as_position": "1", "reason": "아님"}
    )
    assert response.status_code == 403
    assert REFUSED_KO in _text(response)
    sub.refresh_from_db()
    assert sub.status == "pending"
    # Cleo's own link confirms on the page.
    cleo = _phone(match, 1)
    assert f"/entries/{sub.pk}/confirm/" in _text(cleo.get(f"/matches/{match.pk}/"))
    assert cleo.post(confirm).status_code == 302
    sub.refresh_from_db()
    assert (sub.status, sub.confirmed_via) == ("confirmed", "seat_link")


def test_the_option_is_true_or_false_and_the_settings_form_offers_it():
    event = EventFactory(confirmation="opponent")
    director = client_for(event_director(event))
    response = director.client.patch(
        f"/api/events/{event.pk}/", {"options": {"confirm_by_seat_link": "yes"}}, format="json"
    )
    assert response.status_code == 400
    assert "confirm_by_seat_link" in response.json()["detail"]
    response = director.client.patch(
        f"/api/events/{event.pk}/", {"options": {"confirm_by_seat_link": True}}, format="json"
    )
    assert response.status_code == 200
    assert response.json()["options"] == {"confirm_by_seat_link": True}
    page = Client()
    page.force_login(event_director(event))
    assert "id_opt_confirm_by_seat_link" in _text(page.get(f"/events/{event.pk}/settings/"))
