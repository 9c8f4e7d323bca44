"""The API contract: Schemathesis walks every operation of /api/schema/ against the live app.

For each operation it sends generated requests (valid and invalid bodies, parameters and
headers) to a running server, signed in as the club's admin with an API token, and asserts that
no response is a server error and that every response matches what the schema documents for
its status code. Path ids are mostly those of a real club night (a club, players, an event with
registrations, a match with a confirmed and a pending hand; a single elimination with its
bracket drawn), so operations reach their 2xx answers as well as their 4xx ones; every GET must
reach a 2xx at least once.

Run it alone with ``pytest tests/contract -m contract``; ``.ci/run`` runs it as a named phase.
"""

from __future__ import annotations

import json
import zlib
from typing import Any

import pytest
import requests
import schemathesis
from django.core.cache import cache
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.renderers import OpenApiJsonRenderer
from hypothesis import HealthCheck, given, settings
from rest_framework.test import APIClient
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import response_schema_conformance

from clubs.models import ClubRole
from core.services import api_token_create
from entries.models import Entry
from passes.links import pass_secret
from passes.services import pass_ensure
from scoring.models import Match
from scoring.services import match_link_token
from tests.clubs.factories import ClubRoleFactory, PlayerFactory
from tests.tournaments.factories import EventFactory, RegistrationFactory

pytestmark = [pytest.mark.contract, pytest.mark.django_db(transaction=True)]

EXAMPLES = 20
KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}


def _seed() -> dict[str, Any]:
    """A club night with a match in play; the ids each path parameter should mostly take."""
    role: Any = ClubRoleFactory(role=ClubRole.Role.ADMIN)
    event = EventFactory(club=role.club, confirmation="opponent")
    players = [PlayerFactory(club=role.club) for _ in range(4)]
    registrations = [RegistrationFactory(event=event, player=p) for p in players]
    _made, token = api_token_create(user=role.user)
    director = APIClient()
    director.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    started = director.post(
        "/api/matches/",
        {"event": event.pk, "players": [players[0].pk, players[1].pk], "table_number": 1},
        format="json",
    )
    assert started.status_code == 201, started.content
    match = Match.objects.get(pk=started.json()["id"])
    seat0, seat1 = APIClient(), APIClient()
    seat0.credentials(HTTP_X_MATCH_KEY=match_link_token(match=match, position=0))
    seat1.credentials(HTTP_X_MATCH_KEY=match_link_token(match=match, position=1))
    first = seat0.post(f"/api/matches/{match.pk}/hands/", KNOCK, format="json").json()
    assert seat1.post(f"/api/hands/{first['id']}/confirm/", {}, format="json").status_code == 200
    pending = seat0.post(f"/api/matches/{match.pk}/hands/", KNOCK, format="json").json()
    # A single elimination with its bracket drawn: rounds and a bracket to read.
    cup = EventFactory(club=role.club, kind="single_elim", confirmation="none")
    for player in players:
        RegistrationFactory(event=cup, player=player, status="checked_in")
    drawn = director.post(f"/api/events/{cup.pk}/rounds/", format="json")
    assert drawn.status_code == 201, drawn.content
    # A player's pass: the holder's view is read with its secret in X-Pass-Key.
    pass_key = pass_secret(pass_ensure(registration=registrations[0]))
    # Online entries: one awaiting approval and one waiting, for the entry operations to reach.
    entries = [
        Entry.objects.create(event_id=event.pk, name="Entrant"),
        Entry.objects.create(
            event_id=event.pk, name="Waiting", status=Entry.Status.WAITING, waiting_position=1
        ),
    ]
    return {
        "token": token,
        "ids": {
            "club_id": [role.club.pk],
            "player_id": [p.pk for p in players],
            "event_id": [event.pk, cup.pk],
            "registration_id": [r.pk for r in registrations],
            "role_id": [role.pk],
            "match_id": [match.pk],
            "submission_id": [first["id"], pending["id"]],
            "number": [1],
            "token": [registrations[0].checkin_token],
            "entry_id": [e.pk for e in entries],
            "X-Pass-Key": [pass_key],
        },
    }


@pytest.fixture
def world(live_server: Any) -> dict[str, Any]:
    # Each operation starts with no rate-limit counts: the random link secrets one operation
    # sends must not lock the next one's seats out (429) before it begins.
    cache.clear()
    return {**_seed(), "url": live_server.url}


def _served_schema() -> dict[str, Any]:
    """The schema exactly as /api/schema/ serves it (same generator, same JSON renderer)."""
    generated = SchemaGenerator().get_schema(request=None, public=True)
    return json.loads(OpenApiJsonRenderer().render(generated))


# Built at collection (one test per operation); test_the_live_schema_is_the_one_walked checks
# that the running server serves this very schema.
SCHEMA = _served_schema()
schema = schemathesis.openapi.from_dict(SCHEMA)


def test_the_live_schema_is_the_one_walked(live_server: Any) -> None:
    served = requests.get(f"{live_server.url}/api/schema/?format=json", timeout=30)
    assert served.status_code == 200
    assert served.json() == SCHEMA
    assert len(SCHEMA["paths"]) >= 35


def _real_ids(case: Any, ids: dict[str, list[Any]]) -> None:
    """Three times in four, point a generated path id at a stored object (so 2xx are reached);
    otherwise keep the generated value (so 404s and odd values are tried too)."""
    for name, value in list((case.path_parameters or {}).items()):
        known = ids.get(name)
        if not known:
            continue
        pick = zlib.crc32(str(value).encode())
        if pick % 4:
            case.path_parameters[name] = known[pick % len(known)]
    # A secret header (a pass's) likewise: mostly a real one, sometimes the generated value.
    for name, value in list((case.headers or {}).items()):
        known = ids.get(name)
        if known and zlib.crc32(str(value).encode()) % 4:
            case.headers[name] = known[0]


METHODS = ("get", "post", "put", "patch", "delete")
OPERATIONS = [
    pytest.param(path, method, id=f"{method.upper()} {path}")
    for path, item in SCHEMA["paths"].items()
    for method in item
    if method in METHODS
]


@pytest.mark.parametrize(("path", "method"), OPERATIONS)
def test_every_operation_answers_as_documented(
    path: str, method: str, world: dict[str, Any]
) -> None:
    statuses: list[int] = []

    @given(case=schema[path][method.upper()].as_strategy())
    @settings(
        max_examples=EXAMPLES,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def walk(case: Any) -> None:
        _real_ids(case, world["ids"])
        response = case.call(
            base_url=world["url"], headers={"Authorization": f"Token {world['token']}"}
        )
        statuses.append(response.status_code)
        checks = [response_schema_conformance]
        # /api/health/ is 503 by design while no worker runs (documented, with the same body).
        if not (path == "/api/health/" and response.status_code == 503):
            checks.append(not_a_server_error)
        case.validate_response(response, checks=checks)

    walk()
    assert statuses
    if method == "get" and path != "/api/health/":
        # A read of real objects, signed in as the club's admin, is answered, not only refused.
        assert any(200 <= status < 300 for status in statuses), sorted(set(statuses))
