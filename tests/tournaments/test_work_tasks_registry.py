"""Every task the tournaments services prompt by name is a Celery task of that name."""

from __future__ import annotations

from celery import current_app

from tournaments import tasks
from tournaments.services import work


def test_every_task_name_the_services_send_is_a_registered_task():
    assert current_app.tasks[work.STANDINGS_TASK] == tasks.event_standings_rebuild
    assert current_app.tasks[work.RATINGS_MATCH_TASK] == tasks.ratings_update_task
    assert current_app.tasks[work.ROUND_PAIR_TASK] == tasks.round_pair_task


def test_the_names_stored_in_outbox_rows_and_broker_messages_are_kept():
    # Rows written before the outbox moved to core were renamed to these (core 0004), and
    # messages already in a broker carry them: a task keeps its name when its code moves.
    assert (work.STANDINGS_TASK, work.RATINGS_MATCH_TASK, work.ROUND_PAIR_TASK) == (
        "tournaments.event_standings_rebuild",
        "tournaments.ratings_update",
        "tournaments.round_pair",
    )
