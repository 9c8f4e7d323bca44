"""Where a visitor is at a table, in words: who they are here ("You are Cleo (seat 2)"), the
match's status as play left it, the hand being played and who deals it, and what the entry
waiting for confirmation needs.

Presentation only: the status comes from :func:`scoring.selectors.match_display_status`, every
name and number from the match's state.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _

from core.i18n import with_particles
from scoring.models import HandSubmission
from scoring.selectors import STATUS_LABELS, match_display_status


def _you(page: Any) -> dict[str, Any]:
    """Who the visitor is at this table: a seat (or seats), the shared phone, a director."""
    access, state = page.access, page.state
    seats = [
        {"name": access.players[p].name, "seat": p + 1}
        for p in access.identities
        if p in access.players
    ]
    if seats:
        text = _("You are %(names)s.") % {
            "names": _(" and ").join(
                _("%(name)s (seat %(seat)s)") % {"name": s["name"], "seat": s["seat"]}
                for s in seats
            )
        }
        if state.partnership and len(seats) == 1:
            team = state.name_of(state.side_of(access.identities[0]))
            text += " " + _("Your team: %(team)s.") % {"team": team}
        return {"kind": "seat", "seats": seats, "text": with_particles(text)}
    if access.speaks_for_table:
        return {"kind": "table", "text": _("This is the table's shared phone.")}
    return {"kind": "director", "text": _("You direct this event: you see every entry.")}


def _pending_words(page: Any) -> str | None:
    """The entry waiting for confirmation, in one sentence a player can act on."""
    current = page.state.current
    if current is None or current.pending is None or not page.access.can_view:
        return None
    sub = current.pending
    who = sub.submitted_by_player.name if sub.submitted_by_player is not None else _("a director")
    mine = sub.submitted_by_player is not None and any(
        page.access.players.get(p) == sub.submitted_by_player for p in page.access.identities
    )
    values = {"n": sub.hand.number, "who": who}
    # Every sentence goes through with_particles: a translation that names a player with a
    # fallback particle ("%(who)s이(가)") must never reach the reader as written.
    if sub.status == HandSubmission.Status.DISPUTED:
        if mine:
            text = _("Your entry of hand %(n)s is disputed: withdraw it or wait for a director.")
        else:
            text = _("Hand %(n)s, entered by %(who)s, is disputed: a director settles it.")
    elif mine:
        text = _("You entered hand %(n)s: the other side confirms it.")
    elif page.access.is_player or page.access.director:
        text = _("%(who)s entered hand %(n)s: check it, then confirm or dispute.")
    else:
        text = _("Hand %(n)s was entered and waits for confirmation.")
    return with_particles(text % values)


def whereabouts(page: Any) -> dict[str, Any]:
    """The "where am I" block of a table page (match page and paper score sheet); ``page`` is
    the view's ``_Page`` (the request's actor, access and match state)."""
    state = page.state
    status = match_display_status(state=state, show_pending=page.access.can_view)
    current = state.current
    hand: dict[str, Any] | None = None
    if current is not None:
        ctx = current.next_context
        number = current.pending.hand.number if current.pending is not None else ctx.number
        dealer = state.name_of(ctx.dealer) or ""
        values = {"g": current.game.number, "n": number, "d": dealer}
        if state.partnership:
            # A team deals: "Zeke & Elif deal", never "deals".
            line = with_particles(_("Game %(g)s, hand %(n)s: %(d)s deal.") % values)
        else:
            line = with_particles(_("Game %(g)s, hand %(n)s: %(d)s deals.") % values)
        hand = {"number": number, "game": current.game.number, "dealer": dealer, "line": line}
    return {
        "you": _you(page) if page.access.can_view else None,
        "status": status,
        "status_label": STATUS_LABELS.get(status, status),
        "hand": hand,
        "pending": _pending_words(page),
    }
