"""The scoring demo: a club night with finished and running tables, idempotent."""

from __future__ import annotations

import pytest

from core.demo import demo_load
from scoring.demo import EVENT_NAME, demo_scoring_load
from scoring.models import HandSubmission, Match
from scoring.selectors import match_detail, match_prefetched, match_state

pytestmark = pytest.mark.django_db


def test_demo_club_night_is_idempotent():
    first = demo_load()
    assert any("7 tables (2 finished, 5 playing)" in line for line in first)
    counts = (Match.objects.count(), HandSubmission.objects.count())
    assert "kept" in demo_scoring_load()[0]
    assert (Match.objects.count(), HandSubmission.objects.count()) == counts
    tables = Match.objects.filter(event__name=EVENT_NAME).order_by("table_number")
    details = [
        match_detail(state=match_state(match=match_prefetched(match_id=m.pk))) for m in tables
    ]
    assert details[0]["finished"]
    assert details[0]["games"][0]["totals"] == [127, 57]  # hand 2 corrected to 25 + 32
    assert details[1]["pending"] is not None
    assert details[3]["next"]["roles"]["box"]["position"] == 2
    assert HandSubmission.objects.filter(status="superseded").count() == 1
