"""The match page of a three-player Gem match: per-defender fields, entry, pending, confirm."""

from __future__ import annotations

import pytest

from scoring.models import HandSubmission
from tests.scoring.helpers import match_url, page_match
from tests.scoring.pages import Client

pytestmark = pytest.mark.django_db


def test_three_player_gem_page_enters_each_defender_and_any_other_player_confirms():
    match = page_match("gem", names=("Alice", "Bob", "Cleo"))
    html = Client().get(match_url(match, 0)).content.decode()
    assert 'data-defender="0"' in html
    assert 'data-defender="1"' in html
    assert 'name="d0_defender_deadwood"' in html
    assert 'name="d1_outcome"' in html
    assert 'name="d1_defender_cards"' in html  # the cards tab: each defender's hand
    assert 'name="defender_deadwood"' not in html  # no single defender here
    # A defender's claim that does not hold is shown at that defender: 9 > 4 is no undercut.
    body = {
        "mode": "counts",
        "knocker": "0",
        "knock_limit": "5",
        "knocker_deadwood": "4",
        "d0_outcome": "knock",
        "d0_defender_deadwood": "30",
        "d1_outcome": "undercut",
        "d1_defender_deadwood": "9",
    }
    refused = Client().post(match_url(match, 0, "hands/"), body)
    assert refused.status_code == 400
    page = refused.content.decode()
    assert "Against defender 2" in page
    assert 'value="9"' in page  # what was typed is shown again
    # Alice knocks with 4: 30 − 4 = 26 against Bob; Cleo's 2 < 4 undercuts her: 25 to Cleo.
    response = Client().post(match_url(match, 0, "hands/"), {**body, "d1_defender_deadwood": "2"})
    assert response.status_code == 302
    sub = HandSubmission.objects.get()
    assert sub.result["scores"] == {"0": 26, "1": 0, "2": 25}
    pending = Client().get(match_url(match, 0)).content.decode()
    assert "Against Bob: knock, Alice scores 26" in pending
    assert "Against Cleo: undercut, Cleo scores 25" in pending
    # Any other player confirms: Cleo, the second defender.
    theirs = Client().get(match_url(match, 2)).content.decode()
    assert f"/entries/{sub.pk}/confirm/" in theirs
    assert Client().post(match_url(match, 2, f"entries/{sub.pk}/confirm/")).status_code == 302
    sub.refresh_from_db()
    assert sub.status == HandSubmission.Status.CONFIRMED
    sheet = Client().get(match_url(match, 1)).content.decode()
    assert '<tr class="hand" data-hand="1">' in sheet
    assert '<td class="num">26</td><td class="num">0</td><td class="num">25</td>' in sheet
