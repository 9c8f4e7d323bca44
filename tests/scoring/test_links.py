"""Private links: opaque stored secrets, exchanged for a seat session, revocable, expiring,
rate-limited when guessed; each seat sees only its own."""

from __future__ import annotations

import re
from datetime import timedelta
from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone

from scoring.links import SECRET_LENGTH, digest_of, secret_of
from scoring.models import Match, MatchKey
from scoring.services import match_keys_ensure, match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _clear_cache():
    cache.clear()
    yield
    cache.clear()


def _match() -> Any:
    event = EventFactory(confirmation="opponent")
    players = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    return MatchFactory(event=event, players=players)


def _director_client(match: Match) -> Client:
    client = Client()
    client.force_login(event_director(match.event))
    return client


def test_a_secret_is_random_opaque_and_only_its_digest_is_stored():
    match = _match()
    secrets_ = {match_link_token(match=match, position=p) for p in (None, 0, 1)}
    assert len(secrets_) == 3
    for secret in secrets_:
        assert len(secret) == SECRET_LENGTH  # 32 base64url characters: 192 bits
        assert re.fullmatch(r"[A-Za-z0-9_-]+", secret)
        assert str(match.pk) not in secret.split("-")
    stored = list(MatchKey.objects.filter(match=match).values_list("nonce", "digest"))
    for nonce, digest in stored:
        assert digest == digest_of(secret_of(nonce))
        assert all(secret not in (nonce, digest) for secret in secrets_)


def test_a_link_is_stable_until_reissued():
    match = _match()
    first = match_link_token(match=match, position=0)
    match_keys_ensure(match=match)
    assert match_link_token(match=match, position=0) == first


def test_following_a_link_gives_a_seat_session_and_a_clean_url():
    match = _match()
    secret = match_link_token(match=match, position=0)
    client = Client()
    response = client.get(f"/l/{secret}/")
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"
    assert response["Referrer-Policy"] == "no-referrer"
    page = client.get(f"/matches/{match.pk}/").content.decode()
    assert 'id="entry"' in page  # the session holds the seat
    assert secret in page  # the player's own link is shown to them ...
    assert match_link_token(match=match, position=1) not in page  # ... and nobody else's
    assert match_link_token(match=match) not in page  # not even the table link
    assert "?k=" not in page


def test_an_old_style_k_parameter_is_exchanged_and_removed_from_the_address():
    match = _match()
    secret = match_link_token(match=match, position=1)
    client = Client()
    response = client.get(f"/matches/{match.pk}/?k={secret}&tab=cards")
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/?tab=cards"
    assert 'id="entry"' in client.get(response["Location"]).content.decode()


def test_a_director_not_seated_sees_every_link_and_the_table_link():
    match = _match()
    page = _director_client(match).get(f"/matches/{match.pk}/").content.decode()
    for position in (None, 0, 1):
        assert match_link_token(match=match, position=position) in page
    links = _director_client(match).get(f"/matches/{match.pk}/links/")
    assert links.status_code == 200
    assert match_link_token(match=match) in links.content.decode()


def test_a_seat_link_page_never_shows_the_links_page():
    match = _match()
    client = Client()
    client.get(f"/l/{match_link_token(match=match, position=0)}/")
    assert client.get(f"/matches/{match.pk}/links/").status_code == 403


def test_reissuing_one_seat_revokes_its_old_link_only():
    match = _match()
    old0 = match_link_token(match=match, position=0)
    old1 = match_link_token(match=match, position=1)
    player = Client()
    player.get(f"/l/{old0}/")
    response = _director_client(match).post(f"/matches/{match.pk}/links/", {"reissue": "0"})
    assert response.status_code == 302
    assert Client().get(f"/l/{old0}/").status_code == 404
    assert Client().get(f"/l/{old1}/").status_code == 302
    new0 = match_link_token(match=match, position=0)
    assert new0 != old0
    assert Client().get(f"/l/{new0}/").status_code == 302
    # the browser that held the old link lost its seat too
    assert 'id="entry"' not in player.get(f"/matches/{match.pk}/").content.decode()


def test_reissuing_all_revokes_every_link_and_the_api_answers_404_for_them():
    match = _match()
    old = [match_link_token(match=match, position=p) for p in (None, 0, 1)]
    _director_client(match).post(f"/matches/{match.pk}/links/", {"reissue": "all"})
    for secret in old:
        assert Client().get(f"/l/{secret}/").status_code == 404
        response = Client().get(f"/api/matches/{match.pk}/hands/", HTTP_X_MATCH_KEY=secret)
        assert response.status_code == 404


def test_the_api_takes_the_secret_or_the_whole_link_in_the_header():
    match = _match()
    secret = match_link_token(match=match, position=0)
    for value in (secret, f"http://testserver/l/#{secret}", f"http://testserver/l/{secret}/"):
        response = Client().get(f"/api/matches/{match.pk}/hands/", HTTP_X_MATCH_KEY=value)
        assert response.status_code == 200


def test_the_api_ignores_k_in_the_query_string():
    match = _match()
    secret = match_link_token(match=match, position=0)
    assert Client().get(f"/api/matches/{match.pk}/hands/?k={secret}").status_code == 404


def test_links_expire_a_set_time_after_the_match_is_final(settings):
    settings.KNOCK_LINK_TTL_HOURS = 24
    match = _match()
    secret = match_link_token(match=match, position=0)
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINISHED, finished_at=timezone.now() - timedelta(hours=23)
    )
    hands = f"/api/matches/{match.pk}/hands/"
    assert Client().get(hands, HTTP_X_MATCH_KEY=secret).status_code == 200
    Match.objects.filter(pk=match.pk).update(finished_at=timezone.now() - timedelta(hours=25))
    assert Client().get(hands, HTTP_X_MATCH_KEY=secret).status_code == 404
    client = Client()
    response = client.get(f"/l/{secret}/", follow=True)
    assert response.status_code == 200  # the final score sheet stays readable
    html = response.content.decode()
    assert "This link has expired" in html
    assert 'id="entry"' not in html


def test_invalid_links_are_rate_limited_per_address_but_a_valid_link_always_opens(settings):
    settings.KNOCK_LINK_FAILURE_LIMIT = 5
    match = _match()
    good = match_link_token(match=match, position=0)
    for _ in range(5):
        assert Client().get(f"/l/{'x' * SECRET_LENGTH}/").status_code == 404
    refused = Client().get(f"/l/{'y' * SECRET_LENGTH}/")
    assert refused.status_code == 429
    assert int(refused["Retry-After"]) == settings.KNOCK_LINK_FAILURE_WINDOW
    api = Client().get(f"/api/matches/{match.pk}/hands/", HTTP_X_MATCH_KEY="z" * SECRET_LENGTH)
    assert api.status_code == 429
    assert api["Content-Type"].startswith("application/json")
    assert "Retry-After" in api
    # a valid link from that same address still opens, on the pages and the API
    assert Client().get(f"/l/{good}/").status_code == 302
    response = Client().get(f"/api/matches/{match.pk}/hands/", HTTP_X_MATCH_KEY=good)
    assert response.status_code == 200
    # another address's invalid link is a plain 404
    assert Client(REMOTE_ADDR="10.0.0.9").get(f"/l/{'x' * SECRET_LENGTH}/").status_code == 404


def test_the_start_response_gives_a_seated_director_only_their_own_link():
    event = EventFactory()
    from tests.clubs.factories import UserFactory

    user = UserFactory(username="dee")
    event.directors.add(user)
    dee = PlayerFactory(club=event.club, name="Dee", user=user)
    other = PlayerFactory(club=event.club, name="Eve")
    client = Client()
    client.force_login(user)
    body = client.post(
        "/api/matches/",
        {"event": event.pk, "players": [dee.pk, other.pk]},
        content_type="application/json",
    ).json()
    assert body["links"]["table"] is None
    assert list(body["links"]["seats"]) == ["0"]
    match = Match.objects.get(pk=body["id"])
    own = match_link_token(match=match, position=0)
    assert body["links"]["seats"]["0"] == f"http://testserver/l/#{own}"


def test_after_a_key_change_links_rekey_makes_links_work_again(settings):
    from django.core.management import call_command

    match = _match()
    old = match_link_token(match=match, position=0)
    settings.KNOCK_LINK_KEY = "a-new-link-key-" + "x" * 40
    new = match_link_token(match=match, position=0)
    assert new != old
    assert Client().get(f"/l/{new}/").status_code == 404  # digests are still the old key's
    call_command("links_rekey")
    assert Client().get(f"/l/{new}/").status_code == 302
    assert Client().get(f"/l/{old}/").status_code == 404


def test_link_secrets_are_not_kept_in_idempotency_records():
    from scoring.models import IdempotencyRecord

    event = EventFactory()
    players = [PlayerFactory(club=event.club).pk for _ in range(2)]
    client = Client()
    client.force_login(event_director(event))
    body = {"event": event.pk, "players": players}
    first = client.post(
        "/api/matches/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="start-1"
    )
    assert first.status_code == 201
    secrets_ = [first.json()["links"]["table"], *first.json()["links"]["seats"].values()]
    stored = str(IdempotencyRecord.objects.get().response)
    assert all(url.rsplit("#", 1)[1] not in stored for url in secrets_)
    replay = client.post(
        "/api/matches/", body, content_type="application/json", HTTP_IDEMPOTENCY_KEY="start-1"
    )
    assert replay["Idempotent-Replayed"] == "true"
    assert replay.json()["links"] == first.json()["links"]


def test_a_link_in_the_fragment_is_posted_by_the_page_and_never_in_a_request_path():
    match = _match()
    secret = match_link_token(match=match, position=1)
    client = Client()
    page = client.get("/l/")  # what the browser requests for /l/#<secret>
    assert page.status_code == 200
    assert 'id="link-open"' in page.content.decode()
    assert "js/link.js" in page.content.decode()
    response = client.post("/l/", {"secret": secret})
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/"
    assert 'id="entry"' in client.get(response["Location"]).content.decode()
    # pasting the whole link works too; a bad one is 404 and counts against the address
    assert Client().post("/l/", {"secret": f"http://x/l/#{secret}"}).status_code == 302
    assert Client().post("/l/", {"secret": "nope"}).status_code == 404
