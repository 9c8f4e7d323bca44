"""Matches: starting one at a table (:func:`match_start`) and keeping the stored game and match
rows in line with the engine's view of the confirmed hands (:func:`match_sync`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clubs.models import Player
from core.errors import ApplicationError
from core.i18n import engine_message, rules_name
from core.live import live_changed
from engine.errors import EngineError, RuleError
from engine.game import table_seats
from engine.rules import RuleSet, find_rules
from scoring.formats import MatchFormat, match_format_dict, match_format_read
from scoring.models import Game, Hand, Match, Seat
from scoring.organiser import EventTerms, ResultChanges, organiser
from scoring.permissions import Actor
from scoring.selectors import (
    GameView,
    MatchState,
    event_is_director,
    game_summary,
    match_prefetched,
    match_state,
)
from scoring.services.links import match_keys_ensure
from scoring.services.stands import match_restand


def _result_json(state: MatchState, view: GameView) -> dict[str, Any]:
    return game_summary(state=state, view=view) if view.finished else {}


def _hollywood_margin(state: MatchState, view: GameView) -> int | None:
    if state.winner is None:
        return None
    w = state.winner
    return sum(r.final_totals[w] - r.final_totals[1 - w] for r in view.results)


def match_sync(
    *, match: Match, changes: ResultChanges, prefetched: Match | None = None
) -> MatchState:
    """Bring the stored game and match rows in line with the engine's view of the hands.

    Closes games the engine says ended (and starts the next game of a best-of), re-opens any a
    correction re-opened, removes an empty game that is no longer needed, and fills the match's
    winner and summary. Asks the organiser before a final result changes (its veto), and notes
    in ``changes`` what the calling service tells it at its end: the results changed when a game
    or the match changes state, a corrected final result, a finished match.

    ``prefetched`` spares reading the match again: a :func:`match_prefetched` copy read under
    this transaction's lock, with every change made since then applied to it in memory (a
    confirmation does this; the write lock is held while the match is read, so a second read
    made every table's results wait longer on the embedded SQLite).
    """
    state = _engine_state(match=prefetched or match_prefetched(match_id=match.pk))
    if state.standing is not None:  # closed as it stands at time (scoring.services.stands)
        match_restand(state=state, changes=changes)
        return state
    now = timezone.now()
    changed = False
    for view in state.games:
        changed = _game_sync(state=state, view=view, now=now) or changed
    changed = _games_unneeded_delete(state=state) or changed
    changed = _next_game_open(state=state) or changed
    result_changed, corrected = _match_result_sync(state=state, now=now)
    if changed or result_changed:
        match = state.match
        changes.result_changed(match=match)
        if corrected:
            changes.corrected.setdefault(match.pk, match)
        if state.finished:
            changes.finished.setdefault(match.pk, match)
    return state


def _engine_state(*, match: Match) -> MatchState:
    """The engine's view of ``match`` (prefetched); a hand the engine refuses is a 409."""
    try:
        return match_state(match=match)
    except EngineError as exc:
        raise ApplicationError(
            _("This would make the recorded hands inconsistent: %(reason)s")
            % {"reason": engine_message(exc)},
            status=409,
        ) from None


_GAME_RESULT_FIELDS = ["status", "winner_position", "winner_team", "margin", "result"]


def _game_sync(*, state: MatchState, view: GameView, now: datetime) -> bool:
    """Store the engine's view of one game (status, winner, margin, result) when the row
    differs; True when its status or winner changed (a result the organiser hears of)."""
    game = view.game
    finished = view.finished
    if state.rules.hollywood_games:
        winner = state.winner if finished else None
        margin = _hollywood_margin(state, view) if finished else None
    else:
        winner = view.result.winner if finished else None
        margin = view.result.margin if finished else None
    status = Game.Status.FINISHED if finished else Game.Status.PLAYING
    result = _result_json(state, view)
    # The engine's winner is a team in a partnership: never store it as a seat.
    position, team = (None, winner) if state.partnership else (winner, None)
    stored = (game.status, game.winner_position, game.winner_team, game.margin, game.result)
    if stored == (status, position, team, margin, result):
        return False
    changed = game.status != status or (game.winner_position, game.winner_team) != (
        position,
        team,
    )
    game.status = status
    game.winner_position = position
    game.winner_team = team
    game.margin = margin
    game.result = result
    game.finished_at = (game.finished_at or now) if finished else None
    game.save(update_fields=[*_GAME_RESULT_FIELDS, "finished_at"])
    return changed


def _games_unneeded_delete(*, state: MatchState) -> bool:
    """Delete the stored games the engine no longer has (a correction ended the match
    earlier); a game that still holds hands is a 409. True when one was deleted."""
    kept = {view.game.pk for view in state.games}
    deleted = False
    for game in state.match.games.all():
        if game.pk in kept:
            continue
        if Hand.objects.filter(game=game).exists():
            raise ApplicationError(
                _("Game %(number)s already has hands; correct them first.")
                % {"number": game.number},
                status=409,
            )
        game.delete()
        deleted = True
    return deleted


def _next_game_open(*, state: MatchState) -> bool:
    """Start the next game of a best-of whose last game just finished; True when started."""
    last = state.games[-1] if state.games else None
    if state.finished or last is None or not last.finished or state.fmt.kind != "best_of":
        return False
    Game.objects.create(
        match=state.match, number=last.game.number + 1, first_dealer=last.result.next_dealer
    )
    return True


def _match_summary(state: MatchState) -> dict[str, Any]:
    """What a finished match stores as its summary (empty while it is played)."""
    if not state.finished:
        return {}
    return {
        "games_won": list(state.games_won),
        "winner": state.winner,
        "winner_name": state.name_of(state.winner),
        "margins": [
            v.game.margin if not state.rules.hollywood_games else _hollywood_margin(state, v)
            for v in state.games
        ],
    }


def _match_result_sync(*, state: MatchState, now: datetime) -> tuple[bool, bool]:
    """Store the match's status, winner and summary when they differ from the engine's, after
    the organiser's veto on a corrected final result. Returns (changed, corrected)."""
    match = state.match
    winner_player = None
    winner_team = None
    if state.finished and state.winner is not None:
        if state.partnership:
            winner_team = state.winner
        else:
            seat = state.seat(state.winner)
            winner_player = seat.player if seat is not None else None
    match_status = Match.Status.FINISHED if state.finished else Match.Status.PLAYING
    summary = _match_summary(state)
    before = (match.status, match.winner_id, match.winner_team)
    after = (match_status, winner_player.pk if winner_player else None, winner_team)
    # A correction that re-opens a final match or changes its winner may already have been
    # acted on (a bracket match paired with the old winner): tournaments decide, before commit.
    corrected = before[0] == Match.Status.FINISHED and before != after
    if corrected:
        organiser().match_result_change_allowed(
            match=match, new_winner=after[1] if match_status == Match.Status.FINISHED else None
        )
    if (*before, match.summary) == (*after, summary):
        return False, corrected
    match.status = match_status
    match.winner = winner_player
    match.winner_team = winner_team
    match.summary = summary
    match.finished_at = (match.finished_at or now) if state.finished else None
    match.save(update_fields=["status", "winner", "winner_team", "summary", "finished_at"])
    return True, corrected


def match_start(
    *,
    actor: Actor,
    event: EventTerms,
    players: Sequence[int],
    teams: Sequence[int] | None = None,
    table_number: int | None = None,
    round_number: int | None = None,
    rules_preset: str | None = None,
    rule_overrides: Mapping[str, Any] | None = None,
    match_format: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
) -> Match:
    """Start a match of ``event`` (its terms: :meth:`Organiser.terms_for_event`) at a table:
    seats in the order given (in the box: box, captain, sitter).

    The organiser files it in round ``round_number`` and enters the players
    (:meth:`Organiser.players_enter`: a player of another club must be registered), in the
    transaction that stores the match, its seats and its first game.
    """
    user = actor.user
    director = user is not None and event_is_director(event=event, user=user)
    if event.finished:
        raise ApplicationError(_("This event has finished."), status=409)
    rules, fmt = _match_rules(
        event=event,
        rules_preset=rules_preset,
        rule_overrides=rule_overrides,
        match_format=match_format,
        seated=len(players),
    )
    found = _players_found(players=players)
    if not director:
        # A player who started their own match would be handed every seat's link, the
        # opponent's too: only a director (seated or not) starts matches.
        raise ApplicationError(
            _("Only the event's directors may start a match; ask a director."), status=403
        )
    seat_teams = _seat_teams(rules=rules, teams=teams, seated=len(players))
    first_dealer = _first_dealer(rules=rules, first_dealer=first_dealer, seated=len(players))
    return _match_store(
        seated=[found[pid] for pid in players],
        teams=seat_teams,
        first_dealer=first_dealer,
        round_number=round_number,
        match=Match(
            event_id=event.event_id,
            table_number=table_number,
            rules=rules.to_dict(),
            match_format=match_format_dict(fmt),
            created_by=user,
        ),
    )


def _match_store(
    *,
    seated: list[Player],
    teams: list[int | None],
    first_dealer: int,
    round_number: int | None,
    match: Match,
) -> Match:
    """Store ``match`` (built, not saved) with its seats and first game, in one transaction
    with the organiser's filing of it (its round, the players entered)."""
    with transaction.atomic():
        # Everybody who plays a club night counts in its standings (or, if the director said
        # so, only registered players may sit down: refused here, nothing stored).
        organiser().players_enter(match=match, players=seated, round_number=round_number)
        match.save(force_insert=True)
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=pos, team=teams[pos])
            for pos, player in enumerate(seated)
        )
        Game.objects.create(match=match, number=1, first_dealer=first_dealer)
        match_keys_ensure(match=match)
        if match.event_id is not None:
            live_changed(page="event", pk=match.event_id)
    return match


def _match_rules(
    *,
    event: EventTerms,
    rules_preset: str | None,
    rule_overrides: Mapping[str, Any] | None,
    match_format: Mapping[str, Any] | None,
    seated: int,
) -> tuple[RuleSet, MatchFormat]:
    """The rules and format a new match is played under (the event's, or the preset and
    overrides asked for), refused when they do not seat ``seated`` players."""
    try:
        base = find_rules(rules_preset) if rules_preset else RuleSet.from_dict(event.rules)
        rules = base.with_overrides(**dict(rule_overrides or {})) if rule_overrides else base
    except RuleError as exc:
        raise ApplicationError(
            engine_message(exc), field="rule_overrides" if rule_overrides else "rules"
        ) from None
    if not match_format and rules.hollywood_games:
        match_format = {"kind": "hollywood"}
    fmt = match_format_read(data=match_format or event.match_format, rules=rules)
    low, high = table_seats(rules)
    if not low <= seated <= high:
        wanted = str(low) if low == high else f"{low}-{high}"
        raise ApplicationError(
            _("The %(rules)s rules seat %(wanted)s players, not %(count)s.")
            % {"rules": rules_name(rules.name), "wanted": wanted, "count": seated},
            field="players",
        )
    if rules.family == "gem" and seated == 3 and rules.table == "two":
        # Gem Rummy is for two or three (RULES.md §8); three play at an 'open' table.
        rules = rules.with_overrides(table="open")
    return rules, fmt


def _players_found(*, players: Sequence[int]) -> dict[int, Player]:
    """The players to seat, by id: each once, and each one that exists (whether they may play
    this event, of its club or registered, is the organiser's to say)."""
    if len(set(players)) != len(players):
        raise ApplicationError(_("A player can take only one seat."), field="players")
    found = {p.pk: p for p in Player.objects.filter(pk__in=players)}
    for pid in players:
        if pid not in found:
            raise ApplicationError(
                _("Player %(id)s is not a player of this event's club.") % {"id": pid},
                field="players",
            )
    return found


def _seat_teams(*, rules: RuleSet, teams: Sequence[int] | None, seated: int) -> list[int | None]:
    """Each seat's team: two teams of two at a partnership table, none elsewhere."""
    if rules.table == "partnership":
        seat_teams: list[int | None] = list(teams) if teams else [0, 1, 0, 1]
        if sorted(t if t is not None else -1 for t in seat_teams) != [0, 0, 1, 1]:
            raise ApplicationError(_("Two teams of two: teams are 0 and 1."), field="teams")
        return seat_teams
    if teams:
        raise ApplicationError(_("Teams are for partnership tables only."), field="teams")
    return [None] * seated


def _first_dealer(*, rules: RuleSet, first_dealer: int, seated: int) -> int:
    """The seat that deals first (a team at a partnership table; always the box at three)."""
    dealers = 2 if rules.table == "partnership" else seated
    if not 0 <= first_dealer < dealers:
        raise ApplicationError(
            _("The first dealer is 0-%(last)s.") % {"last": dealers - 1}, field="first_dealer"
        )
    return 0 if rules.table == "three_box" else first_dealer
