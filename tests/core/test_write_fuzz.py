"""Property: every write endpoint answers random bodies and parameters with a 4xx that changes
nothing (or a 2xx), never a 5xx.

The endpoints are read from the OpenAPI schema (every POST, PUT, PATCH and DELETE), so a new
endpoint is fuzzed without editing this file. Path ids point at real rows of a small world (an
event with a match, an entry waiting, a registration, a role), and requests are sent as the
event's director (who gets furthest into validation), as a seat link and anonymously.
"""

from __future__ import annotations

import hashlib
import json
import re
from typing import Any

import pytest
from django.apps import apps
from django.core.cache import cache
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring.permissions import Actor
from scoring.services import TwoPlayerEntry, hand_submit, match_link_token
from tests.factories import ClubRoleFactory, EventFactory, PlayerFactory, RegistrationFactory
from tests.scoring.factories import MatchFactory, event_director

pytestmark = pytest.mark.django_db
EXAMPLES = 8

FIELDS = [
    "event", "players", "teams", "knocker", "defender", "outcome", "knocker_deadwood",
    "defender_deadwood", "points", "winner", "as_position", "reason", "hand_number", "csv",
    "dry_run", "username", "role", "name", "club", "seat", "table", "boards", "defenders",
    "leftovers", "went_out", "rules", "rule_overrides", "match_format", "first_dealer", "round",
    "game", "hands", "kind", "confirmation", "player", "player_a", "player_b", "cut", "text",
    "knocker_cards", "defender_cards", "knocker_melds", "upcard", "knock_limit", "slug",
    "names", "preset", "deck", "status",
]  # fmt: skip
ODD = ["²", "١٢", "-1", "0", "1e9", "AS 2S 3S", "", " ", "null", "9" * 40, "\x00", "😀"]

scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.sampled_from(ODD)
)
keys = st.sampled_from(FIELDS) | st.text(max_size=6)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(keys, inner, max_size=5),
    max_leaves=16,
)
bodies = st.dictionaries(keys, values, max_size=8) | values
raw_bodies = st.binary(max_size=64) | st.sampled_from([b"[" * 5000, b"{", b'{"a":1e999999}'])
params = st.dictionaries(
    st.sampled_from(["club", "event", "kind", "k", "dry_run"]), st.sampled_from(ODD)
)


def _write_endpoints() -> list[tuple[str, str]]:
    client = Client()
    schema = client.get("/api/schema/", HTTP_ACCEPT="application/json").json()
    found = []
    for path, operations in schema["paths"].items():
        for method in operations:
            if method in ("post", "put", "patch", "delete"):
                found.append((method, path))
    return sorted(found)


def _snapshot() -> str:
    """A digest of every row the apps and accounts keep (not caches, lockout logs or replays)."""
    digest = hashlib.sha256()
    for model in apps.get_models():
        label = model._meta.label
        if model._meta.app_label not in {"auth", "authtoken", "scoring", "tournaments", "core"}:
            continue
        if label in {"scoring.IdempotencyRecord", "core.WorkerHeartbeat"}:
            continue
        rows = list(model.objects.order_by("pk").values_list())
        digest.update(label.encode())
        digest.update(repr(rows).encode())
    return digest.hexdigest()


@pytest.fixture
def world() -> dict[str, Any]:
    event = EventFactory(kind="swiss", confirmation="opponent")
    players = [PlayerFactory(club=event.club) for _ in range(2)]
    match = MatchFactory(event=event, players=players)
    secret = match_link_token(match=match, position=0)
    sub = hand_submit(
        match=match,
        actor=Actor(token=secret),
        entry=TwoPlayerEntry(knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=25),
    )
    director = event_director(event)
    role = ClubRoleFactory(club=event.club, user=director, role="admin")
    registration = RegistrationFactory(event=event, player=players[0])
    ids = {
        "club_id": event.club_id,
        "event_id": event.pk,
        "match_id": match.pk,
        "submission_id": sub.pk,
        "player_id": players[0].pk,
        "registration_id": registration.pk,
        "role_id": role.pk,
        "number": 1,
        "token": "not-a-token",
    }
    return {"ids": ids, "director": director, "secret": secret}


def _client(world: dict[str, Any], who: str) -> Client:
    client = Client()
    if who == "director":
        client.force_login(world["director"])
    elif who == "seat":
        client.defaults["HTTP_X_MATCH_KEY"] = world["secret"]
    return client


@pytest.mark.parametrize("who", ["director", "seat", "anonymous"])
def test_every_write_endpoint_answers_random_input_without_a_5xx_or_a_change(world, who):
    endpoints = _write_endpoints()
    assert len(endpoints) >= 25  # the schema lists them all
    client = _client(world, who)

    def url(path: str) -> str:
        return re.sub(r"\{(\w+)\}", lambda m: str(world["ids"].get(m.group(1), 1)), path)

    def run(endpoint: tuple[str, str], body: Any, query: dict[str, str]) -> None:
        cache.clear()
        method, path = endpoint
        target = url(path)
        if query:
            target += "?" + "&".join(f"{k}={v}" for k, v in query.items())
        data = body if isinstance(body, bytes) else json.dumps(body).encode()
        before = _snapshot()
        response = getattr(client, method)(target, data, content_type="application/json")
        assert response.status_code < 500, (method, target, data[:200], response.content[:300])
        if response.status_code >= 400:
            assert _snapshot() == before, (method, target, data[:200], response.status_code)

    def fuzz(endpoint: tuple[str, str]) -> None:
        @settings(
            max_examples=EXAMPLES,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(body=bodies | raw_bodies, query=params)
        def check(body: Any, query: dict[str, str]) -> None:
            run(endpoint, body, query)

        check()

    for endpoint in endpoints:  # each endpoint gets its own examples: none is left out by chance
        fuzz(endpoint)


# -- the pages: every route, posted random form data --------------------------------------------

form_values = st.sampled_from(ODD) | st.text(max_size=10) | st.integers(-5, 10**6).map(str)
forms = st.dictionaries(
    st.sampled_from([*FIELDS, "mode", "reissue", "action", "rows", "h0_knocker", "next"]),
    form_values | st.lists(form_values, max_size=3),
    max_size=8,
)


def _page_routes() -> list[tuple[str, str]]:
    from scoring import page_urls as scoring_pages
    from tournaments import page_urls as tournament_pages

    skip = {"logout", "import-example", "home-feed", "event-rules-fields"}
    return [
        (str(p.pattern), str(p.name))
        for p in [*tournament_pages.urlpatterns, *scoring_pages.urlpatterns]
        if str(p.name) not in skip
    ]


def _page_url(route: str, world: dict[str, Any]) -> str:
    ids = world["ids"]
    pk = (
        ids["match_id"]
        if route.startswith("matches/")
        else ids["player_id"]
        if route.startswith("players/")
        else ids["event_id"]
    )
    values = {
        "pk": pk,
        "slug": world["slug"],
        "sid": ids["submission_id"],
        "player_id": ids["player_id"],
        "role_id": ids["role_id"],
        "registration_id": ids["registration_id"],
        "number": 1,
        "token": "not-a-token",
        "secret": "x" * 32,
        "what": "standings",
        "fmt": "csv",
    }
    return "/" + re.sub(r"<(?:\w+:)?(\w+)>", lambda m: str(values[m.group(1)]), route)


@pytest.mark.parametrize("who", ["director", "seat", "anonymous"])
def test_every_page_form_answers_random_input_without_a_5xx_or_a_change(world, who):
    from scoring.models import Match

    world["slug"] = Match.objects.get(pk=world["ids"]["match_id"]).event.club.slug
    client = _client(world, "director" if who == "director" else "anonymous")
    if who == "seat":
        client.get(f"/l/{world['secret']}/")

    def run(route: str, data: dict[str, Any], query: dict[str, str]) -> None:
        cache.clear()
        target = _page_url(route, world)
        if query:
            target += "?" + "&".join(f"{k}={v}" for k, v in query.items() if k != "k")
        before = _snapshot()
        response = client.post(target, data)
        assert response.status_code < 500, (target, data, response.content[:300])
        if response.status_code >= 400:
            assert _snapshot() == before, (target, data, response.status_code)

    def fuzz(route: str) -> None:
        @settings(
            max_examples=4,
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(data=forms, query=params)
        def check(data: dict[str, Any], query: dict[str, str]) -> None:
            run(route, data, query)

        check()

    for route, _name in _page_routes():
        fuzz(route)
