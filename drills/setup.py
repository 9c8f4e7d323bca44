"""``python -m drills.setup N [PLAYERS]``: a director with an API token, a club of players (18 by
default), one club night with all of them, a second club night where the opponent confirms each
hand (played through the match's private links) and, per drill, a Swiss event (paired by the
worker) and a single-elimination bracket of 4.

Runs inside Django on the drill's database; prints what it made as JSON for the driver.
"""

from __future__ import annotations

import json
import sys


def main(drills: int, count: int = 18) -> dict[str, object]:
    import django

    django.setup()
    from django.contrib.auth.models import User

    from clubs.services import club_create, player_create
    from core.services import api_token_create
    from tournaments.models import Event
    from tournaments.services import event_create, registration_create

    user = User.objects.create_user("drill-director", password="drill-director-password")
    _made, token = api_token_create(user=user, name="drills")
    club = club_create(name="Drill Club", slug="drill-club", user=user)
    players = [player_create(club=club, name=f"Player {i:02d}") for i in range(1, count + 1)]
    fmt = {"kind": "fixed_hands", "hands": 2}
    night = event_create(
        club_id=club.pk,
        name="Club night",
        kind=Event.Kind.CLUB_NIGHT,
        match_format=fmt,
        confirmation=Event.Confirmation.NONE,
        user=user,
    )
    for p in players:
        registration_create(event=night, player=p, checked_in=True)
    # Played through private links (no account): entries, the opponent's confirmations, and the
    # link limiter's cache on every request (what a Redis cache outage must not break).
    linked = event_create(
        club_id=club.pk,
        name="Link night",
        kind=Event.Kind.CLUB_NIGHT,
        match_format=fmt,
        confirmation=Event.Confirmation.OPPONENT,
        user=user,
    )
    for p in players[12:14]:
        registration_create(event=linked, player=p, checked_in=True)
    tournaments = []
    for n in range(drills):
        swiss = event_create(
            club_id=club.pk,
            name=f"Swiss {n + 1}",
            kind=Event.Kind.SWISS,
            match_format=fmt,
            confirmation=Event.Confirmation.NONE,
            rounds_planned=3,
            options={"async_pairing_from": 2},  # every round is paired by the worker
            user=user,
        )
        elim = event_create(
            club_id=club.pk,
            name=f"Knockout {n + 1}",
            kind=Event.Kind.SINGLE_ELIMINATION,
            match_format=fmt,
            confirmation=Event.Confirmation.NONE,
            user=user,
        )
        for seed, p in enumerate(players[-4:], start=1):  # not among the club night's tables
            registration_create(event=swiss, player=p, seed=seed, checked_in=True)
            registration_create(event=elim, player=p, seed=seed, checked_in=True)
        tournaments.append({"swiss": swiss.pk, "elimination": elim.pk})
    return {
        "token": token,
        "night": night.pk,
        "linked_night": linked.pk,
        "linked_players": [p.pk for p in players[12:14]],
        "players": [p.pk for p in players],
        "tournaments": tournaments,
    }


if __name__ == "__main__":
    print(json.dumps(main(*(int(a) for a in sys.argv[1:3]))))
