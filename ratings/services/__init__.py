"""Writes for club ratings: Glicko-2 for two-player matches, OpenSkill for 3-6 players and teams.

Glicko-2 rates a period at once from everybody's rating at its start. Knock keeps each club
rating *provisionally current* during a period: ``Rating.base_*`` is the player's rating at the
start of the current period and ``Rating.rating`` the result of rating every game they have played
in this period so far from that base. Each finished match re-rates its two players' period (the
other players' ratings do not depend on it), so the value shown is always what Glicko-2 would
give if the period closed now, and running an update twice gives the same numbers. A period
without games grows the deviation (Glicko-2 step 6) when the player next plays. A match from a
period before the player's current one counts in the current one.

OpenSkill (Plackett-Luce) rates match by match, so a rating depends on every earlier match.
A newly final match is applied on top of the stored ratings; a correction (a match rated
already, re-opened or changed) rebuilds the club's OpenSkill ratings and history by replaying
its stored multi-player results in (finished_at, id) order from the initial rating
(:func:`ratings_openskill_rebuild`), which gives the numbers the corrected results would have
given from the start. Both paths give the same numbers, and running either twice changes nothing.

The package: :mod:`~ratings.services.glicko` (two-player periods),
:mod:`~ratings.services.openskill` (multi-player, replayed on a correction) and
:mod:`~ratings.services.updates` (what the tasks and corrections call). It reads matches and
seats from ``scoring`` and never imports ``tournaments``: an event's batch update is
``ratings_update_for_event_matches`` with the event's id, and tournaments records which results
the ratings reflect (``tournaments.services.ratings_update_for_event``).
"""

from ratings.services.glicko import club_ratings_lock
from ratings.services.openskill import ratings_openskill_rebuild
from ratings.services.updates import (
    ratings_update_for_event_matches,
    ratings_update_for_match,
    ratings_withdraw_match,
)

__all__ = [
    "club_ratings_lock",
    "ratings_openskill_rebuild",
    "ratings_update_for_event_matches",
    "ratings_update_for_match",
    "ratings_withdraw_match",
]
