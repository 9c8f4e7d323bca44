"""The match (table) page: score sheet, hand entry, confirmation, corrections, private links;
the paper score sheet form (a whole game at once) and the director's CSV import page.

Thin views over ``scoring.selectors`` (the engine's view of a match) and ``scoring.services``
(every write). Who may see or do what is decided by ``scoring.permissions`` and the services;
this module only hides buttons a visitor could not use and shows the services' messages next to
the field they name. A visitor without access to the match (no seat, link or director role)
sees the confirmed score sheet only, never an entry form or an unconfirmed entry.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Sequence
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext, pgettext
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ApplicationError
from core.i18n import engine_message
from core.parsing import parse_ascii_int
from engine.errors import EngineError
from engine.scoring import HandOutcome
from scoring.forms import (
    SHEET_FIELDS,
    SHEET_MAX,
    SHEET_MORE,
    SHEET_ROWS,
    TAB_FIELDS,
    EntryInput,
    ImportCsvForm,
    SheetInput,
    blank_sheet_rows,
    read_entry,
    read_sheet,
)
from scoring.models import HandSubmission, Match
from scoring.permissions import Access, Actor, match_access
from scoring.selectors import (
    MatchState,
    event_is_director,
    hand_history,
    match_detail,
    match_list_visible,
    match_prefetched,
    match_scoresheet,
    match_state,
    submission_get,
)
from scoring.selectors.sheets import scoresheet_allowed, scoresheet_refusal
from scoring.services import (
    CSV_COLUMNS,
    hand_confirm,
    hand_override,
    hand_submit,
    hand_withdraw,
    import_csv,
    scoresheet_submit,
)
from scoring.services.imports import CSV_REQUIRED, RowProblem
from scoring.services.sheets import ScoresheetProblems
from scoring.views_links import link_cards
from tournaments.models import Event

OUTCOME_LABELS: dict[str, Any] = {
    "knock": gettext_lazy("knock"),
    "gin": gettext_lazy("gin"),
    "big_gin": gettext_lazy("big gin"),
    "undercut": gettext_lazy("undercut"),
    "dead": gettext_lazy("dead hand"),
    "rummy": gettext_lazy("rummy"),
    "out": gettext_lazy("went out"),
}

ROLE_LABELS: dict[str, Any] = {
    "box": gettext_lazy("in the box"),
    "captain": gettext_lazy("captain"),
    "sitter": gettext_lazy("sitter"),
}


class _Page:
    """One request's view of a match: the actor, their access and the engine's state."""

    def __init__(self, request: HttpRequest, pk: int) -> None:
        self.request = request
        self.actor = Actor.from_request(request)
        try:
            self.match = match_prefetched(match_id=pk)
        except Match.DoesNotExist:
            raise Http404 from None
        self.access: Access = match_access(actor=self.actor, match=self.match)
        self.state: MatchState = match_state(match=self.match)
        # Links never travel in page addresses (they are exchanged for a seat session).
        self.qs = ""

    def url(self, name: str = "match-detail", *args: Any) -> str:
        return reverse(name, args=[self.match.pk, *args]) + self.qs

    def back(self, anchor: str = "") -> HttpResponseRedirect:
        return HttpResponseRedirect(self.url() + anchor)

    def submission(self, sid: int) -> HandSubmission:
        try:
            sub = submission_get(submission_id=sid)
        except HandSubmission.DoesNotExist:
            raise Http404 from None
        if sub.hand.game.match_id != self.match.pk:
            raise Http404
        return sub


# -- presentation helpers (no scoring here: every number comes from the selectors) -------------


def _version(page: _Page) -> str:
    """What changes when a hand is entered, confirmed or withdrawn (for the live poll)."""
    hands = sum(len(v.hands) for v in page.state.games)
    current = page.state.current
    waiting = current.pending if current is not None else None
    pending = f"{waiting.pk}.{waiting.status}" if waiting is not None else "0"
    return f"{hands}-{pending}-{page.state.match.status}"


def _links(page: _Page) -> list[dict[str, Any]]:
    """The links this visitor may see: every one (and the table link) for a director not
    playing at the match, else only the visitor's own seat's."""
    return link_cards(page.request, page.match, page.access, everyone=page.access.neutral_director)


def _scoreboard(
    state: MatchState, detail: dict[str, Any], game: dict[str, Any] | None
) -> list[dict[str, Any]]:
    roles: dict[int, str] = {}
    nxt = detail.get("next") or {}
    for role, info in (nxt.get("roles") or {}).items():
        roles[info["position"]] = ROLE_LABELS.get(role, role)
    sitting_out = nxt.get("sitting_out")
    rows = []
    for side in detail["sides"]:
        index = side["index"]
        row: dict[str, Any] = {
            "name": side["name"],
            "index": index,
            "role": roles.get(index),
            "sitting_out": sitting_out == index,
            "games_won": detail["games_won"][index] if index < len(detail["games_won"]) else 0,
            "winner": detail["finished"] and detail["winner"] == index,
        }
        if game is not None and "columns" in game:
            row["columns"] = [c["totals"][index] for c in game["columns"]]
        elif game is not None:
            row["total"] = game["totals"][index]
            row["hands_won"] = game["hands_won"][index]
        rows.append(row)
    return rows


def _bonus_lines(game: dict[str, Any]) -> list[dict[str, Any]]:
    """The end-of-game lines of one ledger (a game, or one Hollywood column)."""
    if not game.get("finished"):
        return []
    lines = [{"label": _("Points"), "values": game["totals"]}]
    bonuses = game["bonuses"]
    for key, label in (
        ("game", _("Game bonus")),
        ("box", _("Box bonus")),
        ("shutout", _("Shutout bonus")),
    ):
        if any(bonuses[key]):
            lines.append({"label": label, "values": bonuses[key]})
    lines.append(
        {
            "label": pgettext("score sheet total", "Final"),
            "values": game["final_totals"],
            "total": True,
        }
    )
    return lines


def _sheet(state: MatchState, sheet: dict[str, Any]) -> list[dict[str, Any]]:
    games = []
    for game in sheet["games"]:
        rows = []
        for row in game["rows"]:
            rows.append(
                {
                    **row,
                    "outcome_label": OUTCOME_LABELS.get(row["outcome"], row["outcome"]),
                    "dealer_name": state.name_of(row["dealer"]),
                }
            )
        if "columns" in game:
            ledgers = [
                {
                    "number": n,
                    "lines": _bonus_lines(c),
                    "winner_name": c["winner_name"],
                    "margin": c["margin"],
                    "finished": c["finished"],
                }
                for n, c in enumerate(game["columns"], start=1)
            ]
        else:
            ledgers = [
                {
                    "number": None,
                    "lines": _bonus_lines(game),
                    "winner_name": game.get("winner_name"),
                    "margin": game.get("margin"),
                    "finished": game.get("finished"),
                    "shutout": game.get("shutout"),
                }
            ]
        games.append({**game, "rows": rows, "ledgers": ledgers})
    return games


def _side_of_player(state: MatchState, player_id: int | None) -> int | None:
    for seat in state.seats:
        if seat.player_id == player_id:
            return state.side_of(seat.position)
    return None


def _pending(page: _Page) -> dict[str, Any] | None:
    """The entry waiting for confirmation and the buttons this visitor could use on it."""
    current = page.state.current
    if current is None or current.pending is None or not page.access.can_view:
        return None
    sub = current.pending
    state, access = page.state, page.access
    director_only = state.match.event.confirmation == Event.Confirmation.DIRECTOR
    submitter_side = _side_of_player(state, sub.submitted_by_player_id)
    submitter_name = (
        sub.submitted_by_player.name
        if sub.submitted_by_player is not None
        else (sub.submitted_by_user.get_username() if sub.submitted_by_user is not None else "")
    )
    opponents = [s for s in state.seats if state.side_of(s.position) != submitter_side]
    user = page.actor.user
    submitter_seat = next(
        (s.position for s in state.seats if s.player_id == sub.submitted_by_player_id), None
    )
    mine = (user is not None and sub.submitted_by_user_id == user.pk) or (
        submitter_seat is not None and submitter_seat in access.identities
    )
    disputed = sub.status == HandSubmission.Status.DISPUTED
    confirm: list[dict[str, Any]] = []
    dispute: list[dict[str, Any]] = []
    withdraw: list[dict[str, Any]] = []
    if disputed or director_only:
        if access.neutral_director and not mine:
            label = _("Settle: confirm as entered") if disputed else _("Confirm as director")
            confirm.append({"label": label, "as_position": None})
    else:
        if access.speaks_for_table:
            for seat in opponents:
                confirm.append(
                    {
                        "label": _("I am %(name)s: confirm") % {"name": seat.player.name},
                        "as_position": seat.position,
                    }
                )
                dispute.append(
                    {
                        "label": _("I am %(name)s: dispute") % {"name": seat.player.name},
                        "as_position": seat.position,
                    }
                )
        elif not mine:
            for position in access.identities:
                if state.side_of(position) != submitter_side:
                    confirm.append({"label": _("Confirm"), "as_position": None})
                    dispute.append({"label": _("Dispute"), "as_position": None})
                    break
        if access.neutral_director and not mine and not confirm:
            confirm.append({"label": _("Confirm as director"), "as_position": None})
    if mine or access.neutral_director:
        withdraw.append({"as_position": None})
    elif access.speaks_for_table and submitter_seat is not None:
        withdraw.append({"as_position": submitter_seat})
    waiting_for = (
        [_("a director")] if director_only or disputed else [s.player.name for s in opponents]
    )
    result = sub.result
    return {
        "sub": sub,
        "submitter": submitter_name,
        "disputer": (
            sub.disputed_by_player.name
            if sub.disputed_by_player is not None
            else (sub.disputed_by_user.get_username() if sub.disputed_by_user is not None else "")
        ),
        "mine": mine,
        "waiting_for": waiting_for,
        "confirm": confirm,
        "dispute": dispute,
        "withdraw": withdraw,
        "disputed": disputed,
        "handover": access.speaks_for_table and not disputed and bool(confirm),
        "result": result,
        "outcome_label": OUTCOME_LABELS.get(result.get("outcome"), result.get("outcome")),
        "winner_name": state.name_of(result.get("winner")),
        "pairings": [
            {
                "name": state.name_of(p.get("defender")),
                "outcome_label": OUTCOME_LABELS.get(p.get("outcome"), p.get("outcome")),
                "winner_name": state.name_of(p.get("winner")),
                "points": p.get("points"),
                "formula": p.get("formula"),
            }
            for p in result.get("pairings", ())
        ],
    }


def _entry_setup(page: _Page) -> dict[str, Any]:
    """What the entry form needs to show: the tabs, who plays this hand, the rule set's extras."""
    state, access = page.state, page.access
    rules = state.rules
    current = state.current
    playing = list(current.next_context.playing) if current is not None else []
    seats = {s.position: s.player.name for s in state.seats}
    if state.partnership or rules.family == "rummy":
        playing = list(seats)
    if rules.family == "rummy":
        tabs = ["rummy"]
    elif state.partnership:
        tabs = ["partnership", "dead"]
    else:
        tabs = ["counts", "cards", "dead"]
    outcomes = [
        ("knock", OUTCOME_LABELS["knock"]),
        ("undercut", OUTCOME_LABELS["undercut"]),
        ("gin", OUTCOME_LABELS["gin"]),
    ]
    if rules.big_gin:
        outcomes.append(("big_gin", OUTCOME_LABELS["big_gin"]))
    need_identity = access.speaks_for_table or len(access.identities) > 1
    return {
        "tabs": tabs,
        "playing": [{"position": p, "name": seats[p]} for p in playing],
        "seats": [{"position": p, "name": n} for p, n in sorted(seats.items())],
        "outcomes": outcomes,
        "needs_upcard": rules.knock_limit == "upcard" or rules.spade_doubles,
        "needs_die": rules.knock_limit == "dice",
        "gem": rules.family == "gem",
        "identity": (
            [
                {"position": p, "name": seats[p]}
                for p in (sorted(seats) if access.speaks_for_table else access.identities)
            ]
            if need_identity
            else []
        ),
        "hand_size": rules.hand_size,
        "gem_three": rules.family == "gem" and len(seats) == 3,
    }


def _defender_slots(
    page: _Page, setup: dict[str, Any], errors: dict[str, str], posted: Any
) -> list[dict[str, Any]]:
    """A three-player Gem hand's two defender fieldsets: their posted values and errors."""
    if not setup.get("gem_three"):
        return []
    data = posted or {}
    slots = []
    for d in (0, 1):
        names = ("defender", "outcome", "defender_deadwood", "defender_cards", "points")
        slots.append(
            {
                "index": d,
                "number": d + 1,
                "posted": {name: data.get(f"d{d}_{name}", "") for name in names}
                | {"defender_gem_bonus": bool(data.get(f"d{d}_defender_gem_bonus"))},
                "errors": [
                    message for key, message in errors.items() if key.startswith(f"defenders[{d}].")
                ],
            }
        )
    return slots


def _context(
    page: _Page,
    *,
    tab: str | None = None,
    errors: dict[str, str] | None = None,
    form_error: str | None = None,
    posted: Any = None,
) -> dict[str, Any]:
    state, access = page.state, page.access
    visible = access.can_view
    detail = match_detail(state=state, show_pending=visible)
    sheet = match_scoresheet(state=state, show_pending=visible)
    games = _sheet(state, sheet)
    current_game = sheet["games"][-1] if sheet["games"] else None
    pending = _pending(page)
    can_enter = (
        visible
        and (access.is_player or access.director)
        and state.current is not None
        and pending is None
        and state.match.decision == Match.Decision.PLAYED
    )
    setup = _entry_setup(page) if can_enter else None
    if setup is not None and tab not in setup["tabs"]:
        tab = setup["tabs"][0]
    if setup is not None:
        setup["defender_slots"] = _defender_slots(page, setup, errors or {}, posted)
    return {
        "page": page,
        "match": state.match,
        "event": state.match.event,
        "rules": state.rules,
        "detail": detail,
        "scoreboard": _scoreboard(state, detail, current_game),
        "games": games,
        "hollywood": bool(state.rules.hollywood_games),
        "sides": detail["sides"],
        "next": detail["next"],
        "pending": pending,
        "can_enter": can_enter,
        "setup": setup,
        "tab": tab,
        "errors": {_key(k): v for k, v in (errors or {}).items()},
        "form_error": form_error,
        "posted": posted if posted is not None else {},
        "links": _links(page) if visible else [],
        "director": access.director,
        "neutral_director": access.neutral_director,
        "qs": page.qs,
        "version": _version(page),
        "poll": visible and (pending is not None or not can_enter) and not state.finished,
        "sheet_offer": can_enter and _sheet_offered(page),
    }


def _key(name: str) -> str:
    """A field name a template can look up: ``boards[0].knocker`` → ``boards_0_knocker``."""
    return name.replace("].", "_").replace("[", "_").replace("]", "").replace(".", "_")


# -- pages -----------------------------------------------------------------------------------


def match_page(request: HttpRequest, pk: int) -> HttpResponse:
    page = _Page(request, pk)
    return render(request, "scoring/match.html", _context(page, tab=request.GET.get("tab")))


def match_live(request: HttpRequest, pk: int) -> HttpResponse:
    """The live poll: 204 while nothing changed, else tell htmx to reload the page."""
    page = _Page(request, pk)
    if request.GET.get("v") == _version(page):
        return HttpResponse(status=204)
    response = HttpResponse(status=200)
    response["HX-Refresh"] = "true"
    return response


def _entry_error(
    page: _Page,
    inp: EntryInput,
    errors: dict[str, str],
    general: str | None,
    status: int,
    template: str = "scoring/match.html",
    extra: dict[str, Any] | None = None,
) -> HttpResponse:
    shown = TAB_FIELDS.get(inp.mode, frozenset())
    field_errors = {k: v for k, v in errors.items() if k in shown or k == "as_position"}
    leftover = [v for k, v in errors.items() if k not in field_errors]
    if general:
        leftover.insert(0, general)
    context = _context(
        page,
        tab=inp.mode,
        errors=field_errors,
        form_error=" ".join(leftover) or None,
        posted=page.request.POST,
    )
    context.update(extra or {})
    return render(page.request, template, context, status=status)


def _status(exc: ApplicationError) -> int:
    return exc.status if 400 <= exc.status < 500 else 400


@require_POST
def hand_submit_view(request: HttpRequest, pk: int) -> HttpResponse:
    page = _Page(request, pk)
    if not page.access.can_view:
        raise Http404
    inp = read_entry(request.POST, positions=[s.position for s in page.state.seats])
    if inp.entry is None:
        return _entry_error(page, inp, inp.errors, None, 400)
    try:
        hand_submit(
            match=page.match, actor=page.actor, entry=inp.entry, as_position=inp.as_position
        )
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        fields = {exc.field: exc.message} if exc.field else {}
        return _entry_error(page, inp, fields, None if fields else exc.message, _status(exc))
    except EngineError as exc:
        return _entry_error(page, inp, {}, engine_message(exc), 400)
    return page.back("#pending")


def _as_position(request: HttpRequest) -> int | None:
    raw = (request.POST.get("as_position") or "").strip()
    return parse_ascii_int(raw)


@require_POST
def submission_confirm_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    page = _Page(request, pk)
    sub = page.submission(sid)
    try:
        hand_confirm(submission=sub, actor=page.actor, as_position=_as_position(request))
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        messages.error(request, exc.message)
        return page.back("#pending")
    messages.success(request, _("Hand %(n)s confirmed.") % {"n": sub.hand.number})
    if request.POST.get("next") == "disputes":
        return HttpResponseRedirect(reverse("event-disputes", args=[page.match.event_id]))
    return page.back("#sheet")


@require_POST
def submission_withdraw_view(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    page = _Page(request, pk)
    sub = page.submission(sid)
    try:
        hand_withdraw(submission=sub, actor=page.actor, as_position=_as_position(request))
    except ApplicationError as exc:
        if exc.status == 404:
            raise Http404 from None
        messages.error(request, exc.message)
        return page.back("#pending")
    messages.info(request, _("The entry was withdrawn: enter the hand again."))
    return page.back("#entry")


def submission_page(request: HttpRequest, pk: int, sid: int) -> HttpResponse:
    """A director's view of one hand: every version and change, and the override form."""
    page = _Page(request, pk)
    if not page.access.director:
        raise Http404
    sub = page.submission(sid)
    history = hand_history(submission=sub)
    extra = {"submission": sub, "history": history}
    if not page.access.neutral_director:
        # A director who plays at this table reads the history but never corrects it.
        if request.method == "POST":
            message = _("You play at this table: another director corrects its hands.")
            return render(request, "tournaments/forbidden.html", {"message": message}, status=403)
        context = _context(page)
        context.update(extra)
        context.update(setup=None, override=False, can_enter=False)
        return render(request, "scoring/submission.html", context)
    if request.method == "POST":
        inp = read_entry(request.POST, positions=[s.position for s in page.state.seats])
        reason = (request.POST.get("reason") or "").strip()
        errors = dict(inp.errors)
        if inp.entry is not None and not errors:
            try:
                hand_override(submission=sub, actor=page.actor, entry=inp.entry, reason=reason)
            except ApplicationError as exc:
                if exc.field:
                    errors[exc.field] = exc.message
                    general = None
                else:
                    general = exc.message
                return _override_error(page, inp, errors, general, _status(exc), extra)
            except EngineError as exc:
                return _override_error(page, inp, errors, engine_message(exc), 400, extra)
            messages.success(request, _("Hand %(n)s corrected.") % {"n": sub.hand.number})
            return page.back("#sheet")
        return _override_error(page, inp, errors, None, 400, extra)
    context = _context(page)
    context.update(extra)
    context.update(_override_setup(page))
    return render(request, "scoring/submission.html", context)


def _override_setup(page: _Page) -> dict[str, Any]:
    setup = _entry_setup(page)
    setup["identity"] = []
    setup["playing"] = setup["seats"]
    setup["defender_slots"] = _defender_slots(page, setup, {}, None)
    return {"setup": setup, "tab": setup["tabs"][0], "override": True}


def _override_error(
    page: _Page,
    inp: EntryInput,
    errors: dict[str, str],
    general: str | None,
    status: int,
    extra: dict[str, Any],
) -> HttpResponse:
    shown = TAB_FIELDS.get(inp.mode, frozenset()) | {"reason"}
    field_errors = {k: v for k, v in errors.items() if k in shown}
    leftover = [v for k, v in errors.items() if k not in field_errors]
    if general:
        leftover.insert(0, general)
    context = _context(page, posted=page.request.POST)
    context.update(extra)
    context.update(_override_setup(page))
    context["setup"]["defender_slots"] = _defender_slots(
        page, context["setup"], field_errors, page.request.POST
    )
    context.update(tab=inp.mode, errors=field_errors, form_error=" ".join(leftover) or None)
    return render(page.request, "scoring/submission.html", context, status=status)


# -- a whole paper score sheet -------------------------------------------------------------------

_SHEET_OUTCOMES = ("knock", "gin", "big_gin", "undercut", "dead")
SHEET_LABELS: dict[str, Any] = {
    "knocker": gettext_lazy("Knocker"),
    "outcome": gettext_lazy("Outcome"),
    "knocker_deadwood": gettext_lazy("Knocker's deadwood"),
    "defender_deadwood": gettext_lazy("Defender's deadwood"),
    "points": gettext_lazy("Points (to check)"),
    "upcard": gettext_lazy("Upcard"),
    "knock_limit": gettext_lazy("Knock-limit die"),
}
_HAND_FIELD = re.compile(r"^hands\[(\d+)\](?:\.(\w+))?$")


def _sheet_fits(state: MatchState) -> bool:
    """Whether a sheet row (one knocker, counts) can hold a hand of this rule set (not a
    three-player Gem hand, which has a row per defender)."""
    gem_three = state.rules.family == "gem" and len(state.seats) == 3
    return not state.partnership and state.rules.family != "rummy" and not gem_three


def _sheet_fresh(state: MatchState) -> bool:
    current = state.current
    return current is not None and not current.hands and current.pending is None


def _sheet_offered(page: _Page) -> bool:
    """Show the paper sheet link: a fresh game, and a visitor the service would let in (the
    service's own rule, :func:`~scoring.selectors.sheets.scoresheet_allowed`)."""
    state = page.state
    may = scoresheet_allowed(actor=page.actor, match=page.match, access=page.access)
    return may and _sheet_fits(state) and _sheet_fresh(state)


def _sheet_shown(state: MatchState) -> frozenset[str]:
    """The columns a sheet row shows for these rules."""
    hidden = set()
    if not (state.rules.knock_limit == "upcard" or state.rules.spade_doubles):
        hidden.add("upcard")
    if state.rules.knock_limit != "dice":
        hidden.add("knock_limit")
    return frozenset(SHEET_FIELDS) - hidden


def _sheet_render(
    page: _Page,
    rows: list[dict[str, str]],
    *,
    errors: dict[int, dict[str, str]] | None = None,
    form_error: str | None = None,
    game: int | None = None,
    status: int = 200,
    allowed: bool = True,
) -> HttpResponse:
    state = page.state
    rules = state.rules
    current = state.current
    errors = errors or {}
    outcomes = [
        (value, OUTCOME_LABELS[value])
        for value in _SHEET_OUTCOMES
        if value != "big_gin" or rules.big_gin
    ]
    if game is None and current is not None:
        game = current.game.number
    context = {
        "page": page,
        "match": state.match,
        "event": state.match.event,
        "rules": rules,
        "detail": match_detail(state=state, show_pending=page.access.can_view),
        "hollywood": bool(rules.hollywood_games),
        "qs": page.qs,
        "game": game,
        "fits": _sheet_fits(state),
        "fresh": _sheet_fresh(state),
        "over": current is None,
        "shown": _sheet_shown(state),
        "seats": [{"position": s.position, "name": s.player.name} for s in state.seats],
        "outcomes": outcomes,
        "labels": SHEET_LABELS,
        "rows": [
            {
                "index": i,
                "number": i + 1,
                "values": row,
                "errors": errors.get(i, {}),
                "messages": [
                    (SHEET_LABELS.get(name, ""), message)
                    for name, message in errors.get(i, {}).items()
                ],
            }
            for i, row in enumerate(rows)
        ],
        "row_count": len(rows),
        "can_add": len(rows) < SHEET_MAX,
        "more": SHEET_MORE,
        "max_rows": SHEET_MAX,
        "form_error": form_error,
        "allowed": allowed,
        "first_error": min(errors) + 1 if errors else None,
        "error_count": len(errors),
        "error_rows": ", ".join(str(row + 1) for row in sorted(errors)),
    }
    return render(page.request, "scoring/scoresheet.html", context, status=status)


def _sheet_problems(
    state: MatchState,
    inp: SheetInput,
    problems: Sequence[RowProblem],
    errors: dict[int, dict[str, str]],
) -> list[str]:
    """Put each of the service's problems at the row and column it names into ``errors``
    (``hands[3].knocker_deadwood`` is the fourth hand's knocker deadwood, in the sheet row it
    was typed in); the messages of any it cannot place are returned, for above the sheet."""
    shown = _sheet_shown(state)
    leftover = []
    for problem in problems:
        m = _HAND_FIELD.match(problem.field or "")
        if m is None or int(m.group(1)) >= len(inp.rows_of):
            leftover.append(problem.message)
            continue
        name = m.group(2) or "row"
        if name not in shown:
            name = "row"
        errors.setdefault(inp.rows_of[int(m.group(1))], {})[name] = problem.message
    return leftover


@require_http_methods(["GET", "POST"])
def scoresheet_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Enter a paper score sheet: all hands of the current (fresh) game, stored all or none."""
    page = _Page(request, pk)
    if not page.access.can_view:
        raise Http404
    if request.method != "POST":
        refusal = scoresheet_refusal(actor=page.actor, match=page.match, access=page.access)
        return _sheet_render(
            page,
            blank_sheet_rows(SHEET_ROWS),
            form_error=refusal.message if refusal is not None else None,
            allowed=refusal is None,
        )
    inp = read_sheet(request.POST)
    if "more" in request.POST:
        extra = blank_sheet_rows(max(0, min(SHEET_MORE, SHEET_MAX - len(inp.rows))))
        return _sheet_render(page, inp.rows + extra, game=inp.game)
    # Every row's problem at once: the rows that are not numbers where they should be, and
    # (checked by the service, without storing while any row is mistyped) all the others.
    errors = {row: dict(fields) for row, fields in inp.errors.items()}
    general: list[str] = []
    status = 400
    stored: list[HandSubmission] = []
    if inp.entries or not inp.errors:
        try:
            stored = scoresheet_submit(
                match=page.match,
                actor=page.actor,
                hands=inp.entries,
                game_number=inp.game,
                dry_run=bool(inp.errors),
            )
        except ScoresheetProblems as exc:
            general += _sheet_problems(page.state, inp, exc.problems, errors)
        except ApplicationError as exc:
            if exc.status == 404:
                raise Http404 from None
            general.append(exc.message)
            status = _status(exc)
        except EngineError as exc:
            general.append(engine_message(exc))
    if errors or general:
        return _sheet_render(
            page,
            inp.rows,
            errors=errors,
            form_error=" ".join(general) or None,
            game=inp.game,
            status=status,
        )
    messages.success(
        request,
        ngettext("Score sheet stored: %(n)s hand.", "Score sheet stored: %(n)s hands.", len(stored))
        % {"n": len(stored)},
    )
    return page.back("#sheet")


# -- CSV import (directors) ----------------------------------------------------------------------

CSV_COLUMN_HELP: dict[str, Any] = {
    "match": gettext_lazy("The match id: the number in the match page's address."),
    "game": gettext_lazy("The game number; empty for the game being played."),
    "hand": gettext_lazy("The hand number: each game's hands in order, from its next hand."),
    "knocker": gettext_lazy("The knocker: a player's name or seat number."),
    "defender": gettext_lazy("The defender, when more than two play; else empty."),
    "outcome": gettext_lazy("One of: %(choices)s. Empty when the hand is given by cards."),
    "knocker_deadwood": gettext_lazy("The knocker's deadwood (a hand by counts)."),
    "defender_deadwood": gettext_lazy("The defender's deadwood after lay-offs."),
    "knocker_cards": gettext_lazy("A hand by cards: the knocker's cards, like AS 2S 3S."),
    "defender_cards": gettext_lazy("A hand by cards: the defender's cards."),
    "knocker_melds": gettext_lazy("Optional: the knocker's melds, separated by |."),
    "upcard": gettext_lazy("Oklahoma: the first upcard."),
    "knock_limit": gettext_lazy("Gem Rummy: the knock-limit die."),
    "points": gettext_lazy("Optional: the hand's points, checked against the score."),
}

# Rows of the downloadable example; its columns are the service's ``CSV_COLUMNS`` (every
# column the import reads, so the required ones, ``CSV_REQUIRED``, too).
CSV_EXAMPLE_ROWS: tuple[dict[str, str], ...] = (
    {
        "match": "12",
        "game": "1",
        "hand": "1",
        "knocker": "Alice",
        "outcome": "knock",
        "knocker_deadwood": "5",
        "defender_deadwood": "25",
        "points": "20",
    },
    {
        "match": "12",
        "game": "1",
        "hand": "2",
        "knocker": "Bob",
        "outcome": "gin",
        "knocker_deadwood": "0",
        "defender_deadwood": "30",
    },
    {"match": "12", "game": "1", "hand": "3", "outcome": "dead"},
    {
        "match": "12",
        "game": "1",
        "hand": "4",
        "knocker": "Alice",
        "knocker_cards": "AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
        "defender_cards": "8H 9H KS KH KD 2C 3C QS JD 5C",
    },
)


def import_example_csv() -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS), extrasaction="ignore")
    writer.writeheader()
    writer.writerows(CSV_EXAMPLE_ROWS)
    return out.getvalue()


def import_example(request: HttpRequest) -> HttpResponse:
    """A small example CSV with every column the import reads."""
    response = HttpResponse(import_example_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="knock-score-sheets-example.csv"'
    return response


def _imported_matches(request: HttpRequest) -> list[dict[str, Any]]:
    parsed = (parse_ascii_int(x) for x in request.GET.get("matches", "").split(",")[:100])
    ids = [x for x in parsed if x is not None]
    if not ids:
        return []
    found = {m.pk: m for m in match_list_visible(user=request.user).filter(pk__in=ids)}
    out = []
    for pk in ids:
        match = found.get(pk)
        if match is None:
            continue
        out.append(
            {
                "match": match,
                "players": [s.player.name for s in sorted(match.seats.all(), key=_position)],
            }
        )
    return out


def _position(seat: Any) -> int:
    return int(seat.position)


@require_http_methods(["GET", "POST"])
@login_required
def event_import_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Import past score sheets from CSV: check them (dry run), then store all or nothing."""
    event = get_object_or_404(Event.objects.select_related("club"), pk=pk)
    if not event_is_director(event=event, user=request.user):
        message = _("Only the event's directors may import score sheets.")
        return render(request, "tournaments/forbidden.html", {"message": message}, status=403)
    form = ImportCsvForm(request.POST or None, request.FILES or None)
    report = None
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = 400
        else:
            text = form.cleaned_data["text"]
            dry_run = request.POST.get("action") != "import"
            report = import_csv(
                actor=Actor.from_request(request), text=text, dry_run=dry_run, event=event
            )
            if not dry_run and not report.problems and report.rows:
                messages.success(
                    request,
                    ngettext("Imported %(n)s hand.", "Imported %(n)s hands.", report.stored)
                    % {"n": report.stored},
                )
                query = urlencode({"matches": ",".join(str(i) for i in report.matches)})
                return HttpResponseRedirect(reverse("event-import", args=[event.pk]) + "?" + query)
            if report.problems and not dry_run:
                status = 400
            # Show the checked text (an uploaded file's too) so it can be fixed and imported.
            form = ImportCsvForm(initial={"csv": text})
    outcomes = ", ".join(o.value for o in HandOutcome)
    columns = [
        {
            "name": name,
            "help": (
                CSV_COLUMN_HELP[name] % {"choices": outcomes}
                if name == "outcome"
                else CSV_COLUMN_HELP.get(name, "")
            ),
            "required": name in CSV_REQUIRED,
        }
        for name in CSV_COLUMNS
    ]
    context = {
        "event": event,
        "form": form,
        "report": report,
        "columns": columns,
        "imported": _imported_matches(request) if request.method == "GET" else [],
    }
    return render(request, "scoring/import.html", context, status=status)
