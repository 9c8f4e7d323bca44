"""Reads for matches, games, hands and submissions.

:func:`match_state` is the one place where a match's confirmed submissions become engine inputs
and the engine's game scoring is called: every total, bonus, dealer and role shown anywhere comes
from it. The other selectors shape its output for the API and pages, and answer who may see what.
Nothing here writes.

The package: :mod:`~scoring.selectors.access` (who directs what, which matches a user sees),
:mod:`~scoring.selectors.state` (the engine's view of a match), :mod:`~scoring.selectors.shapes`
(what the API and pages show), :mod:`~scoring.selectors.status` (the status a page shows),
:mod:`~scoring.selectors.preview` (a hand's cards so far, arranged),
:mod:`~scoring.selectors.live` (live scores of many tables) and
:mod:`~scoring.selectors.seating` (who is at an open table).
"""

from scoring.selectors.access import (
    UserLike,
    event_is_director,
    match_list_visible,
)
from scoring.selectors.disputes import dispute_out, disputes_open
from scoring.selectors.live import (
    matches_live_scores,
    matches_live_stamps,
    matches_live_states,
    round_live_scores,
    round_played_match_ids,
    with_status_labels,
)
from scoring.selectors.seating import event_free_table, event_open_seats, seating_warnings
from scoring.selectors.shapes import (
    game_summary,
    hand_history,
    match_detail,
    match_scoresheet,
    submission_get,
    submission_out,
)
from scoring.selectors.state import (
    GameView,
    HandContext,
    MatchState,
    match_prefetched,
    match_standing,
    match_state,
    scored_hand_from,
)
from scoring.selectors.status import STATUS_LABELS, DisplayStatus, match_display_status

__all__ = [
    "STATUS_LABELS",
    "DisplayStatus",
    "GameView",
    "HandContext",
    "MatchState",
    "UserLike",
    "dispute_out",
    "disputes_open",
    "event_free_table",
    "event_is_director",
    "event_open_seats",
    "game_summary",
    "hand_history",
    "match_detail",
    "match_display_status",
    "match_list_visible",
    "match_prefetched",
    "match_scoresheet",
    "match_standing",
    "match_state",
    "matches_live_scores",
    "matches_live_stamps",
    "matches_live_states",
    "round_live_scores",
    "round_played_match_ids",
    "scored_hand_from",
    "seating_warnings",
    "submission_get",
    "submission_out",
    "with_status_labels",
]
