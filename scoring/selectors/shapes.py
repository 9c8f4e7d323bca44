"""Shapes for the API and pages: a submission, a game's summary, a match's detail and score
sheet, and a hand's history of versions and changes.
"""

from __future__ import annotations

from typing import Any

from engine.game import BoxRoles, GameResult
from scoring.models import Credential, HandSubmission
from scoring.organiser import organiser
from scoring.selectors.state import GameView, MatchState, scored_hand_from
from scoring.selectors.status import STATUS_LABELS, match_display_status


def _who(sub: HandSubmission, which: str) -> dict[str, Any] | None:
    user = getattr(sub, f"{which}_by_user")
    player = getattr(sub, f"{which}_by_player")
    if user is None and player is None:
        return None
    return {
        "user": user.get_username() if user is not None else None,
        "player": player.name if player is not None else None,
    }


def on_table_phone(sub: HandSubmission) -> bool:
    """One table link both entered and confirmed it: one phone at the table did both sides."""
    return (
        sub.submitted_via == Credential.TABLE_LINK
        and sub.confirmed_via == Credential.TABLE_LINK
        and sub.submitted_via_key_id == sub.confirmed_via_key_id
    )


def submission_out(sub: HandSubmission, *, game_number: int | None = None) -> dict[str, Any]:
    """A submission as the API shows it: the engine's verdict and its status."""
    verdict = dict(sub.result)
    verdict.pop("scored", None)
    return {
        "id": sub.pk,
        "game": game_number if game_number is not None else sub.hand.game.number,
        "hand_number": sub.hand.number,
        "version": sub.version,
        "status": sub.status,
        "entry": sub.entry,
        **verdict,
        "submitted_by": _who(sub, "submitted"),
        "confirmed_by": _who(sub, "confirmed"),
        "disputed_by": _who(sub, "disputed"),
        "submitted_via": sub.submitted_via or None,
        "confirmed_via": sub.confirmed_via or None,
        "disputed_via": sub.disputed_via or None,
        "on_table_phone": on_table_phone(sub),
        "dispute_reason": sub.dispute_reason,
        "override_reason": sub.override_reason,
        "created_at": sub.created_at.isoformat(),
        "confirmed_at": sub.confirmed_at.isoformat() if sub.confirmed_at else None,
    }


def _roles_out(state: MatchState, roles: BoxRoles | None) -> dict[str, Any] | None:
    if roles is None:
        return None
    return {
        name: {"position": pos, "player": state.name_of(pos)}
        for name, pos in (("box", roles.box), ("captain", roles.captain), ("sitter", roles.sitter))
    }


def _next_out(state: MatchState, view: GameView) -> dict[str, Any]:
    ctx = view.next_context
    out: dict[str, Any] = {
        "game": view.game.number,
        "hand_number": view.next_number,
        "dealer": ctx.dealer,
        "dealer_name": state.name_of(ctx.dealer),
        "playing": list(ctx.playing),
        "roles": _roles_out(state, ctx.roles),
    }
    if state.rules.table == "three_dealer_out":
        out["sitting_out"] = ctx.dealer
    return out


def _game_result_out(state: MatchState, result: GameResult) -> dict[str, Any]:
    return {
        "finished": result.finished,
        "winner": result.winner,
        "winner_name": state.name_of(result.winner),
        "totals": list(result.totals),
        "hands_won": list(result.hands_won),
        "bonuses": {
            "game": list(result.game_bonus),
            "box": list(result.box_bonus),
            "shutout": list(result.shutout_bonus),
        },
        "shutout": result.shutout,
        "tiebreak": result.tiebreak,
        "final_totals": list(result.final_totals),
        "margin": result.margin,
        "next_dealer": result.next_dealer,
    }


def game_summary(*, state: MatchState, view: GameView) -> dict[str, Any]:
    out: dict[str, Any] = {
        "number": view.game.number,
        "status": "finished" if view.finished else "playing",
        "hands": len(view.hands),
        "first_dealer": view.contexts[0].dealer if view.contexts else view.game.first_dealer,
    }
    if state.rules.hollywood_games:
        out["columns"] = [_game_result_out(state, r) for r in view.results]
    else:
        out.update(_game_result_out(state, view.result))
    return out


def _sides(state: MatchState) -> list[dict[str, Any]]:
    """The engine's players: seats, or the two teams of a partnership."""
    if state.partnership:
        return [
            {
                "index": team,
                "name": state.name_of(team),
                "positions": [s.position for s in state.seats if state.side_of(s.position) == team],
            }
            for team in (0, 1)
        ]
    return [
        {"index": s.position, "name": s.player.name, "positions": [s.position]} for s in state.seats
    ]


def match_detail(*, state: MatchState, show_pending: bool = True) -> dict[str, Any]:
    """A match with its games, totals, bonuses, next dealer and roles."""
    match = state.match
    terms = organiser().terms_for(match=match)
    current = state.current
    pending = None
    if current is not None and current.pending is not None and show_pending:
        pending = submission_out(current.pending, game_number=current.game.number)
    return {
        "id": match.pk,
        "event": match.event_id,
        "event_name": terms.name,
        "round": match.round_id,
        "table_number": match.table_number,
        "status": match.status,
        "play_status": (play := match_display_status(state=state, show_pending=show_pending)),
        "play_status_label": str(STATUS_LABELS[play]),
        "decision": match.decision,
        "rules": state.rules.to_dict(),
        "match_format": match.match_format,
        "confirmation": terms.confirmation,
        "seats": [
            {
                "position": s.position,
                "player": s.player_id,
                "name": s.player.name,
                "team": s.team,
            }
            for s in state.seats
        ],
        "sides": _sides(state),
        "games": [game_summary(state=state, view=v) for v in state.games],
        "games_won": list(state.games_won),
        "finished": state.finished,
        "winner": state.winner,
        "winner_name": state.name_of(state.winner),
        "next": _next_out(state, current) if current is not None else None,
        "pending": pending,
        "summary": match.summary,
    }


def _row(
    state: MatchState, view: GameView, index: int, sub: HandSubmission, result: GameResult
) -> dict[str, Any]:
    ctx = view.contexts[index]
    verdict = sub.result
    return {
        "hand_number": sub.hand.number,
        "submission": sub.pk,
        "version": sub.version,
        "dealer": ctx.dealer,
        "roles": _roles_out(state, ctx.roles),
        "outcome": verdict.get("outcome"),
        "knocker": verdict.get("knocker"),
        "winner": verdict.get("winner"),
        "winner_name": state.name_of(verdict.get("winner")),
        "knocker_deadwood": verdict.get("knocker_deadwood"),
        "defender_deadwood": verdict.get("defender_deadwood"),
        "points": verdict.get("points"),
        "credits": {str(k): v for k, v in scored_hand_from(verdict).credits().items()},
        # A director's correction: why (empty for a hand as the players entered it).
        "override_reason": sub.override_reason,
        # Entered and confirmed with one table link: one phone did both sides.
        "on_table_phone": on_table_phone(sub),
    }


def match_scoresheet(*, state: MatchState, show_pending: bool = True) -> dict[str, Any]:
    """Every game's hands in order with running totals, dealers and, at the end, the bonuses.

    A Hollywood set shows its three columns side by side: each hand row says which columns it
    was entered in and each column has its own running totals.
    """
    games = []
    for view in state.games:
        rows = []
        if state.rules.hollywood_games:
            cursors = [0] * len(view.results)
            for index, sub in enumerate(view.hands):
                row = _row(state, view, index, sub, view.result)
                columns: list[list[int] | None] = []
                for column, result in enumerate(view.results):
                    if column in view.entered[index]:
                        columns.append(list(result.running_totals[cursors[column]]))
                        cursors[column] += 1
                    else:
                        columns.append(None)
                row["columns"] = columns
                rows.append(row)
        else:
            for index, sub in enumerate(view.hands):
                row = _row(state, view, index, sub, view.result)
                row["running_totals"] = list(view.result.running_totals[index])
                rows.append(row)
        game = game_summary(state=state, view=view)
        game["rows"] = rows
        game["pending"] = (
            submission_out(view.pending, game_number=view.game.number)
            if view.pending is not None and show_pending
            else None
        )
        game["next_dealer"] = view.next_context.dealer
        game["next_dealer_name"] = state.name_of(view.next_context.dealer)
        games.append(game)
    return {
        "match": state.match.pk,
        "sides": _sides(state),
        "rules": state.rules.name,
        "games": games,
        "games_won": list(state.games_won),
        "finished": state.finished,
        "winner": state.winner,
        "winner_name": state.name_of(state.winner),
    }


def submission_get(*, submission_id: int) -> HandSubmission:
    """A submission with its hand, game, match and event (raises DoesNotExist)."""
    return HandSubmission.objects.select_related(
        "hand__game__match__event",
        "submitted_by_player",
        "confirmed_by_player",
        "submitted_by_user",
        "confirmed_by_user",
    ).get(pk=submission_id)


def hand_history(*, submission: HandSubmission) -> dict[str, Any]:
    """Every version of a hand and every change of each version: who, when, from where, what."""
    hand = submission.hand
    versions = list(
        HandSubmission.objects.filter(hand=hand)
        .select_related(
            "submitted_by_player", "confirmed_by_player", "submitted_by_user", "confirmed_by_user"
        )
        .order_by("version")
    )
    records = list(
        HandSubmission.history.filter(hand_id=hand.pk)
        .select_related("history_user", "history_player")
        .order_by("history_date", "history_id")
    )
    changes = []
    for record in records:
        changes.append(
            {
                "submission": record.id,
                "version": record.version,
                "change": {"+": "created", "~": "changed", "-": "deleted"}[record.history_type],
                "status": record.status,
                "when": record.history_date.isoformat(),
                "user": record.history_user.get_username() if record.history_user else None,
                "player": record.history_player.name if record.history_player else None,
                "via": record.history_via or None,
                "via_key": record.history_via_key,
                "reason": record.history_change_reason or record.override_reason or "",
            }
        )
    for version in versions:
        version.hand = hand
    return {
        "hand": hand.pk,
        "game": hand.game.number,
        "hand_number": hand.number,
        "versions": [
            {
                **submission_out(v, game_number=hand.game.number),
                "payload": v.payload,
            }
            for v in versions
        ],
        "changes": changes,
    }
