"""What the match pages show, shaped for their templates: the scoreboard, the score sheet, the
pending entry, the entry form's set-up, the private links, whether the paper score sheet is
offered, and the HTTP status of a service's refusal.

Presentation only: every number comes from ``scoring.selectors``; nothing here scores a hand.
Slightly over 400 lines because it is one context: each helper feeds ``match_page_context`` and
reads the same ``MatchPage``, and split apart they would import each other.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, pgettext

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.errors import Message
from scoring.links import session_keys
from scoring.models import Confirmation, HandSubmission, Match
from scoring.organiser import organiser
from scoring.permissions import Access, Actor, match_access
from scoring.policies import (
    answered_by_director,
    director_answer_refusal,
    entry_is_viewers,
    on_other_side,
    seat_of,
    table_phone_refused,
    withdraw_refusal,
)
from scoring.selectors import (
    MatchState,
    match_detail,
    match_prefetched,
    match_scoresheet,
    match_state,
    submission_get,
)
from scoring.selectors.sheets import scoresheet_allowed
from scoring.views.links import link_cards
from scoring.views.live_state import live_state
from scoring.views.picker import default_knocker, picker_setup
from scoring.views.totals_chart import totals_charts
from scoring.views.whereabouts import whereabouts

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


class MatchPage:
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

    @property
    def link_replaced(self) -> bool:
        """True when this visitor came with a private link that no longer works (a director
        replaced it, or the seat session is gone): they may not act here, and the page tells
        them how to go on instead of a bare refusal."""
        if self.access.can_view:
            return False
        session = getattr(self.request, "session", None)
        return self.actor.user is None or str(self.match.pk) in session_keys(session)

    def submission(self, sid: int) -> HandSubmission:
        try:
            sub = submission_get(submission_id=sid)
        except HandSubmission.DoesNotExist:
            raise Http404 from None
        if sub.hand.game.match_id != self.match.pk:
            raise Http404
        return sub


# -- presentation helpers (no scoring here: every number comes from the selectors) -------------


def _links(page: MatchPage) -> list[dict[str, Any]]:
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


def _pending(page: MatchPage) -> dict[str, Any] | None:
    """The entry waiting for confirmation and the buttons this visitor could use on it."""
    current = page.state.current
    if current is None or current.pending is None or not page.access.can_view:
        return None
    sub = current.pending
    state, access = page.state, page.access
    terms = organiser().terms_for(match=state.match)
    director_only = terms.confirmation == Confirmation.DIRECTOR
    submitter_name = (
        sub.submitted_by_player.name
        if sub.submitted_by_player is not None
        else (sub.submitted_by_user.get_username() if sub.submitted_by_user is not None else "")
    )
    opponents = [
        s for s in state.seats if on_other_side(state=state, entry=sub, position=s.position)
    ]
    submitter_seat = seat_of(state, sub.submitted_by_player_id)
    # What this visitor may do with the entry is the services' own policy (scoring.policies).
    mine = entry_is_viewers(state=state, entry=sub, actor=page.actor, access=access)
    disputed = sub.status == HandSubmission.Status.DISPUTED
    # The event asks the other side to answer on their own link or account: the table's phone
    # offers no confirm or dispute buttons (the services refuse them anyway).
    own_link = access.speaks_for_table and table_phone_refused(terms=terms)
    confirm: list[dict[str, Any]] = []
    dispute: list[dict[str, Any]] = []
    withdraw: list[dict[str, Any]] = []
    if answered_by_director(entry=sub, terms=terms):
        if director_answer_refusal(entry=sub, access=access) is None and not mine:
            label = _("Settle: confirm as entered") if disputed else _("Confirm as director")
            confirm.append({"label": label, "as_position": None})
    else:
        if access.speaks_for_table and not own_link:
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
                if on_other_side(state=state, entry=sub, position=position):
                    confirm.append({"label": _("Confirm"), "as_position": None})
                    dispute.append({"label": _("Dispute"), "as_position": None})
                    break
        if access.neutral_director and not mine and not confirm:
            confirm.append({"label": _("Confirm as director"), "as_position": None})
    for as_position in (None, submitter_seat) if submitter_seat is not None else (None,):
        refusal = withdraw_refusal(
            state=state, entry=sub, actor=page.actor, access=access, as_position=as_position
        )
        if refusal is None:
            withdraw.append({"as_position": as_position})
            break
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
        "own_link": own_link and not disputed and not director_only,
        "result": result,
        "outcome_label": OUTCOME_LABELS.get(result.get("outcome"), result.get("outcome")),
        "winner_name": state.name_of(result.get("winner")),
        "formula": formula_text(result),
        "boards": [
            {
                "outcome_label": OUTCOME_LABELS.get(b.get("outcome"), b.get("outcome")),
                "formula": formula_text(b),
            }
            for b in result.get("boards", ())
        ],
        "pairings": [
            {
                "name": state.name_of(p.get("defender")),
                "outcome_label": OUTCOME_LABELS.get(p.get("outcome"), p.get("outcome")),
                "winner_name": state.name_of(p.get("winner")),
                "points": p.get("points"),
                "formula": formula_text(p),
            }
            for p in result.get("pairings", ())
        ],
    }


def formula_text(verdict: dict[str, Any]) -> str:
    """How a verdict's points were worked out, in the reader's language: from the structured
    ``formula_message`` stored with it, else (a verdict stored before it was kept) the English
    ``formula``."""
    data = verdict.get("formula_message")
    if isinstance(data, dict):
        return engine_message(Message.from_dict(data))
    return str(verdict.get("formula") or "")


def explanation_text(verdict: dict[str, Any]) -> str:
    """A verdict's explanation (melds, lay-offs, deadwood, outcome) in the reader's language,
    one line each: from the stored ``explanation_messages``, else the English ``explanation``."""
    lines = verdict.get("explanation_messages")
    if isinstance(lines, list) and all(isinstance(line, dict) for line in lines):
        return "\n".join(engine_message(Message.from_dict(line)) for line in lines)
    return str(verdict.get("explanation") or "")


def entry_setup(page: MatchPage) -> dict[str, Any]:
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


def gem_defender_slots(
    page: MatchPage, setup: dict[str, Any], errors: dict[str, str], posted: Any
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


def match_page_context(
    page: MatchPage,
    *,
    tab: str | None = None,
    errors: dict[str, str] | None = None,
    form_error: str | None = None,
    posted: Any = None,
    links: bool = True,
) -> dict[str, Any]:
    state, access = page.state, page.access
    visible = access.sees_pending
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
    setup = entry_setup(page) if can_enter else None
    if setup is not None and tab not in setup["tabs"]:
        tab = setup["tabs"][0]
    if setup is not None:
        setup["defender_slots"] = gem_defender_slots(page, setup, errors or {}, posted)
        setup["default_knocker"] = default_knocker(page, setup)
        if "cards" in setup["tabs"] and not setup["gem_three"]:
            setup["picker"] = picker_setup(page, setup, OUTCOME_LABELS)
    return {
        "page": page,
        "match": state.match,
        "event": organiser().terms_for(match=state.match),
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
        "links": _links(page) if visible and links else [],
        "director": access.director,
        "neutral_director": access.neutral_director,
        "qs": page.qs,
        "live": live_state(match=state.match, access=access, actor=page.actor),
        "sheet_offer": can_enter and _sheet_offered(page),
        "totals_charts": totals_charts(games, detail["sides"]) if state.finished else [],
        "where": whereabouts(page),
        # The round's clock for this table (the organiser's: scoring keeps no clock).
        "clock": organiser().clock_for(match=state.match),
    }


def _key(name: str) -> str:
    """A field name a template can look up: ``boards[0].knocker`` → ``boards_0_knocker``."""
    return name.replace("].", "_").replace("[", "_").replace("]", "").replace(".", "_")


def refused_page(page: MatchPage, exc: ApplicationError) -> HttpResponse:
    """A refused answer to an entry (403): the match page with the reason, at the address
    posted to, so the refusal is the response's status and not hidden behind a redirect."""
    messages.error(page.request, exc.message)
    return render(
        page.request, "scoring/match.html", match_page_context(page), status=match_status(exc)
    )


def match_status(exc: ApplicationError) -> int:
    return exc.status if 400 <= exc.status < 500 else 400


def sheet_fits(state: MatchState) -> bool:
    """Whether a sheet row (one knocker, counts) can hold a hand of this rule set (not a
    three-player Gem hand, which has a row per defender)."""
    gem_three = state.rules.family == "gem" and len(state.seats) == 3
    return not state.partnership and state.rules.family != "rummy" and not gem_three


def sheet_fresh(state: MatchState) -> bool:
    current = state.current
    return current is not None and not current.hands and current.pending is None


def _sheet_offered(page: MatchPage) -> bool:
    """Show the paper sheet link: a fresh game, and a visitor the service would let in (the
    service's own rule, :func:`~scoring.selectors.sheets.scoresheet_allowed`)."""
    state = page.state
    may = scoresheet_allowed(actor=page.actor, match=page.match, access=page.access)
    return may and sheet_fits(state) and sheet_fresh(state)
