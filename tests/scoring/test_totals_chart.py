"""A finished match's page draws each side's game total hand by hand, once; a match still being
played does not."""

from __future__ import annotations

import re

import pytest
from django.test import Client

from scoring.views.totals_chart import totals_charts
from tests.scoring.conftest import players

pytestmark = pytest.mark.django_db


def test_the_chart_appears_once_the_match_is_over(make_event, director_api_for):
    event = make_event("standard")
    api = director_api_for(event)
    a, b = players(event, 2)
    m = api.start(event, [a, b])["id"]
    api.hand(m, knocker=0, outcome="knock", knocker_deadwood=5, defender_deadwood=45)
    playing = Client().get(f"/matches/{m}/").content.decode()
    assert 'id="totals-chart"' not in playing
    api.hand(m, knocker=1, outcome="gin", knocker_deadwood=0, defender_deadwood=90)
    while api.detail(m)["status"] != "finished":
        api.hand(m, knocker=0, outcome="gin", knocker_deadwood=0, defender_deadwood=90)
    html = Client().get(f"/matches/{m}/").content.decode()
    assert html.count('id="totals-chart"') == 1
    assert len(re.findall(r'<polyline class="tc-line', html)) == 2
    assert a.name in html
    ko = Client(HTTP_ACCEPT_LANGUAGE="ko").get(f"/matches/{m}/").content.decode()
    assert "핸드별 게임 합계" in ko


def test_the_geometry_starts_at_zero_and_ends_at_the_totals():
    games = [{"number": 1, "rows": [{"running_totals": [40, 0]}, {"running_totals": [40, 115]}]}]
    sides = [{"name": "Ann"}, {"name": "Bao"}]
    (chart,) = totals_charts(games, sides)
    assert chart["top"] == 115
    assert [line["last"] for line in chart["lines"]] == [40, 115]
    first = chart["lines"][0]["points"].split()
    assert len(first) == 3
    assert first[0].endswith(f",{chart['zero_y']:g}")
    assert totals_charts([{"number": 1, "rows": []}], sides) == []
