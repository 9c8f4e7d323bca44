"""Property: every write endpoint answers random bodies and parameters with a 4xx that changes
nothing (or a 2xx), never a 5xx.

The endpoints are read from the OpenAPI schema (every POST, PUT, PATCH and DELETE), so a new
endpoint is fuzzed without editing this file. Path ids point at real rows of a small world (an
event with a match, an entry waiting, a registration, a role), and requests are sent as the
event's director (who gets furthest into validation), as a seat link and anonymously.

Text is drawn from all of Unicode, lone surrogates included (``"\\ud800"`` in JSON; in a page's
form, a multipart body that declares the charset ``unicode_escape``), and every place of every
write endpoint's request body, as the schema describes it, is sent a lone surrogate once: a 400
naming that place, nothing stored.
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
from tests.clubs.factories import ClubRoleFactory, PlayerFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory, RegistrationFactory

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
LONE = "\ud800"
ODD = ["²", "١٢", "-1", "0", "1e9", "AS 2S 3S", "", " ", "null", "9" * 40, "\x00", "😀"]
ODD += ["\u200b", "\ufeff\u2066", "A\u200dB", "\u3164"]
# Text no UTF-8 can hold: in bodies only (a query string or a path cannot carry it).
UNENCODABLE = [LONE, "\udfff\ud800", f"Ann{LONE}"]

# Hypothesis leaves surrogates out of text: one is spliced in here and there.
texts = st.text(max_size=12) | st.builds(
    lambda head, char, tail: head + char + tail,
    st.text(max_size=5),
    st.characters(categories=["Cs"]),
    st.text(max_size=5),
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | texts
    | st.sampled_from(ODD + UNENCODABLE)
)
keys = st.sampled_from(FIELDS) | texts.map(lambda text: text[:6])
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


def _schema() -> dict[str, Any]:
    return Client().get("/api/schema/", HTTP_ACCEPT="application/json").json()


def _write_endpoints(schema: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    schema = schema or _schema()
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
        "invitation_id": 1,
        "entry_id": 1,
        "action": "approve",
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


# -- a lone surrogate in every place of every request body ---------------------------------------

Place = list[str | int]


def _resolved(schema: dict[str, Any], components: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in schema:
        schema = components[schema["$ref"].rsplit("/", 1)[-1]]
    return schema


def _places(schema: dict[str, Any], components: dict[str, Any], depth: int = 0) -> list[Place]:
    """Every place a body following ``schema`` has (a path of keys and list indexes): each
    property, and inside objects and lists, each of theirs."""
    schema = _resolved(schema, components)
    parts = [schema, *(schema.get(k, []) for k in ("allOf", "oneOf", "anyOf"))]
    members = [schema] + [_resolved(m, components) for group in parts[1:] for m in group]
    places: list[Place] = []
    for member in members:
        for name, sub in member.get("properties", {}).items():
            places.append([name])
            if depth < 4:
                places.extend([name, *rest] for rest in _places(sub, components, depth + 1))
        if "items" in member and depth < 4:
            places.append([0])
            places.extend([0, *rest] for rest in _places(member["items"], components, depth + 1))
    unique = {json.dumps(place): place for place in places}
    return list(unique.values())


def _body_at(place: Place, text: str) -> Any:
    value: Any = text
    for step in reversed(place):
        value = [value] if isinstance(step, int) else {step: value}
    return value


def _place_name(place: Place) -> str:
    name = ""
    for step in place:
        name += f"[{step}]" if isinstance(step, int) else (f".{step}" if name else str(step))
    return name


def test_every_place_of_every_write_body_refuses_a_lone_surrogate_naming_it(world):
    """Each string (or any) field of each write endpoint's body, nested ones too, and a key:
    a 400 naming the field, never a 5xx, nothing stored."""
    schema = _schema()
    components = schema["components"]["schemas"]
    clients = {who: _client(world, who) for who in ("director", "seat")}
    before = _snapshot()
    named: set[str] = set()
    with_body = set()
    for method, path in _write_endpoints(schema):
        content = schema["paths"][path][method].get("requestBody", {}).get("content", {})
        if "application/json" not in content:
            continue
        with_body.add(path)
        target = re.sub(r"\{(\w+)\}", lambda m: str(world["ids"].get(m.group(1), 1)), path)
        places = [*_places(content["application/json"]["schema"], components), [LONE]]
        for place in places:
            for who, client in clients.items():
                cache.clear()
                body = json.dumps(_body_at(place, f"A{LONE}b"))
                response = getattr(client, method)(target, body, content_type="application/json")
                assert 400 <= response.status_code < 500, (who, method, path, place, response)
                if response.status_code == 400:
                    assert response.json()["field"] == _place_name(place).replace(LONE, "\\ud800")
                    named.add(path)
                    break
    assert _snapshot() == before
    # As the director or a seat, every endpoint with a body reads it (none refuses first). The
    # pass's seat routes are scoring's seat-link views with the X-Pass-Key standing in for the
    # seat's key (passes.apis): without a pass they refuse first, and their bodies are the seat
    # routes' bodies, read above by the same code.
    pass_seat = {path for path in with_body if "/pass/seat/" in path}
    assert named == with_body - pass_seat, sorted(with_body - pass_seat - named)


# -- the pages: every route, posted random form data --------------------------------------------

form_values = st.sampled_from(ODD + UNENCODABLE) | texts | st.integers(-5, 10**6).map(str)
forms = st.dictionaries(
    st.sampled_from([*FIELDS, "mode", "reissue", "action", "rows", "h0_knocker", "next"]),
    form_values | st.lists(form_values, max_size=3),
    max_size=8,
)


ESCAPED_MULTIPART = "multipart/form-data; boundary=FUZZ; charset=unicode_escape"


def _encodable(data: dict[str, Any]) -> bool:
    items = [v for value in data.values() for v in (value if isinstance(value, list) else [value])]
    return not any(LONE <= char <= "\udfff" for item in items for char in str(item))


def _escaped_multipart(data: dict[str, Any]) -> bytes:
    """``data`` as a multipart body whose text is written in the charset unicode_escape."""
    parts = []
    for name, value in data.items():
        for item in value if isinstance(value, list) else [value]:
            text = str(item).encode("unicode_escape").decode("ascii")
            parts.append(
                f'--FUZZ\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{text}\r\n'
            )
    return ("".join(parts) + "--FUZZ--\r\n").encode("ascii")


def _page_routes() -> list[tuple[str, str]]:
    from passes import page_urls as pass_pages
    from scoring import page_urls as scoring_pages
    from tournaments import page_urls as tournament_pages

    skip = {"logout", "import-example", "home-feed", "event-rules-fields"}
    return [
        (str(p.pattern), str(p.name))
        for p in [
            *tournament_pages.urlpatterns,
            *scoring_pages.urlpatterns,
            *pass_pages.urlpatterns,
        ]
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
        "match_id": ids["match_id"],
        "player_id": ids["player_id"],
        "role_id": ids["role_id"],
        "registration_id": ids["registration_id"],
        "number": 1,
        "token": "not-a-token",
        "secret": "x" * 32,
        "what": "standings",
        "fmt": "csv",
        "uidb64": "MQ",
        "invitation_id": 1,
        "entry_id": 1,
        "action": "approve",
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
        if _encodable(data):
            response = client.post(target, data)
        else:  # a form can carry a lone surrogate only in a charset other than UTF-8
            body = _escaped_multipart(data)
            response = client.generic("POST", target, body, content_type=ESCAPED_MULTIPART)
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
