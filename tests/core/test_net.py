"""The client's address behind a proxy and behind one Wi-Fi address: one function for the link
limit, the sign-in limit and everything else; a valid link always opens; nobody can lock the
director out; the limit counts exactly across processes and never refuses when it cannot count."""

from __future__ import annotations

import json
import logging
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.cache import cache
from django.core.management import call_command
from django.core.management.base import SystemCheckError
from django.test import Client, RequestFactory

from core.cache import LockedFileBasedCache
from core.net import client_ip, parse_address, resolve_client, trusted_networks
from scoring.links import SECRET_LENGTH
from scoring.services import match_link_token
from tests.clubs.factories import PASSWORD, PlayerFactory, UserFactory
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory

ROOT = Path(__file__).resolve().parents[2]
NGINX = "127.0.0.1"
BAD = "x" * SECRET_LENGTH


@pytest.fixture
def director_match():
    event = EventFactory(confirmation="opponent")
    players = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    return MatchFactory(event=event, players=players)


def _resolve(remote: str, forwarded: str = "", proxies: tuple[str, ...] = ()) -> str:
    from core.net import parse_networks

    return resolve_client(remote, forwarded, parse_networks(proxies))


# -- the rule ------------------------------------------------------------------------------------


def test_without_trusted_proxies_the_header_is_ignored():
    assert _resolve("203.0.113.7", "198.51.100.1") == "203.0.113.7"


def test_from_a_trusted_proxy_the_nearest_untrusted_address_is_the_client():
    assert _resolve(NGINX, "198.51.100.1", (NGINX,)) == "198.51.100.1"
    # a client's own forged entries sit to the left of what the proxy appended: never read
    assert _resolve(NGINX, "10.9.9.9, 1.2.3.4, 198.51.100.1", (NGINX,)) == "198.51.100.1"
    # several proxies (a load balancer, then nginx): each trusted hop is skipped
    proxies = (NGINX, "10.0.0.0/8")
    assert _resolve(NGINX, "6.6.6.6, 198.51.100.1, 10.0.0.5", proxies) == "198.51.100.1"


def test_a_request_not_from_a_proxy_cannot_forge_its_address():
    assert _resolve("198.51.100.9", "127.0.0.1", (NGINX,)) == "198.51.100.9"


def test_garbage_ends_the_walk_at_what_the_proxy_saw():
    assert _resolve(NGINX, "unknown", (NGINX,)) == NGINX
    assert _resolve(NGINX, "198.51.100.1, <script>", (NGINX,)) == NGINX
    assert _resolve(NGINX, "", (NGINX,)) == NGINX


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1.2.3.4", "1.2.3.4"),
        (" 1.2.3.4:5678 ", "1.2.3.4"),
        ("[2001:db8::1]:443", "2001:db8::1"),
        ("2001:db8::1", "2001:db8::1"),
        ("::ffff:192.0.2.1", "192.0.2.1"),
        ("unknown", None),
        ("", None),
        ("knock.example", None),
    ],
)
def test_addresses_as_proxies_write_them(text, expected):
    parsed = parse_address(text)
    assert (str(parsed) if parsed else None) == expected


def test_client_ip_reads_the_setting(settings):
    request = RequestFactory().get("/", REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR="198.51.100.4")
    settings.KNOCK_TRUSTED_PROXIES = []
    assert client_ip(request) == NGINX
    settings.KNOCK_TRUSTED_PROXIES = ["127.0.0.0/8"]
    fresh = RequestFactory().get("/", REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR="198.51.100.4")
    assert client_ip(fresh) == "198.51.100.4"
    assert trusted_networks()[0].num_addresses == 2**24


# -- the link limit behind a proxy and behind one Wi-Fi address ----------------------------------


def _behind(address: str) -> Client:
    """A phone whose requests reach Knock through nginx on 127.0.0.1."""
    return Client(REMOTE_ADDR=NGINX, HTTP_X_FORWARDED_FOR=address)


@pytest.mark.django_db
def test_an_outsiders_bad_links_never_stop_the_clubs_links(settings, director_match):
    settings.KNOCK_TRUSTED_PROXIES = [NGINX]
    settings.KNOCK_LINK_FAILURE_LIMIT = 20
    match = director_match
    good = match_link_token(match=match, position=0)
    attacker = _behind("198.51.100.66")
    answers = [attacker.get(f"/l/{BAD}/").status_code for _ in range(25)]
    assert answers[:20] == [404] * 20
    assert set(answers[20:]) == {429}
    # the club's phones, behind the same nginx: valid links open, their own typos are 404s
    club = _behind("203.0.113.10")
    assert club.get(f"/l/{good}/").status_code == 302
    assert club.get(f"/l/{BAD}/").status_code == 404
    api = _behind("203.0.113.11").get(f"/api/matches/{match.pk}/hands/", HTTP_X_MATCH_KEY=good)
    assert api.status_code == 200


@pytest.mark.django_db
def test_a_room_behind_one_address_keeps_opening_valid_links(settings, director_match):
    settings.KNOCK_LINK_FAILURE_LIMIT = 20
    match = director_match
    good = match_link_token(match=match, position=1)
    room = Client(REMOTE_ADDR="192.0.2.50")
    for _ in range(30):  # an old slip scanned again and again
        room.get(f"/l/{BAD}/")
    refused = room.get(f"/l/{BAD}/")
    assert refused.status_code == 429
    assert "Retry-After" in refused
    assert 'id="link-refused"' in refused.content.decode()
    for _ in range(3):
        assert Client(REMOTE_ADDR="192.0.2.50").get(f"/l/{good}/").status_code == 302
    response = Client(REMOTE_ADDR="192.0.2.50").get(
        f"/api/matches/{match.pk}/hands/", HTTP_X_MATCH_KEY=good
    )
    assert response.status_code == 200


@pytest.mark.django_db
def test_a_refused_link_page_speaks_the_readers_language(director_match):
    response = Client().get(f"/l/{BAD}/", HTTP_ACCEPT_LANGUAGE="ko")
    assert response.status_code == 404
    html = response.content.decode()
    assert 'lang="ko"' in html
    assert 'id="link-refused"' in html
    assert "This link is not valid" not in html


@pytest.mark.django_db
def test_a_cache_that_cannot_count_lets_valid_links_through(settings, director_match, caplog):
    settings.CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there
            "OPTIONS": {"socket_connect_timeout": 0.2, "socket_timeout": 0.2},
        }
    }
    match = director_match
    good = match_link_token(match=match, position=0)
    with caplog.at_level(logging.WARNING, logger="scoring.links"):
        for _ in range(3):
            assert Client().get(f"/l/{BAD}/").status_code == 404
        assert Client().get(f"/l/{good}/").status_code == 302
    assert "cannot count invalid links" in caplog.text
    assert good not in caplog.text


# -- the counter is atomic across processes ------------------------------------------------------

_COUNT = """
import sys
from django.conf import settings
settings.configure()
from core.cache import LockedFileBasedCache
c = LockedFileBasedCache(sys.argv[1], {})
for _ in range(int(sys.argv[2])):
    if not c.add("n", 1, timeout=600):
        c.incr("n")
"""


def test_the_file_cache_counts_exactly_across_processes(tmp_path):
    processes = [
        subprocess.Popen([sys.executable, "-c", _COUNT, str(tmp_path), "60"], cwd=ROOT)
        for _ in range(6)
    ]
    assert all(p.wait(timeout=120) == 0 for p in processes)
    assert LockedFileBasedCache(str(tmp_path), {}).get("n") == 360


def test_incr_keeps_the_window(tmp_path):
    c = LockedFileBasedCache(str(tmp_path), {})
    assert c.add("k", 1, timeout=2)
    assert c.incr("k") == 2
    with open(c._key_to_file("k"), "rb") as f:
        import pickle
        import time

        assert pickle.load(f) - time.time() <= 2
    with pytest.raises(ValueError):
        c.incr("missing")


# -- sign-in: the pair is locked, never the account nor the address alone ------------------------


@pytest.mark.django_db
def test_guessing_the_directors_password_from_outside_locks_only_the_guesser(settings):
    settings.KNOCK_TRUSTED_PROXIES = [NGINX]
    settings.AXES_FAILURE_LIMIT = 5
    UserFactory(username="director")
    UserFactory(username="mina")
    attacker = _behind("198.51.100.66")
    for _ in range(8):
        attacker.post("/accounts/login/", {"username": "director", "password": "guess"})
    locked = attacker.post("/accounts/login/", {"username": "director", "password": PASSWORD})
    assert locked.status_code == 429
    # the director at the club (another client address, same nginx) signs in
    director = _behind("203.0.113.10")
    response = director.post("/accounts/login/", {"username": "director", "password": PASSWORD})
    assert response.status_code == 302
    # a forged X-Forwarded-For sent past the proxy is one more address of the attacker's, not
    # the director's: the header is read only from the proxy
    forged = Client(REMOTE_ADDR="198.51.100.66", HTTP_X_FORWARDED_FOR="203.0.113.10")
    for _ in range(6):
        forged.post("/accounts/login/", {"username": "director", "password": "guess"})
    response = _behind("203.0.113.10").post(
        "/accounts/login/", {"username": "director", "password": PASSWORD}
    )
    assert response.status_code == 302


@pytest.mark.django_db
def test_the_apis_lockout_is_json_with_retry_after(settings):
    settings.AXES_FAILURE_LIMIT = 3
    UserFactory(username="dana")
    client = Client(REMOTE_ADDR="192.0.2.9")
    for _ in range(3):
        client.post(
            "/api/auth/token/",
            json.dumps({"username": "dana", "password": "wrong"}),
            content_type="application/json",
        )
    response = client.post(
        "/api/auth/token/",
        json.dumps({"username": "dana", "password": PASSWORD}),
        content_type="application/json",
    )
    assert response.status_code == 429
    assert response["Content-Type"].startswith("application/json")
    assert int(response["Retry-After"]) == 15 * 60
    assert "locked" in response.json()["detail"]
    # from another address the same account gets its token
    other = Client(REMOTE_ADDR="192.0.2.10").post(
        "/api/auth/token/",
        json.dumps({"username": "dana", "password": PASSWORD}),
        content_type="application/json",
    )
    assert other.status_code in (200, 201)


# -- check --deploy ------------------------------------------------------------------------------


def test_deploy_check_fails_without_a_shared_cache_and_warns_without_proxies(settings):
    settings.CACHES = {
        "default": {"BACKEND": "core.cache.LockedFileBasedCache", "LOCATION": "/tmp"}
    }
    settings.KNOCK_TRUSTED_PROXIES = []
    with pytest.raises(SystemCheckError) as raised:
        call_command("check", "--deploy", "--fail-level", "ERROR", tags=["security"])
    assert "knock.E001" in str(raised.value)
    assert "knock.W001" in str(raised.value)
    settings.KNOCK_TRUSTED_PROXIES = ["not-an-address"]
    with pytest.raises(SystemCheckError) as raised:
        call_command("check")
    assert "knock.E002" in str(raised.value)
    cache.clear()
