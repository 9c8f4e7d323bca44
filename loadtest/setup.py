"""``python -m loadtest.setup TABLES [--swiss]``: TABLES two-player tables started, run inside
Django on the load test's database; prints the event, the matches with each seat's link secret,
and each player's pass secret as JSON for the load generators. Names carry a random suffix, so
that it may run again on the same database.

By default the tables are a club night's (players sit down with anyone). ``--swiss`` makes them
round 1 of a Swiss, paired as a director pairs it (by the worker's task, run here at once when
the field is big enough to be queued): a national open, whose players' passes follow their own
table and standing while the round is in play (docs/live.md, "The player's pass")."""

from __future__ import annotations

import json
import secrets
import sys


def main(tables: int, *, swiss: bool = False) -> dict[str, object]:
    import django

    django.setup()
    from django.contrib.auth import get_user_model

    from clubs.services import club_create, player_create
    from passes.links import pass_secret
    from passes.services import pass_ensure
    from scoring.models import Match
    from scoring.permissions import Actor
    from scoring.services import match_link_token, match_start
    from tournaments import tasks
    from tournaments.models import Event, Round
    from tournaments.selectors.terms import event_terms
    from tournaments.services import event_create, registration_create, round_pair

    tag = secrets.token_hex(3)
    user = get_user_model().objects.create_user(f"load-{tag}", password=secrets.token_urlsafe(16))
    club = club_create(name=f"Load {tag}", slug=f"load-{tag}", user=user)
    event = event_create(
        club_id=club.pk,
        name="National open" if swiss else "Club night",
        kind=Event.Kind.SWISS if swiss else Event.Kind.CLUB_NIGHT,
        # Long enough never to finish during a run: every hand is entered and confirmed.
        match_format={"kind": "fixed_hands", "hands": 500},
        confirmation=Event.Confirmation.OPPONENT,
        rounds_planned=7 if swiss else None,
        user=user,
    )
    players = [player_create(club=club, name=f"P{i:03d}") for i in range(1, 2 * tables + 1)]
    registrations = [registration_create(event=event, player=p, checked_in=True) for p in players]
    if swiss:
        rnd = round_pair(event=event, user=user)
        if rnd.status == Round.Status.QUEUED:
            tasks.round_pair_task.apply(args=(rnd.pk,)).get()
            rnd.refresh_from_db()
        if rnd.status != Round.Status.PAIRED:
            raise SystemExit(f"round 1 was not paired: {rnd.status} {rnd.error}")
        started = list(
            Match.objects.filter(round=rnd, decision=Match.Decision.PLAYED).order_by("table_number")
        )
    else:
        terms = event_terms(event=event)
        started = [
            match_start(
                actor=Actor(user=user),
                event=terms,
                players=[players[2 * t].pk, players[2 * t + 1].pk],
                table_number=t + 1,
            )
            for t in range(tables)
        ]
    matches = [
        {"id": m.pk, "tokens": [match_link_token(match=m, position=p) for p in (0, 1)]}
        for m in started
    ]
    passes = [pass_secret(pass_ensure(registration=r)) for r in registrations]
    return {"event": event.pk, "matches": matches, "passes": passes}


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    print(json.dumps(main(int(args[0]) if args else 50, swiss="--swiss" in sys.argv[1:])))
