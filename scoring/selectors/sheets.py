"""Who may enter a whole paper score sheet at a match: the one rule the service and the page share.

A paper score sheet is stored confirmed at once, so it is entered by a director (the sheet is
signed by both players) or, at an event that needs no confirmation, by anyone with access to the
match (a player, their link or the table link). Everyone else enters hand by hand.

Not re-exported from :mod:`scoring.selectors`: it reads :mod:`scoring.permissions`, which itself
imports the selectors package. Import it from here.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.utils.translation import gettext as _

from scoring.models import Confirmation, Match
from scoring.organiser import organiser
from scoring.permissions import Access, Actor, match_access


@dataclass(frozen=True, slots=True)
class SheetRefusal:
    """Why an actor may not enter a paper score sheet, and the HTTP status it maps to."""

    message: str
    status: int


def scoresheet_refusal(
    *, actor: Actor, match: Match, access: Access | None = None
) -> SheetRefusal | None:
    """None when ``actor`` may enter a paper score sheet at ``match``, else why not.

    404 for anyone who may not see the match (it is not revealed); 403 for a player at an event
    that needs confirmation. ``access`` is the actor's standing when the caller already has it.
    """
    if access is None:
        access = match_access(actor=actor, match=match)
    if not access.can_view:
        return SheetRefusal(_("Not found."), 404)
    if (
        access.neutral_director
        or organiser().terms_for(match=match).confirmation == Confirmation.NONE
    ):
        return None
    return SheetRefusal(
        _(
            "At this event a paper score sheet is entered by a director not playing at the "
            "table; players enter hand by hand."
        ),
        403,
    )


def scoresheet_allowed(*, actor: Actor, match: Match, access: Access | None = None) -> bool:
    """Whether ``actor`` may enter a paper score sheet at ``match`` (why not:
    :func:`scoresheet_refusal`)."""
    return scoresheet_refusal(actor=actor, match=match, access=access) is None
