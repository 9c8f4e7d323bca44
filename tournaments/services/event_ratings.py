"""An event's ratings in one pass, and the record of which of its results they reflect.

The rating itself is ``ratings``' (:func:`ratings.services.ratings_update_for_event_matches`);
what belongs to the event, its ``ratings_seq``, is written here.
"""

from __future__ import annotations

from ratings.services import ratings_update_for_event_matches
from tournaments.models import Event


def ratings_update_for_event(*, event: Event) -> int:
    """Re-rate every two-player match of ``event`` at once (the batch path); returns players rated.

    The event's ``ratings_seq`` is written after the ratings' commit, not under the club's rating
    lock: a correction takes the event's row (its results bump) before the club's (the ratings
    it withdraws), so holding the club's while waiting for the event's could deadlock with it.
    Lost with a crash in between, it is only a repeat of this idempotent update.
    """
    rated = ratings_update_for_event_matches(club=event.club, event_id=event.pk)
    if rated:
        Event.objects.filter(pk=event.pk).update(ratings_seq=event.results_seq)
    return rated
