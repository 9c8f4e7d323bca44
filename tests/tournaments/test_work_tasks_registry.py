"""Every kind of work the services record has the task that does it registered."""

from __future__ import annotations

import pytest
from django.core.exceptions import ImproperlyConfigured

from tournaments import tasks
from tournaments.models import WorkDue
from tournaments.services import work


def test_every_work_kind_and_the_standings_have_their_task():
    assert work._work_task(work.STANDINGS) == (tasks.event_standings_rebuild, "event_id")
    assert work._work_task(WorkDue.Kind.RATINGS_MATCH) == (tasks.ratings_update_task, "match_id")
    assert work._work_task(WorkDue.Kind.ROUND_PAIR) == (tasks.round_pair_task, "round_id")
    assert set(WorkDue.Kind.values) <= set(work._TASKS)


def test_an_unknown_kind_is_a_configuration_error():
    with pytest.raises(ImproperlyConfigured):
        work._work_task("no_such_work")
