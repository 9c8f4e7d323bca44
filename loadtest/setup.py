"""``python -m loadtest.setup TABLES``: a club night with TABLES two-player tables started, run
inside Django on the load test's database; prints the event, the matches and each seat's link
secret as JSON for the Locust scenario. Names carry a random suffix, so that it may run again on
the same database."""

from __future__ import annotations

import json
import secrets
import sys


def main(tables: int) -> dict[str, object]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from clubs.services import club_create, player_create
    from scoring.permissions import Actor
    from scoring.services import match_link_token, match_start
    from tournaments.models import Event
    from tournaments.selectors.terms import event_terms
    from tournaments.services import event_create, registration_create

    tag = secrets.token_hex(3)
    user = get_user_model().objects.create_user(f"load-{tag}", password=secrets.token_urlsafe(16))
    club = club_create(name=f"Load {tag}", slug=f"load-{tag}", user=user)
    night = event_create(
        club_id=club.pk,
        name="Club night",
        kind=Event.Kind.CLUB_NIGHT,
        # Long enough never to finish during a run: every hand is entered and confirmed.
        match_format={"kind": "fixed_hands", "hands": 500},
        confirmation=Event.Confirmation.OPPONENT,
        user=user,
    )
    players = [player_create(club=club, name=f"P{i:03d}") for i in range(1, 2 * tables + 1)]
    for p in players:
        registration_create(event=night, player=p, checked_in=True)
    terms = event_terms(event=night)
    matches = []
    for t in range(tables):
        seated = [players[2 * t].pk, players[2 * t + 1].pk]
        match = match_start(actor=Actor(user=user), event=terms, players=seated, table_number=t + 1)
        tokens = [match_link_token(match=match, position=p) for p in (0, 1)]
        matches.append({"id": match.pk, "tokens": tokens})
    return {"event": night.pk, "matches": matches}


if __name__ == "__main__":
    print(json.dumps(main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)))
