"""The whole permission matrix, as data: actor × action × policy, through the real API routes.

The table: Alice (seat 0) and Bob (seat 1) play match M of an event. Alice has an account (the
"player-user"); Bob's account directs the event (the "seated director"). The entry acted on is
Alice's, entered on her own seat link. Each cell names the outcome class of the response:
``ok`` (2xx), ``forbidden`` (401/403), ``hidden`` (404: the match is not revealed), ``bad``
(400), ``conflict`` (409). Every refused cell also checks that nothing changed.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from scoring.models import HandSubmission, MatchKey
from scoring.permissions import Actor
from scoring.services import TwoPlayerEntry, hand_submit, match_link_token
from tests.clubs.factories import ClubRoleFactory, PlayerFactory, UserFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.tournaments.factories import EventFactory, RegistrationFactory

pytestmark = pytest.mark.django_db

KNOCK = {"knocker": 0, "outcome": "knock", "knocker_deadwood": 5, "defender_deadwood": 25}

ACTORS = (
    "anonymous",
    "own_link",
    "opponent_link",
    "table_link",
    "other_match_link",
    "player_user",
    "seated_director",
    "event_director",
    "other_club_director",
    "staff",
)


@dataclass
class World:
    event: Any
    match: Any
    other: Any
    alice_user: Any
    bob_user: Any
    director: Any
    stranger_director: Any
    staff: Any

    def client(self, actor: str) -> APIClient:
        client = APIClient()
        secret = None
        if actor == "own_link":
            secret = match_link_token(match=self.match, position=0)
        elif actor == "opponent_link":
            secret = match_link_token(match=self.match, position=1)
        elif actor == "table_link":
            secret = match_link_token(match=self.match)
        elif actor == "other_match_link":
            secret = match_link_token(match=self.other, position=0)
        user = {
            "player_user": self.alice_user,
            "seated_director": self.bob_user,
            "event_director": self.director,
            "other_club_director": self.stranger_director,
            "staff": self.staff,
        }.get(actor)
        if user is not None:
            client.force_authenticate(user)
        if secret is not None:
            client.credentials(HTTP_X_MATCH_KEY=secret)
        return client


def _world(confirmation: str = "opponent", kind: str = "club_night") -> World:
    event = EventFactory(confirmation=confirmation, kind=kind)
    alice_user, bob_user = UserFactory(username="alice"), UserFactory(username="bob")
    alice = PlayerFactory(club=event.club, name="Alice", user=alice_user)
    bob = PlayerFactory(club=event.club, name="Bob", user=bob_user)
    event.directors.add(bob_user)
    match = MatchFactory(event=event, players=[alice, bob])
    other = MatchFactory(event=event)
    stranger_director = UserFactory(username="elsewhere")
    ClubRoleFactory(user=stranger_director, role="director")  # another club's director
    staff = UserFactory(username="staff", is_staff=True)
    return World(
        event, match, other, alice_user, bob_user, event_director(event), stranger_director, staff
    )


def _alice_enters(world: World) -> HandSubmission:
    secret = match_link_token(match=world.match, position=0)
    return hand_submit(match=world.match, actor=Actor(token=secret), entry=TwoPlayerEntry(**KNOCK))


def _outcome(status: int) -> str:
    if 200 <= status < 300:
        return "ok"
    return {400: "bad", 401: "forbidden", 403: "forbidden", 404: "hidden", 409: "conflict"}.get(
        status, str(status)
    )


def _snapshot() -> tuple[Any, ...]:
    return (
        tuple(HandSubmission.objects.order_by("pk").values_list("pk", "status")),
        tuple(MatchKey.objects.order_by("pk").values_list("pk", "revoked_at")),
    )


def _row(expected: dict[str, str]) -> list[tuple[str, str]]:
    assert set(expected) == set(ACTORS)
    return list(expected.items())


# -- what each actor may do with Alice's entry (waiting for confirmation) -----------------------

# The table link says who is acting: as Bob (the other side) to confirm or dispute, as Alice (the
# submitter) to withdraw.
AS_POSITION = {"confirm": 1, "dispute": 1, "withdraw": 0}

ENTRY_ACTIONS: dict[tuple[str, str], dict[str, str]] = {
    ("confirm", "opponent"): {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "ok",
        "table_link": "ok",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "ok",  # Bob, as the other side's player
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    ("confirm", "director"): {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "forbidden",  # a director playing at the table does not settle
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    ("dispute", "opponent"): {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "ok",
        "table_link": "ok",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "ok",
        "event_director": "forbidden",  # a director settles instead
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    ("withdraw", "opponent"): {
        "anonymous": "hidden",
        "own_link": "ok",
        "opponent_link": "forbidden",
        "table_link": "ok",
        "other_match_link": "hidden",
        "player_user": "ok",  # Alice's own account
        "seated_director": "forbidden",
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    ("override", "opponent"): {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "forbidden",
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    ("history", "opponent"): {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "ok",
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
}


@pytest.mark.parametrize(
    ("action", "policy", "actor", "expected"),
    [
        (action, policy, actor, expected)
        for (action, policy), row in ENTRY_ACTIONS.items()
        for actor, expected in _row(row)
    ],
)
def test_entry_actions(action: str, policy: str, actor: str, expected: str) -> None:
    world = _world(policy)
    sub = _alice_enters(world)
    client = world.client(actor)
    body: dict[str, Any] = {}
    if actor == "table_link" and action in AS_POSITION:
        body["as_position"] = AS_POSITION[action]
    if action == "dispute":
        body["reason"] = "Bob had 15, not 25."
    if action == "override":
        body = {**KNOCK, "defender_deadwood": 15, "reason": "recounted"}
    before = _snapshot()
    if action == "history":
        response = client.get(f"/api/hands/{sub.pk}/history/")
    else:
        response = client.post(f"/api/hands/{sub.pk}/{action}/", body, format="json")
    assert _outcome(response.status_code) == expected, response.content
    if expected != "ok":
        assert _snapshot() == before


def test_the_table_link_cannot_confirm_as_the_submitter() -> None:
    world = _world()
    sub = _alice_enters(world)
    response = world.client("table_link").post(
        f"/api/hands/{sub.pk}/confirm/", {"as_position": 0}, format="json"
    )
    assert response.status_code == 403
    assert HandSubmission.objects.get(pk=sub.pk).status == "pending"


def test_a_mix_of_identities_never_confirms_its_own_entry() -> None:
    """Signed in as Alice while holding Bob's link: still Alice, so not her own entry."""
    world = _world()
    sub = _alice_enters(world)
    client = world.client("player_user")
    client.credentials(HTTP_X_MATCH_KEY=match_link_token(match=world.match, position=1))
    for as_position in (None, 1, 0):
        body = {} if as_position is None else {"as_position": as_position}
        response = client.post(f"/api/hands/{sub.pk}/confirm/", body, format="json")
        assert response.status_code == 403, response.content
    # and a signed-in player holding the table link cannot speak for the other seat either
    client = world.client("player_user")
    client.credentials(HTTP_X_MATCH_KEY=match_link_token(match=world.match))
    response = client.post(f"/api/hands/{sub.pk}/confirm/", {"as_position": 1}, format="json")
    assert response.status_code == 403
    assert HandSubmission.objects.get(pk=sub.pk).status == "pending"


def test_a_seated_director_cannot_confirm_their_own_seat_link_entry() -> None:
    """Bob enters on his seat link, then tries to confirm while signed in as the director."""
    world = _world()
    secret = match_link_token(match=world.match, position=1)
    entry = TwoPlayerEntry(**{**KNOCK, "knocker": 1})
    sub = hand_submit(match=world.match, actor=Actor(token=secret), entry=entry)
    response = world.client("seated_director").post(
        f"/api/hands/{sub.pk}/confirm/", {}, format="json"
    )
    assert response.status_code == 403
    assert HandSubmission.objects.get(pk=sub.pk).status == "pending"


# -- the match, the event and the club --------------------------------------------------------

OTHER_ACTIONS: dict[str, dict[str, str]] = {
    "enter": {
        "anonymous": "hidden",
        "own_link": "ok",
        "opponent_link": "ok",
        "table_link": "ok",
        "other_match_link": "hidden",
        "player_user": "ok",
        "seated_director": "ok",
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    "links": {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "forbidden",
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    "reissue": {
        "anonymous": "hidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "hidden",
        "player_user": "forbidden",
        "seated_director": "forbidden",
        "event_director": "ok",
        "other_club_director": "hidden",
        "staff": "hidden",
    },
    "start": {
        "anonymous": "forbidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "forbidden",
        "player_user": "forbidden",  # may not start a match they play in
        "seated_director": "ok",  # directs the event
        "event_director": "ok",
        "other_club_director": "forbidden",
        "staff": "forbidden",
    },
    "pair": {
        "anonymous": "forbidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "forbidden",
        "player_user": "forbidden",
        "seated_director": "ok",
        "event_director": "ok",
        "other_club_director": "forbidden",
        "staff": "forbidden",
    },
    "import": {
        "anonymous": "forbidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "forbidden",
        "player_user": "bad",  # every row refused: not a director
        "seated_director": "bad",  # plays in the match: may not import its results
        "event_director": "ok",
        "other_club_director": "bad",
        "staff": "bad",
    },
    "roles": {
        "anonymous": "forbidden",
        "own_link": "forbidden",
        "opponent_link": "forbidden",
        "table_link": "forbidden",
        "other_match_link": "forbidden",
        "player_user": "forbidden",
        "seated_director": "forbidden",  # an event director is not a club admin
        "event_director": "forbidden",
        "other_club_director": "forbidden",
        "staff": "forbidden",
    },
}


def _count_rows() -> tuple[int, ...]:
    from clubs.models import ClubRole
    from scoring.models import Match
    from tournaments.models import Round

    return (
        Match.objects.count(),
        Round.objects.count(),
        ClubRole.objects.count(),
        HandSubmission.objects.count(),
        MatchKey.objects.filter(revoked_at__isnull=False).count(),
    )


@pytest.mark.parametrize(
    ("action", "actor", "expected"),
    [
        (action, actor, expected)
        for action, row in OTHER_ACTIONS.items()
        for actor, expected in _row(row)
    ],
)
def test_match_event_and_club_actions(action: str, actor: str, expected: str) -> None:
    world = _world(kind="swiss" if action == "pair" else "club_night")
    client = world.client(actor)
    m = world.match
    before = _count_rows()
    if action == "enter":
        body = dict(KNOCK)
        if actor == "table_link":
            body["as_position"] = 0
        response = client.post(f"/api/matches/{m.pk}/hands/", body, format="json")
    elif action == "links":
        response = client.get(f"/api/matches/{m.pk}/links/")
    elif action == "reissue":
        response = client.post(f"/api/matches/{m.pk}/links/reissue/", {"seat": 1}, format="json")
    elif action == "start":
        players = [PlayerFactory(club=world.event.club).pk for _ in range(2)]
        response = client.post(
            "/api/matches/", {"event": world.event.pk, "players": players}, format="json"
        )
    elif action == "pair":
        for _ in range(2):
            RegistrationFactory(
                event=world.event, player=PlayerFactory(club=world.event.club), status="checked_in"
            )
        response = client.post(f"/api/events/{world.event.pk}/rounds/", {}, format="json")
    elif action == "import":
        csv = (
            "match,game,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
            f"{m.pk},1,1,1,knock,5,25\n"
        )
        response = client.post("/api/imports/", {"csv": csv}, format="json")
    else:
        response = client.post(
            f"/api/clubs/{world.event.club_id}/roles/",
            {"username": "alice", "role": "admin"},
            format="json",
        )
    assert _outcome(response.status_code) == expected, response.content
    if expected != "ok":
        assert _count_rows() == before


def test_links_in_api_responses_are_absolute_and_stable_until_reissued() -> None:
    world = _world()
    client = world.client("event_director")
    first = client.get(f"/api/matches/{world.match.pk}/links/").json()
    assert first["table"].startswith("http://testserver/l/")
    assert set(first["seats"]) == {"0", "1"}
    again = client.get(f"/api/matches/{world.match.pk}/links/").json()
    assert again == first
    reissued = client.post(
        f"/api/matches/{world.match.pk}/links/reissue/", {"seat": 1}, format="json"
    ).json()
    assert reissued["seats"]["0"] == first["seats"]["0"]
    assert reissued["seats"]["1"] != first["seats"]["1"]
    assert reissued["table"] == first["table"]
    everything = client.post(
        f"/api/matches/{world.match.pk}/links/reissue/", {}, format="json"
    ).json()
    assert everything["table"] != first["table"]
    assert everything["seats"]["0"] != first["seats"]["0"]
