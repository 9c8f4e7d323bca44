"""The pass: issued at registration, made like the seat links, opened once into a session,
revoked and reissued by the director, counted on the console; bad passes refused."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client, override_settings
from django.utils import translation

from passes.links import pass_secret, pass_url, secret_from
from passes.models import PlayerPass
from passes.selectors import passes_opened_count
from passes.services import pass_find, pass_reissue
from scoring.links import digest_of, looks_like_secret
from tests.clubs.factories import PlayerFactory
from tests.passes.helpers import active_pass, holding, secret, swiss_with_passes
from tests.tournaments.factories import EventFactory
from tournaments.services.registrations import registration_create, registrations_create_many

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts():
    cache.clear()


def test_every_registration_gets_one_pass_stored_only_as_nonce_and_digest(club):
    event, regs = swiss_with_passes(club)
    for reg in regs:
        one = active_pass(reg)
        s = pass_secret(one)
        assert looks_like_secret(s)
        assert one.digest == digest_of(s)
        assert s not in (one.nonce, one.digest)
    # a pasted list goes through the same service
    newcomer: Any = PlayerFactory(club=club)
    more = registrations_create_many(event=event, players=[newcomer])
    assert PlayerPass.objects.filter(registration=more[0]).count() == 1


def test_the_link_carries_the_secret_as_its_fragment(club):
    _event, regs = swiss_with_passes(club, players=2)
    url = pass_url(absolute=lambda p: "https://knock.example" + p, player_pass=active_pass(regs[0]))
    assert url.startswith("https://knock.example/p/#")
    assert secret_from(url) == secret(regs[0])
    assert secret_from("https://knock.example/p/" + secret(regs[0]) + "/") == secret(regs[0])
    html = Client().get("/p/").content.decode()
    assert "/static/js/link.js" in html
    assert "<script>" not in html


def test_opening_a_pass_grants_a_session_and_redirects_to_the_clean_page(club):
    event, regs = swiss_with_passes(club, players=2)
    client = Client()
    opened = client.post("/p/", {"secret": "#" + secret(regs[0])})
    assert opened.status_code == 302
    assert opened["Location"] == f"/events/{event.pk}/pass/"
    assert opened["Referrer-Policy"] == "no-referrer"
    page = client.get(opened["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Ada" in html
    assert "check me in" not in html
    assert secret(regs[0]) not in html
    typed = Client().get(f"/p/{secret(regs[1])}/")
    assert typed.status_code == 302


def test_the_console_counts_opened_passes(club, director):
    event, regs = swiss_with_passes(club, players=3)
    assert passes_opened_count(event=event) == (0, 3)
    holding(regs[0])
    holding(regs[0])
    assert passes_opened_count(event=event) == (1, 3)
    client = Client()
    client.force_login(director)
    html = client.get(f"/events/{event.pk}/console/").content.decode()
    assert "1 of 3 players have opened their pass." in html


def test_reissue_stops_the_old_link_and_the_held_session(club, director):
    event, regs = swiss_with_passes(club, players=2)
    old = secret(regs[0])
    browser = holding(regs[0])
    client = Client()
    client.force_login(director)
    done = client.post(
        f"/events/{event.pk}/passes/", {"registration": regs[0].pk, "action": "reissue"}
    )
    assert done.status_code == 302
    assert pass_find(secret=old) is None
    new = secret(regs[0])
    assert new != old
    assert Client().post("/p/", {"secret": old}).status_code == 404
    page = browser.get(f"/events/{event.pk}/pass/")
    assert page.status_code == 404
    assert "revoked" in page.content.decode()
    assert Client().post("/p/", {"secret": new}).status_code == 302


def test_revoke_leaves_no_active_pass(club, director):
    event, regs = swiss_with_passes(club, players=2)
    old = secret(regs[1])
    client = Client()
    client.force_login(director)
    client.post(f"/events/{event.pk}/passes/", {"registration": regs[1].pk, "action": "revoke"})
    assert not PlayerPass.objects.filter(registration=regs[1], revoked_at__isnull=True).exists()
    assert Client().post("/p/", {"secret": old}).status_code == 404


def test_only_a_director_manages_passes(club, stranger):
    event, regs = swiss_with_passes(club, players=2)
    client = Client()
    client.force_login(stranger)
    assert client.get(f"/events/{event.pk}/passes/").status_code == 403
    before = secret(regs[0])
    refused = client.post(f"/events/{event.pk}/passes/", {"registration": regs[0].pk})
    assert refused.status_code == 403
    assert secret(regs[0]) == before
    from core.errors import ApplicationError

    with pytest.raises(ApplicationError):
        pass_reissue(registration=regs[0], user=stranger)


def test_unknown_pass_is_a_clear_404_in_korean_and_counted(club):
    with translation.override("ko"):
        bad = Client(HTTP_ACCEPT_LANGUAGE="ko").post("/p/", {"secret": "x" * 32})
    assert bad.status_code == 404
    assert 'id="pass-refused"' in bad.content.decode()


@override_settings(KNOCK_LINK_FAILURE_LIMIT=2)
def test_invalid_passes_share_the_seat_links_limit(club):
    _event, regs = swiss_with_passes(club, players=2)
    client = Client()
    statuses = [client.post("/p/", {"secret": "y" * 32}).status_code for _ in range(3)]
    assert statuses == [404, 404, 429]
    # a valid pass still opens
    assert client.post("/p/", {"secret": secret(regs[0])}).status_code == 302


def test_a_pass_of_another_event_is_refused(club):
    event_a, regs_a = swiss_with_passes(club, players=2)
    event_b, _regs_b = swiss_with_passes(club, players=2, suffix=" B")
    browser = holding(regs_a[0])
    page = browser.get(f"/events/{event_b.pk}/pass/")
    assert page.status_code == 403
    assert "another event" in page.content.decode()
    assert Client().get(f"/events/{event_a.pk}/pass/").status_code == 404  # holds nothing


def test_a_club_night_registration_gets_a_pass_too(club):
    night = EventFactory(club=club)
    reg = registration_create(event=night, player=PlayerFactory(club=club))
    assert active_pass(reg)


def test_revoking_or_reissuing_a_pass_replaces_the_seat_it_took(club, director):
    from passes.services import pass_revoke
    from scoring.links import SESSION_KEY as SEAT_SESSION
    from scoring.models import Match, MatchKey
    from scoring.permissions import Actor, match_access
    from tournaments.services.rounds import round_pair

    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    match = Match.objects.get(event=event, seats__player=regs[0].player)
    mine = next(s.position for s in match.seats.all() if s.player_id == regs[0].player_id)
    lost_phone = holding(regs[0])
    lost_phone.post(f"/events/{event.pk}/pass/seat/", {"match": match.pk})
    taken = lost_phone.session[SEAT_SESSION][str(match.pk)]
    others = set(
        MatchKey.objects.filter(match=match, revoked_at__isnull=True)
        .exclude(position=mine)
        .values_list("pk", flat=True)
    )
    pass_revoke(registration=regs[0], user=director)
    assert MatchKey.objects.get(pk=taken).revoked_at is not None
    assert match_access(actor=Actor(key_ids=(taken,)), match=match).identities == ()
    assert others <= set(
        MatchKey.objects.filter(match=match, revoked_at__isnull=True).values_list("pk", flat=True)
    )  # the opponent's seat and the table link stand
    pass_reissue(registration=regs[0], user=director)
    new_phone = holding(regs[0])
    assert new_phone.post(f"/events/{event.pk}/pass/seat/", {"match": match.pk}).status_code == 302
    fresh = new_phone.session[SEAT_SESSION][str(match.pk)]
    assert match_access(actor=Actor(key_ids=(fresh,)), match=match).identities == (mine,)
    again = holding(regs[0])
    again.post(f"/events/{event.pk}/pass/seat/", {"match": match.pk})
    pass_reissue(registration=regs[0], user=director)  # the seat the new pass took goes too
    assert MatchKey.objects.get(pk=fresh).revoked_at is not None
