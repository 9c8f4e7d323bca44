"""What a director prints for the room: a round's table list with one slip per table (each seat's
private link as a QR code, the rules in brief) and the players' self check-in cards.

Both expose secrets, so both are a director's only, checked here for the pages and the API
alike. Seat links are the ones the links page shows (:func:`scoring.services.match_keys_ensure`:
issued on first need, then stable until a director reissues them), and only for tables where the
director is not seated (the links page's own rule: a director who plays sees only their own
seat's link). A service because printing a round issues any link not issued yet.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import rules_name
from printing.pdf import Paper, QrCard, SeatSlip, TableSlip, qr_cards_pdf, round_pdf, table_pdf
from scoring.links import secret_of
from scoring.models import Match
from scoring.permissions import Actor, match_access
from scoring.services import match_keys_ensure
from tournaments.links import checkin_url
from tournaments.models import Event, Registration, Round
from tournaments.permissions import user_can_manage_event
from tournaments.selectors import round_matches
from tournaments.selectors.exports import ExportTable

Absolute = Callable[[str], str]
"""Turns a site path into an absolute URL (``request.build_absolute_uri``)."""


def _require_director(*, actor: Actor, event: Event) -> None:
    if actor.user is None or not user_can_manage_event(user=actor.user, event=event):
        raise ApplicationError(_("Only the event's directors may print its links."), status=403)


def rules_in_brief(rules: dict[str, Any]) -> tuple[str, ...]:
    """The rule set in a few short lines for a table slip, in the reader's language."""
    name = rules_name(rules["name"]) if rules.get("name") else "—"
    lines = [_("Rules: %(name)s") % {"name": name}]
    target = rules.get("target")
    if target:
        lines.append(_("A game is played to %(n)s points.") % {"n": target})
    else:
        lines.append(_("A game is one hand."))
    if rules.get("knock_limit") is not None:
        lines.append(_("Knock with %(n)s deadwood or less.") % {"n": rules["knock_limit"]})
    lines.append(
        _("Gin bonus %(gin)s, undercut bonus %(undercut)s.")
        % {"gin": rules.get("gin_bonus", "—"), "undercut": rules.get("undercut_bonus", "—")}
    )
    lines.append(
        _(
            "Scan your seat's code, enter each hand on your phone; the other side confirms it. "
            "Keep this slip private."
        )
    )
    return tuple(lines)


def _table_heading(match: Match) -> str:
    if match.table_number:
        return _("Table %(t)s") % {"t": match.table_number}
    return _("Match %(n)s") % {"n": match.pk}


def round_print_pdf(*, rnd: Round, actor: Actor, absolute: Absolute, paper: Paper) -> bytes:
    """The round's table list and one slip per table with each seat's link as a QR code."""
    event = rnd.event
    _require_director(actor=actor, event=event)
    matches = round_matches(rnd=rnd)
    if not matches:
        raise ApplicationError(_("This round has no tables yet."), status=409)
    open_link = absolute(reverse("match-link-open"))
    rows: list[tuple[str, str, str]] = []
    slips: list[TableSlip] = []
    rules = rules_in_brief(event.rules or {})
    for match in matches:
        seats = sorted(match.seats.all(), key=lambda s: s.position)
        names = [s.player.name for s in seats]
        pairing = _(" vs ").join(names) if len(names) > 1 else (names[0] if names else "—")
        table = str(match.table_number or "—")
        if match.decision == Match.Decision.BYE or len(seats) < 2:
            rows.append((table, pairing, _("bye")))
            continue
        # Seats are counted from 1 on paper, as on the pages (``position`` is 0-based).
        rows.append((table, pairing, " · ".join(str(s.position + 1) for s in seats)))
        note = ""
        urls: dict[int, str] = {}
        if match_access(actor=actor, match=match).neutral_director:
            keys = match_keys_ensure(match=match)
            urls = {
                p: open_link + "#" + secret_of(k.nonce) for p, k in keys.items() if p is not None
            }
        else:
            note = _(
                "You play at this table: another director prints its links, or each player "
                "opens their own from the match page."
            )
        slips.append(
            TableSlip(
                heading=_table_heading(match),
                pairing=pairing,
                seats=tuple(
                    SeatSlip(
                        label=_("Seat %(n)s · %(name)s")
                        % {"n": s.position + 1, "name": s.player.name},
                        url=urls.get(s.position),
                    )
                    for s in seats
                ),
                rules=rules,
                note=note,
            )
        )
    title = _("%(event)s · round %(n)s") % {"event": event.name, "n": rnd.number}
    subtitle = _("Printed %(when)s · %(tables)s tables") % {
        "when": date_format(timezone.localtime(), "DATETIME_FORMAT"),
        "tables": len(matches),
    }
    return round_pdf(
        title=title,
        subtitle=subtitle,
        headers=(_("Table"), _("Players"), _("Seats")),
        rows=rows,
        slips=slips,
        paper=paper,
        footer=event.name,
    )


def checkin_cards_pdf(*, event: Event, actor: Actor, absolute: Absolute, paper: Paper) -> bytes:
    """One card per registered (not dropped) player with their self check-in link's QR code."""
    _require_director(actor=actor, event=event)
    registrations = list(
        Registration.objects.filter(event=event)
        .exclude(status=Registration.Status.DROPPED)
        .select_related("player")
        .order_by("player__name", "pk")
    )
    if not registrations:
        raise ApplicationError(_("Nobody has registered yet."), status=409)
    cards = [
        QrCard(
            heading=r.player.name,
            caption=_("Scan to check in"),
            url=checkin_url(absolute=absolute, token=r.checkin_token),
        )
        for r in registrations
    ]
    return qr_cards_pdf(
        title=_("%(event)s · check-in") % {"event": event.name},
        subtitle=_("Each player scans their own code on arrival to check in."),
        cards=cards,
        paper=paper,
        footer=event.name,
    )


def export_table_pdf(*, table: ExportTable, paper: Paper, footer: str) -> bytes:
    """An export (standings, results) printed: its title, the headers a page has room for, the
    legend of the short ones under the table, and ``footer`` (the event's name) on each page; an
    export with no rows prints the event page's "No results yet." instead. The API and the event
    page's download both print it so."""
    return table_pdf(
        title=table.title,
        subtitle="",
        headers=table.printed_headers,
        rows=table.rows,
        widths=table.widths,
        legend=table.legend,
        paper=paper,
        footer=footer,
        empty=_("No results yet."),
    )
