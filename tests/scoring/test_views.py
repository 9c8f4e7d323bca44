"""The match page through Django's test client: who sees what, entry, confirmation, override."""

from __future__ import annotations

from typing import Any

import pytest

from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.services import entry_from_dict, hand_submit, match_link_token
from tests.scoring.factories import event_director
from tests.scoring.helpers import match_url, page_match
from tests.scoring.pages import Client

pytestmark = pytest.mark.django_db


def _submit_as(match: Match, position: int, **entry: Any) -> HandSubmission:
    token = match_link_token(match=match, position=position)
    return hand_submit(match=match, actor=Actor(token=token), entry=entry_from_dict(entry))


def _knock(match: Match) -> HandSubmission:
    """Seat 0 knocks with 5 against 25, entered through the service (not the page)."""
    return _submit_as(
        match, 0, knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=25
    )


def _counts(knocker_deadwood: str = "5", defender_deadwood: str = "25", **extra: str) -> dict:
    """The page's "by counts" form: seat 0 knocks."""
    return {
        "mode": "counts",
        **extra,
        "knocker": "0",
        "outcome": "knock",
        "knocker_deadwood": knocker_deadwood,
        "defender_deadwood": defender_deadwood,
    }


def test_player_link_shows_the_entry_form_with_numeric_inputs():
    match = page_match()
    response = Client().get(match_url(match, 0))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="entry"' in html
    assert 'inputmode="numeric"' in html
    assert "By counts" in html
    assert "By cards" in html
    assert "Dead hand" in html
    assert "Alice" in html
    assert "Bob" in html
    assert "<svg" in html  # the private links as QR codes


def test_spectator_sees_the_sheet_but_no_form_and_no_unconfirmed_entry():
    match = page_match()
    _knock(match)
    response = Client().get(match_url(match))
    assert response.status_code == 200
    html = response.content.decode()
    assert 'id="entry"' not in html
    assert 'id="pending"' not in html
    assert "waiting for confirmation" not in html
    assert "<svg" not in html  # nobody else's private link


def test_forged_link_is_404_and_the_page_stays_public():
    match = page_match()
    assert Client().get(f"/matches/{match.pk}/?k=forged").status_code == 404
    response = Client().get(f"/matches/{match.pk}/")
    assert response.status_code == 200
    assert 'id="entry"' not in response.content.decode()


def test_unknown_match_is_404():
    assert Client().get("/matches/999999/").status_code == 404


def test_enter_by_counts_then_opponent_confirms():
    match = page_match()
    response = Client().post(
        match_url(match, 0, "hands/"),
        _counts(),
    )
    assert response.status_code == 302
    sub = HandSubmission.objects.get()
    assert sub.status == HandSubmission.Status.PENDING
    mine = Client().get(match_url(match, 0)).content.decode()
    assert "Waiting for Bob to confirm." in mine
    assert "Withdraw" in mine
    assert f"/entries/{sub.pk}/confirm/" not in mine  # nobody confirms their own entry
    theirs = Client().get(match_url(match, 1)).content.decode()
    assert f"/entries/{sub.pk}/confirm/" in theirs
    assert "Withdraw" not in theirs
    response = Client().post(match_url(match, 1, f"entries/{sub.pk}/confirm/"))
    assert response.status_code == 302
    sub.refresh_from_db()
    assert sub.status == HandSubmission.Status.CONFIRMED
    html = Client().get(match_url(match, 1)).content.decode()
    assert '<tr class="hand" data-hand="1">' in html


def test_server_refuses_a_confirmation_of_ones_own_entry():
    match = page_match()
    sub = _knock(match)
    response = Client().post(match_url(match, 0, f"entries/{sub.pk}/confirm/"), follow=True)
    sub.refresh_from_db()
    assert sub.status == HandSubmission.Status.PENDING
    assert "confirms their own entry" in response.content.decode()


def test_knock_over_the_limit_names_the_field_and_stores_nothing():
    match = page_match()
    response = Client().post(
        match_url(match, 0, "hands/"),
        _counts("12", "30"),
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert "Knock over the limit" in html
    assert 'class="field has-error"><label for="counts-kd">' in html
    assert not HandSubmission.objects.exists()


def test_not_a_number_is_refused_with_the_field_named():
    match = page_match()
    response = Client().post(
        match_url(match, 0, "hands/"),
        _counts("five", "30"),
    )
    assert response.status_code == 400
    assert "Enter a whole number." in response.content.decode()
    assert not HandSubmission.objects.exists()


def test_enter_by_cards_shows_arrangement_and_layoffs():
    match = page_match()
    response = Client().post(
        match_url(match, 0, "hands/"),
        {
            "mode": "cards",
            "knocker": "0",
            "knocker_cards": "AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
            "defender_cards": "8H 9H KS KH KD 2C 3C QS JD 5C",
        },
        follow=True,
    )
    html = response.content.decode()
    assert "5H 6H 7H" in html
    assert "8H on 5H 6H 7H" in html
    assert "Lay-offs" in html


def test_dead_hand_tab():
    match = page_match()
    response = Client().post(match_url(match, 0, "hands/"), {"mode": "dead"})
    assert response.status_code == 302
    assert HandSubmission.objects.get().result["outcome"] == "dead"


def test_table_link_holder_says_who_they_are():
    match = page_match()
    table = match_url(match, None)
    html = Client().get(table).content.decode()
    assert 'name="as_position"' in html
    response = Client().post(
        table.replace("/?", "/hands/?"),
        _counts(as_position="0"),
    )
    assert response.status_code == 302
    html = Client().get(table).content.decode()
    assert "I am Bob: confirm" in html


def test_withdraw_by_the_submitter():
    match = page_match()
    sub = _knock(match)
    response = Client().post(match_url(match, 0, f"entries/{sub.pk}/withdraw/"))
    assert response.status_code == 302
    sub.refresh_from_db()
    assert sub.status == HandSubmission.Status.WITHDRAWN


def test_director_sees_history_and_overrides_with_a_reason():
    match = page_match(confirmation="none")
    sub = _knock(match)
    client = Client()
    client.force_login(event_director(match.event))
    html = client.get(match_url(match)).content.decode()
    assert f"/entries/{sub.pk}/" in html
    page = client.get(f"/matches/{match.pk}/entries/{sub.pk}/")
    assert page.status_code == 200
    assert "History" in page.content.decode()
    assert "Alice entered (counted at once): Alice knocked with 5, Bob 25" in page.content.decode()
    missing = client.post(
        f"/matches/{match.pk}/entries/{sub.pk}/",
        _counts("5", "20", reason=""),
    )
    assert missing.status_code == 400
    assert "Give the reason" in missing.content.decode()
    done = client.post(
        f"/matches/{match.pk}/entries/{sub.pk}/",
        _counts("5", "20", reason="miscounted"),
    )
    assert done.status_code == 302
    assert HandSubmission.objects.filter(status="confirmed").get().result["points"] == 15


def test_players_cannot_open_the_history_page():
    match = page_match()
    sub = _knock(match)
    assert Client().get(match_url(match, 0, f"entries/{sub.pk}/")).status_code == 404


def test_hollywood_sheet_has_three_columns():
    match = page_match(preset="hollywood", confirmation="none", match_format={"kind": "hollywood"})
    _knock(match)
    html = Client().get(match_url(match, 0)).content.decode()
    assert "G1" in html
    assert "G2" in html
    assert "G3" in html


def test_three_box_shows_roles():
    match = page_match(preset="three-box", confirmation="none", names=("Ann", "Ben", "Cat"))
    html = Client().get(match_url(match, 0)).content.decode()
    assert "in the box" in html
    assert "captain" in html
    assert "sitter" in html


def test_partnership_entry_has_two_boards():
    match = page_match(preset="partnership", confirmation="none", names=("A1", "B1", "A2", "B2"))
    html = Client().get(match_url(match, 0)).content.decode()
    assert 'name="b0_knocker"' in html
    assert 'name="b1_knocker"' in html
    response = Client().post(
        match_url(match, 0, "hands/"),
        {
            "mode": "partnership",
            "b0_knocker": "0",
            "b0_defender": "1",
            "b0_outcome": "knock",
            "b0_knocker_deadwood": "5",
            "b0_defender_deadwood": "25",
            "b1_knocker": "3",
            "b1_defender": "2",
            "b1_outcome": "knock",
            "b1_knocker_deadwood": "4",
            "b1_defender_deadwood": "10",
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    html = Client().get(match_url(match, 0)).content.decode()
    assert "A1 &amp; A2" in html


def test_basic_rummy_entry():
    match = page_match(preset="rummy", confirmation="none", names=("R1", "R2", "R3"))
    html = Client().get(match_url(match, 0)).content.decode()
    assert "Who went out?" in html
    response = Client().post(
        match_url(match, 0, "hands/"),
        {"mode": "rummy", "went_out": "0", "left_1": "12", "left_2": "7"},
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    assert HandSubmission.objects.get().result["points"] == 19


def test_oklahoma_asks_for_the_upcard():
    match = page_match(preset="oklahoma")
    html = Client().get(match_url(match, 0)).content.decode()
    assert 'name="upcard"' in html
    response = Client().post(
        match_url(match, 0, "hands/"),
        _counts(),
    )
    assert response.status_code == 400
    assert "upcard" in response.content.decode()
    assert not HandSubmission.objects.exists()


def test_a_link_of_another_table_sees_no_unconfirmed_entry():
    match = page_match()
    other = page_match()
    _knock(match)
    token = match_link_token(match=other, position=0)
    html = Client().get(f"/matches/{match.pk}/?k={token}").content.decode()
    assert 'id="pending"' not in html
    assert 'id="entry"' not in html
    assert "waiting for confirmation" not in html


def test_by_cards_form_refuses_a_knock_that_discards_the_card_taken_from_the_discard_pile():
    match = page_match()
    cards = {
        "mode": "cards",
        "knocker": "0",
        "knocker_cards": "AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
        "defender_cards": "8H 9H KS KH KD 2C 3C QS JD 5C",
    }
    html = Client().get(match_url(match, 0)).content.decode()
    assert 'name="taken_from_discard"' in html
    response = Client().post(match_url(match, 0, "hands/"), {**cards, "taken_from_discard": "4d"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "may not discard it on the same turn" in html
    assert 'class="field has-error"><label for="cards-td">' in html
    assert not HandSubmission.objects.exists()
    response = Client().post(match_url(match, 0, "hands/"), {**cards, "taken_from_discard": "9D"})
    assert response.status_code == 302
    assert HandSubmission.objects.get().result["taken_from_discard"] == "9D"


def test_scoreboard_pieces_have_no_leading_separator():
    """A best-of match before anyone won a hand reads "games 0", not "· games 0": the " · "
    between the pieces is drawn by the stylesheet, between pieces only."""
    import re

    from django.conf import settings

    match = page_match(match_format={"kind": "best_of", "games": 3})
    html = Client().get(match_url(match)).content.decode()
    roles = re.findall(r'<div class="role muted">(.*?)</div>', html)
    assert roles == ['<span class="part">games 0</span>'] * 2
    with (settings.BASE_DIR / "static/css/knock.css").open() as css:
        assert '.side .role .part + .part::before { content: " · "; }' in css.read()


def test_qr_cards_drop_the_browsers_figure_margin():
    """The private-link QR codes are <figure>s: without ``margin: 0`` the browser's 40px side
    margins squeeze each card to a sliver on a phone ("Table link (a shared phone)" on four
    lines)."""
    import re

    from django.conf import settings

    match = page_match()
    director = Client()
    director.force_login(event_director(match.event))
    assert '<figure class="qr"' in director.get(match_url(match)).content.decode()
    css = (settings.BASE_DIR / "static/css/knock.css").read_text()
    rule = re.search(r"^\.qr \{([^}]*)\}", css, re.M)
    assert rule is not None
    assert "margin: 0;" in rule.group(1)


def test_breadcrumbs_keep_a_space_around_their_separator():
    """Breadcrumbs are a flex line, which drops the spaces of "Club · League": a column gap
    keeps the links apart ("Knock Demo Club·Thursday League" before)."""
    import re

    from django.conf import settings

    css = (settings.BASE_DIR / "static/css/knock.css").read_text()
    flex = [r for r in re.findall(r"^\.crumbs \{([^}]*)\}", css, re.M) if "display: flex" in r]
    assert flex
    assert all("column-gap:" in rule for rule in flex)
