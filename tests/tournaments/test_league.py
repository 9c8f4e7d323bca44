"""A league aggregates its nights into one table."""

from __future__ import annotations

import pytest

from scoring.models import Game, Match, Seat
from tests.tournaments.helpers import play
from tournaments.services import event_create, registration_create, standings_recompute

pytestmark = pytest.mark.django_db


def _match(event, a, b):
    match = Match.objects.create(event=event, rules=event.rules)
    Seat.objects.bulk_create(
        [Seat(match=match, player=a, position=0), Seat(match=match, player=b, position=1)]
    )
    Game.objects.create(match=match, number=1)
    return match


def test_league_table_sums_its_events(director_api, club, make_players):
    r = director_api.post(
        "/api/events/", {"club": club.pk, "name": "Winter League", "kind": "league"}, format="json"
    )
    league = r.json()
    a, b, c = make_players(3)
    nights = []
    for k in range(2):
        night = director_api.post(
            "/api/events/",
            {"club": club.pk, "name": f"Night {k}", "kind": "club_night", "league": league["id"]},
            format="json",
        ).json()
        from tournaments.models import Event

        ev = Event.objects.get(pk=night["id"])
        for p in (a, b, c):
            registration_create(event=ev, player=p)
        nights.append(ev)
    play(_match(nights[0], a, b), winner=a.pk, margin=50)
    play(_match(nights[0], b, c), winner=b.pk, margin=20)
    play(_match(nights[1], a, c), winner=c.pk, margin=10)
    play(_match(nights[1], a, b), winner=a.pk, margin=30)
    body = director_api.get(f"/api/events/{league['id']}/standings/").json()
    rows = {row["player"]: row for row in body["rows"]}
    assert rows[a.pk]["rank"] == 1
    assert rows[a.pk]["values"]["won"] == 2
    assert rows[a.pk]["values"]["events"] == 2
    assert rows[a.pk]["values"]["game_points"] == 50 + 30 - 10
    assert body["stale"] is False
    assert body["as_of"] == 4 + 6  # four results, six registrations (each is a new line)
    from tournaments.models import Event

    league_event = Event.objects.get(pk=league["id"])
    standings_recompute(event=league_event)
    assert league_event.standings.count() == 3


def test_league_only_takes_own_club_events(director_api, club):
    from tests.clubs.factories import ClubFactory
    from tournaments.models import Event

    league = event_create(club_id=club.pk, name="L", kind="league")
    other = ClubFactory()
    with pytest.raises(Exception, match="league of its own club"):
        event_create(club_id=other.pk, name="X", kind="club_night", league=league)
    assert Event.objects.filter(league=league).count() == 0


def test_a_league_is_running_once_it_has_a_night(club):
    """A league with its nights under way is not listed as upcoming, taking registrations."""
    from tournaments.models import Event

    league = event_create(club_id=club.pk, name="Winter League", kind="league")
    assert league.status == Event.Status.REGISTRATION
    event_create(club_id=club.pk, name="Night 1", kind="club_night", league=league)
    assert Event.objects.get(pk=league.pk).status == Event.Status.RUNNING
    assert league.status == Event.Status.RUNNING


def test_the_league_page_shows_its_table_from_the_nights_played(club, make_players):
    """The league's page shows the table the API gives (aggregated from its nights), not the
    "No results yet." of standings a league never stores by itself."""
    from django.test import Client

    league = event_create(club_id=club.pk, name="Winter League", kind="league")
    night = event_create(club_id=club.pk, name="Night 1", kind="club_night", league=league)
    a, b = make_players(2)
    for p in (a, b):
        registration_create(event=night, player=p)
    play(_match(night, a, b), winner=a.pk, margin=40)
    html = Client().get(f"/events/{league.pk}/").content.decode()
    table = html[html.index('id="standings"') :]
    table = table[: table.index("</table>")]
    assert "No results yet." not in html[html.index('id="standings"') :][:400]
    assert table.index(a.name) < table.index(b.name)
    assert '<td class="num"><strong>1</strong></td>' in table  # a's match point
