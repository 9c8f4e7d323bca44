"""What a careful reader sees on the match pages: the final-score table names every column
(no empty header cell, axe's ``empty-table-header``), and a refused seat names the players, not
0-based positions."""

from __future__ import annotations

import re

import pytest

from engine.rules import find_rules
from scoring.models import Match
from tests.clubs.factories import PlayerFactory
from tests.scoring.conftest import players
from tests.scoring.factories import MatchFactory, event_director
from tests.scoring.helpers import gem_three_entry
from tests.scoring.pages import Client
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db


def _finished_game() -> tuple[Match, Client]:
    event = EventFactory(rules=find_rules("standard").to_dict(), confirmation="opponent")
    seated = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    match: Match = MatchFactory.create(event=event, players=seated, table_number=7)
    director = Client()
    director.force_login(event_director(event))
    # A gin against 90 deadwood is 115: past the 100 target, the game ends on one hand.
    sheet = {
        "game": "1",
        "rows": "8",
        "store": "1",
        "h0_knocker": "0",
        "h0_outcome": "gin",
        "h0_knocker_deadwood": "0",
        "h0_defender_deadwood": "90",
    }
    assert director.post(f"/matches/{match.pk}/sheet/", sheet).status_code == 302
    return match, director


def _header_texts(html: str) -> list[str]:
    """The text of every ``<th>`` of the page, tags stripped."""
    cells = re.findall(r"<th\b[^>]*>(.*?)</th>", html, flags=re.S)
    return [re.sub(r"<[^>]+>", "", c).strip() for c in cells]


@pytest.mark.parametrize(
    ("language", "header"), [("en", "Points and bonuses"), ("ko", "점수와 보너스")]
)
def test_the_final_score_table_has_no_empty_header(language, header):
    match, director = _finished_game()
    html = director.get(f"/matches/{match.pk}/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    bonuses = html[html.index('class="compact bonuses"') :]
    bonuses = bonuses[: bonuses.index("</table>")]
    assert "<th></th>" not in bonuses
    first = re.search(r"<thead><tr><th\b[^>]*>(.*?)</th>", bonuses, flags=re.S)
    assert first is not None
    assert header in first.group(1)
    assert 'class="visually-hidden"' in first.group(1)
    texts = _header_texts(html)
    assert texts
    assert all(texts), texts


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_player_who_cannot_be_chosen_is_named_not_numbered(
    make_event, director_api_for, language
):
    event = make_event("gem")
    api = director_api_for(event)
    seated = players(event, 3)
    for p, name in zip(seated, ("Ada", "Bao", "Cleo"), strict=True):
        p.name = name
        p.save()
    m = api.start(event, seated)["id"]
    # The knocker (seat 1, position 0) named as a defender too.
    hand = gem_three_entry(0, 5, 4, ("knock", 30), ("knock", 20))
    hand["defenders"][0]["defender"] = 0
    refused = api.hand(m, expect=400, headers={"Accept-Language": language}, **hand)
    assert refused["field"] == "defenders[0].defender"
    assert "Ada" in refused["detail"]
    assert "Bao, Cleo" in refused["detail"]
    assert "seat 0" not in refused["detail"]
    if language == "ko":
        assert "고를 수 없습니다" in refused["detail"]
