"""What a director prints for the room: a round's table list with one slip per table (each seat's
private link as a QR code, the rules in brief), the players' self check-in cards, and a round's
wall sheet ("who plays where": every player by name with their table and seat, for the players
without a phone; public, as the round's pairings are).

Both expose secrets, so both are a director's only, checked here for the pages and the API
alike. Seat links are the ones the links page shows (:func:`scoring.services.match_keys_ensure`:
issued on first need, then stable until a director reissues them), and only for tables where the
director is not seated (the links page's own rule: a director who plays sees only their own
seat's link). A service because printing a round issues any link not issued yet.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Callable
from typing import Any

from django.urls import reverse
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import rules_name
from passes.links import pass_url
from passes.services import pass_ensure
from printing.pdf import Paper, QrCard, SeatSlip, TableSlip, qr_cards_pdf, round_pdf, table_pdf
from scoring.links import secret_of
from scoring.models import Match
from scoring.permissions import Actor, match_access
from scoring.services import match_keys_ensure
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
    # The card holds the player's pass (passes): check-in, their table each round and their
    # results on one link. A registration without one (made before passes) is issued one now.
    cards = [
        QrCard(
            heading=r.player.name,
            caption=_("Scan: your pass"),
            url=pass_url(absolute=absolute, player_pass=pass_ensure(registration=r)),
        )
        for r in registrations
    ]
    return qr_cards_pdf(
        title=_("%(event)s · check-in") % {"event": event.name},
        subtitle=_(
            "Each player scans their own code: their pass for the event, to check in on "
            "arrival and see their table each round."
        ),
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


WALL_SHEET_SIZE = 14
"""The wall sheet's type size (points): read standing, a step from the wall."""


def wall_sheet_rows(*, rnd: Round) -> list[tuple[str, str, str, str]]:
    """Every seat of ``rnd``, by player's name (:func:`name_order`): (name, table, seat,
    opponents). A bye has no table or
    seat; a partnership's opponents are the other team."""
    rows: list[tuple[str, str, str, str]] = []
    for match in round_matches(rnd=rnd):
        seats = sorted(match.seats.all(), key=lambda s: s.position)
        bye = match.decision == Match.Decision.BYE or len(seats) < 2
        for seat in seats:
            if bye:
                rows.append((seat.player.name, _("bye"), "—", "—"))
                continue
            others = [
                o.player.name
                for o in seats
                if o.pk != seat.pk and (o.team is None or seat.team is None or o.team != seat.team)
            ]
            rows.append(
                (
                    seat.player.name,
                    str(match.table_number) if match.table_number else "—",
                    str(seat.position + 1),
                    ", ".join(others) or "—",
                )
            )
    rows.sort(key=lambda r: (name_order(r[0]), r[0], r[1]))
    return rows


def name_order(name: str) -> str:
    """The key a name is listed by: its letters without accents, case folded ("Émile" between
    "Ada" and "zoë"); Korean names keep their syllables' order."""
    decomposed = unicodedata.normalize("NFKD", name)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c))
    return unicodedata.normalize("NFC", bare).casefold()


def round_wall_sheet_pdf(*, rnd: Round, paper: Paper) -> bytes:
    """The round's wall sheet: every player by name with their table, seat and opponent."""
    event = rnd.event
    rows = wall_sheet_rows(rnd=rnd)
    if not rows:
        raise ApplicationError(_("This round has no tables yet."), status=409)
    return table_pdf(
        title=_("%(event)s · round %(n)s · who plays where")
        % {"event": event.name, "n": rnd.number},
        subtitle=_("Printed %(when)s · find your name, then your table and seat.")
        % {"when": date_format(timezone.localtime(), "DATETIME_FORMAT")},
        headers=(_("Player"), _("Table"), _("Seat"), _("Against")),
        rows=rows,
        widths=(0.4, 0.12, 0.1, 0.38),
        paper=paper,
        footer=event.name,
        size=WALL_SHEET_SIZE,
    )
