"""A match's status as players and spectators should read it, derived from its play.

The stored ``Match.status`` moves only when a confirmed hand is scored (``match_sync``): it says
"scheduled" while the first hand waits for confirmation and knows nothing of a dispute. What a
page shows instead follows the play: not started, playing, an entry waiting for confirmation, an
entry disputed, finished (or the decision: bye, walkover, forfeit). Reads only the state.
"""

from __future__ import annotations

from typing import Any, Literal

from django.utils.translation import gettext_lazy

from scoring.models import HandSubmission, Match
from scoring.selectors.state import MatchState

DisplayStatus = Literal[
    "scheduled", "playing", "waiting", "disputed", "finished", "bye", "walkover", "forfeit"
]

STATUS_LABELS: dict[str, Any] = {
    "scheduled": gettext_lazy("not started"),
    "playing": gettext_lazy("playing"),
    "waiting": gettext_lazy("waiting for confirmation"),
    "disputed": gettext_lazy("disputed"),
    "finished": gettext_lazy("finished"),
    "bye": gettext_lazy("bye"),
    "walkover": gettext_lazy("walkover"),
    "forfeit": gettext_lazy("both forfeit"),
}
"""How each display status reads on a page."""


def match_display_status(*, state: MatchState, show_pending: bool = True) -> DisplayStatus:
    """What the match is doing now; ``show_pending`` False for a visitor who may not see an
    entry before it is confirmed (spectators see "playing" while a hand waits)."""
    match = state.match
    if match.decision != Match.Decision.PLAYED:
        return match.decision  # type: ignore[return-value]
    if state.finished:
        return "finished"
    current = state.current
    pending = current.pending if current is not None else None
    if pending is not None and show_pending:
        if pending.status == HandSubmission.Status.DISPUTED:
            return "disputed"
        return "waiting"
    started = any(view.hands for view in state.games) or pending is not None
    return "playing" if started else "scheduled"
