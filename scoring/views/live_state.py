"""What the match page needs to follow the table live: its version, where to poll, and the last
change in words for this visitor ("Dee entered hand 5 — review it").

Read by ``match_context._context`` for the page and by :func:`scoring.views.live.match_live` for
the fragment that ``static/js/live.js`` swaps in; docs/live.md explains the mechanism. A visitor
is never told about their own moves (they made them), and a spectator (no seat, link or
director role) is told nothing: their page follows the confirmed score sheet silently.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.urls import reverse
from django.utils.translation import gettext as _

from core.live import live_subscribe_url
from scoring.models import Match
from scoring.permissions import Access, Actor
from scoring.selectors.changes import MatchChange, match_last_change


def _mine(change: MatchChange, access: Access, actor: Actor) -> bool:
    if actor.user is not None and change.user_id == actor.user.pk:
        return True
    mine = {access.players[p].pk for p in access.identities if p in access.players}
    return change.player_id is not None and change.player_id in mine


def change_text(change: MatchChange) -> str:
    """The change in words, for the other players at the table."""
    who = change.player_name or change.user_name or _("A director")
    n = change.hand_number
    texts = {
        "entered": _("%(who)s entered hand %(n)s — review it."),
        "confirmed": _("%(who)s confirmed hand %(n)s."),
        "disputed": _("%(who)s disputed hand %(n)s."),
        "withdrawn": _("%(who)s withdrew hand %(n)s: it can be entered again."),
        "corrected": _("A director corrected hand %(n)s."),
    }
    return texts[change.action] % {"who": who, "n": n}


def live_state(*, match: Match, access: Access, actor: Actor) -> dict[str, Any]:
    """The page's live set-up: version, URLs, poll interval and the last change for this
    visitor (``text`` empty when there is nothing to tell them)."""
    change = match_last_change(match_id=match.pk) if access.can_view else None
    text = ""
    if change is not None and not _mine(change, access, actor):
        text = change_text(change)
    return {
        "version": match.live_seq,
        "version_url": reverse("match-version", args=[match.pk]),
        "fragment_url": reverse("match-live", args=[match.pk]),
        "subscribe_url": live_subscribe_url(page="match", pk=match.pk),
        "poll_ms": settings.KNOCK_LIVE_POLL_MS,
        "change": change.id if change is not None else 0,
        "change_action": change.action if change is not None else "",
        "text": text,
    }
