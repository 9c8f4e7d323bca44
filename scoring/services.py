"""Writes for matches, hands, confirmation, corrections, score sheets and imports.

Every service validates, writes inside ``transaction.atomic`` with the match row locked (so the
engine's view of a match never changes under a writer), and bumps the event's results sequence
with :func:`tournaments.services.event_results_bump` for every stored or confirmed result and
every game that closes or re-opens. Entered results are append-only: a submission is a new row, a
correction a new version; only a submission's status moves (pending → confirmed / withdrawn /
superseded), and each move is kept in its history with who made it and from where.

The engine is the single source of truth for every point: hands are scored with
:mod:`engine.scoring` / :mod:`engine.rummy` when entered (the verdict is stored with the entry)
and games with :func:`scoring.selectors.match_state`, never here.

Decisions:

- One open hand per game: the next hand can be entered only once the previous one is confirmed
  (the engine needs the confirmed hands to know dealer, roles and who sits out).
- Confirmation policy (``Event.confirmation``): ``none`` confirms at once; ``opponent`` needs a
  player of another side (any other player at a multi-player table; any player if a director
  entered it) or a director; ``director`` needs an event director or club admin. Nobody confirms
  their own entry. The table link (no seat) lets a shared phone act for the player it names
  (``as_position``): that is how an entry is confirmed on the same phone after hand-over; the
  history shows both actions came from the same device.
- A director's correction (override) supersedes the hand's confirmed (or pending) version and
  confirms a new one; the match is re-scored from its confirmed hands. A correction that would
  make a later confirmed hand impossible (the game now ends before it, the sitter would have
  won it, a later game was started before this one ended) is refused with 409: the director
  corrects the later hands first, from the last one back. A game that a correction re-opens is
  marked playing again (and the match too); an empty later game that is no longer needed is
  removed.
- A correction that re-opens a finished match or changes its winner asks
  ``tournaments.services.match_result_change_allowed`` first (it refuses with 409 when a later
  bracket match was already played with the old winner) and, once stored, tells
  ``match_result_changed`` (the bracket's next match gets the right player, ratings are redone).
- Winners are seat positions, except in a partnership, where the engine's side is a team:
  ``Game.winner_team`` / ``Match.winner_team`` hold it (``winner_position`` and ``winner`` stay
  empty) and a partnership hand's verdict carries ``winner_team`` (its ``winner`` is the same
  team index, as the API's ``sides`` number them).
- A paper score sheet (a whole game) is entered confirmed at once when a director enters it (the
  sheet is signed by both players) or when the event needs no confirmation; players enter hand
  by hand otherwise. CSV imports are for directors and are stored confirmed.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import format_card, format_cards, parse_card
from engine.errors import EngineError, Message, RuleError, gettext_noop
from engine.game import ScoredHand
from engine.gem import DeckMap
from engine.rules import RuleSet, find_rules
from engine.rummy import RummyHandResult, score_rummy_hand
from engine.scoring import (
    HandOutcome,
    HandResult,
    Role,
    check_claim,
    score_hand,
    score_hand_counts,
    score_partnership_hand,
)
from scoring.formats import match_format_dict, match_format_read
from scoring.models import Game, Hand, HandSubmission, Match, Seat
from scoring.permissions import Access, Actor, match_access
from scoring.selectors import (
    GameView,
    HandContext,
    MatchState,
    event_is_director,
    game_summary,
    match_prefetched,
    match_state,
    submission_out,
)
from tournaments.models import Event, Player, Registration, Round
from tournaments.services import (
    event_results_bump,
    match_finished,
    match_result_change_allowed,
    match_result_changed,
)

# -- input ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HandEntry:
    """One hand as entered (every family; fields that do not apply stay empty).

    Two players (and in-the-box / dealer-out tables): ``knocker`` (seat position), ``outcome``,
    and either both hands by cards (``knocker_cards``, ``defender_cards``, optional
    ``knocker_melds``; counts, outcome, points and winner then are claims the engine checks) or
    both deadwood counts after lay-offs. Oklahoma adds ``upcard``; Gem the dice (``knock_limit``,
    ``diamond_number``) and the gem bonus flags. A partnership hand has two ``boards`` (each a
    two-player entry with ``knocker`` and ``defender``). Basic Rummy: ``went_out``, ``rummy`` and
    ``leftovers`` (seat → cards left, or their count).
    """

    outcome: str | None = None
    knocker: int | None = None
    defender: int | None = None
    knocker_cards: str | None = None
    defender_cards: str | None = None
    knocker_melds: str | list[str] | None = None
    knocker_deadwood: int | None = None
    defender_deadwood: int | None = None
    defender_deadwood_before_layoffs: int | None = None
    points: int | None = None
    winner: int | None = None
    upcard: str | None = None
    knock_limit: int | None = None
    diamond_number: int | None = None
    knocker_gem_bonus: bool = False
    defender_gem_bonus: bool = False
    boards: tuple[HandEntry, ...] = ()
    went_out: int | None = None
    rummy: bool = False
    leftovers: dict[int, str | int] | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> HandEntry:
        known = set(cls.__dataclass_fields__)
        values = {k: v for k, v in data.items() if k in known and v is not None}
        if "boards" in values:
            values["boards"] = tuple(cls.from_dict(b) for b in values["boards"])
        if "leftovers" in values:
            values["leftovers"] = {int(k): v for k, v in dict(values["leftovers"]).items()}
        return cls(**values)

    def as_payload(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for key, value in asdict(self).items():
            if value in (None, False, (), []):
                continue
            if key == "leftovers":
                value = {str(k): v for k, v in value.items()}
            if key == "boards":
                value = [HandEntry(**b).as_payload() for b in value]
            out[key] = value
        return out


@dataclass(frozen=True, slots=True)
class Prepared:
    """A hand scored by the engine, ready to store."""

    entry: str
    payload: dict[str, Any]
    result: dict[str, Any]


@dataclass(frozen=True, slots=True)
class RowProblem:
    row: int
    field: str | None
    message: str


@dataclass(slots=True)
class ImportReport:
    dry_run: bool
    rows: int = 0
    stored: int = 0
    problems: list[RowProblem] = field(default_factory=list)


# -- engine errors -----------------------------------------------------------------------------

_FIELD_HINTS: tuple[tuple[str, str], ...] = (
    ("Knock over the limit", "knocker_deadwood"),
    ("knocker's melds", "knocker_melds"),
    ("knocker:", "knocker_cards"),
    ("defender:", "defender_cards"),
    ("upcard", "upcard"),
    ("die", "knock_limit"),
    ("diamond", "diamond_number"),
    ("deck map", "knocker_cards"),
    ("The knocker's deadwood", "knocker_deadwood"),
    ("the knocker's deadwood", "knocker_deadwood"),
    ("Defender lays off", "defender_deadwood"),
    ("The defender's deadwood", "defender_deadwood"),
    ("before lay-offs", "defender_deadwood_before_layoffs"),
    ("lay-offs", "defender_deadwood"),
    ("the defender's deadwood", "defender_deadwood"),
    ("both deadwood", "knocker_deadwood"),
    ("scores", "points"),
    ("wins", "winner"),
    ("gem", "knocker_gem_bonus"),
    ("big gin", "outcome"),
    ("not knock", "outcome"),
    ("not undercut", "outcome"),
    ("not gin", "outcome"),
    ("claimed", "outcome"),
    ("went out", "went_out"),
    ("player", "leftovers"),
    ("counts", "leftovers"),
    ("card", "knocker_cards"),
)


def _field_for(message: str) -> str | None:
    for needle, name in _FIELD_HINTS:
        if needle in message:
            return name
    return None


def _refused(exc: EngineError, prefix: str = "") -> ApplicationError:
    """An engine error as the one application error, naming the field it is about."""
    name = _field_for(str(exc))
    return ApplicationError(
        engine_message(exc), status=400, field=f"{prefix}{name}" if name else prefix or None
    )


# -- hands: scoring with the engine ------------------------------------------------------------


def _outcome(value: str | None, prefix: str) -> HandOutcome | None:
    if value is None:
        return None
    try:
        return HandOutcome(value)
    except ValueError:
        choices = ", ".join(o.value for o in HandOutcome)
        raise ApplicationError(
            _("Unknown outcome %(value)s: one of %(choices)s.")
            % {"value": value, "choices": choices},
            field=f"{prefix}outcome",
        ) from None


def _seat_check(state: MatchState, position: int | None, name: str, allowed: Sequence[int]) -> int:
    if position is None:
        raise ApplicationError(_("This field is required."), field=name)
    if state.seat(position) is None:
        raise ApplicationError(
            _("There is no player at seat %(seat)s.") % {"seat": position}, field=name
        )
    if position not in allowed:
        raise ApplicationError(
            _("The player at seat %(seat)s does not play this hand (playing: %(playing)s).")
            % {"seat": position, "playing": ", ".join(str(p) for p in allowed)},
            field=name,
        )
    return position


def _verdict(result: HandResult, knocker: int | None, defender: int | None) -> dict[str, Any]:
    seat = {"knocker": knocker, "defender": defender}
    return {
        "outcome": result.outcome.value,
        "winner_role": result.winner,
        "winner": seat[result.winner] if result.winner else None,
        "knocker": knocker,
        "defender": defender,
        "points": result.points,
        "base_points": result.base_points,
        "multiplier": result.multiplier,
        "knock_limit": result.knock_limit,
        "knocker_deadwood": result.knocker_deadwood,
        "defender_deadwood": result.defender_deadwood,
        "defender_deadwood_before_layoffs": result.defender_deadwood_without_layoffs,
        "knocker_melds": [str(m) for m in result.knocker_melds],
        "knocker_melds_given": result.knocker_melds_given,
        "knocker_deadwood_cards": format_cards(result.knocker_deadwood_cards),
        "defender_melds": [str(m) for m in result.defender_melds],
        "defender_deadwood_cards": format_cards(result.defender_deadwood_cards),
        "layoffs": [
            {"card": format_card(lo.card), "onto": str(result.knocker_melds[lo.meld_index])}
            for lo in result.layoffs
        ],
        "upcard": format_card(result.upcard) if result.upcard is not None else None,
        "gem_bonus_knocker": result.gem_bonus_knocker,
        "gem_bonus_defender": result.gem_bonus_defender,
        "formula": result.formula(),
        "explanation": result.explain(),
    }


def _scored(hand: ScoredHand) -> dict[str, Any]:
    return {
        "winner": hand.winner,
        "points": hand.points,
        "outcome": hand.outcome.value,
        "others": [list(o) for o in hand.others],
    }


def _board(
    state: MatchState,
    entry: HandEntry,
    playing: Sequence[int],
    *,
    prefix: str = "",
    partnership: bool = False,
) -> tuple[str, HandResult, int | None, int | None]:
    """Score one two-player board with the engine: (entry kind, result, knocker, defender)."""
    rules = state.rules
    outcome = _outcome(entry.outcome, prefix)
    by_cards = entry.knocker_cards is not None or entry.defender_cards is not None
    try:
        upcard = parse_card(entry.upcard) if entry.upcard else None
    except EngineError as exc:
        raise ApplicationError(
            engine_message(Message(gettext_noop("upcard: {reason}"), reason=exc.message)),
            field=f"{prefix}upcard",
        ) from None
    if outcome is HandOutcome.DEAD:
        if by_cards:
            raise ApplicationError(
                _("A dead hand is entered without cards."), field=f"{prefix}knocker_cards"
            )
        try:
            dead = score_hand_counts(
                rules,
                outcome=HandOutcome.DEAD,
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwood=entry.defender_deadwood,
                upcard=upcard,
            )
        except EngineError as exc:
            raise _refused(exc, prefix) from None
        return "dead", dead, None, None
    knocker = _seat_check(state, entry.knocker, f"{prefix}knocker", playing)
    if partnership or entry.defender is not None:
        defender = _seat_check(state, entry.defender, f"{prefix}defender", playing)
    else:
        others = [p for p in playing if p != knocker]
        if len(others) != 1:
            raise ApplicationError(_("Name the defender."), field=f"{prefix}defender")
        defender = others[0]
    if defender == knocker or state.side_of(defender) == state.side_of(knocker):
        raise ApplicationError(
            _("The knocker and the defender must be opponents."), field=f"{prefix}defender"
        )
    claimed_winner: Role | None = None
    if entry.winner is not None:
        if entry.winner not in (knocker, defender):
            raise ApplicationError(
                _("The winner must be the knocker or the defender."), field=f"{prefix}winner"
            )
        claimed_winner = "knocker" if entry.winner == knocker else "defender"
    try:
        if by_cards:
            if entry.knocker_cards is None or entry.defender_cards is None:
                missing = "knocker_cards" if entry.knocker_cards is None else "defender_cards"
                raise ApplicationError(
                    _("Enter both hands by cards, or neither."), field=f"{prefix}{missing}"
                )
            result = score_hand(
                rules,
                knocker_cards=entry.knocker_cards,
                defender_cards=entry.defender_cards,
                knocker_melds=entry.knocker_melds,
                upcard=upcard,
                knock_limit=entry.knock_limit,
                diamond_number=entry.diamond_number,
                deck_map=_deck_map(state) if rules.family == "gem" else None,
            )
            check_claim(
                result,
                claimed_outcome=outcome,
                claimed_knocker_deadwood=entry.knocker_deadwood,
                claimed_defender_deadwood=entry.defender_deadwood,
                claimed_points=entry.points,
                claimed_winner=claimed_winner,
            )
            kind = "cards"
        else:
            if outcome is None:
                raise ApplicationError(
                    _("Give the outcome, or enter the hand by cards."), field=f"{prefix}outcome"
                )
            result = score_hand_counts(
                rules,
                outcome=outcome,
                knocker_deadwood=entry.knocker_deadwood,
                defender_deadwood=entry.defender_deadwood,
                defender_deadwood_without_layoffs=entry.defender_deadwood_before_layoffs,
                winner=claimed_winner,
                upcard=upcard,
                knock_limit=entry.knock_limit,
                knocker_gem_bonus=entry.knocker_gem_bonus,
                defender_gem_bonus=entry.defender_gem_bonus,
            )
            check_claim(result, claimed_points=entry.points)
            kind = "counts"
    except EngineError as exc:
        raise _refused(exc, prefix) from None
    return kind, result, knocker, defender


def _deck_map(state: MatchState) -> DeckMap | None:
    """The club's Gem deck map (which gem each card carries: club data, RULES.md §8), or None
    when the club has not given one, in which case Gem hands are entered by counts."""
    raw = state.match.event.club.gem_deck_map
    return DeckMap.from_mapping(raw) if raw else None


def _prepare_two(state: MatchState, ctx: HandContext, entry: HandEntry) -> Prepared:
    kind, result, knocker, defender = _board(state, entry, ctx.playing)
    if knocker is None or defender is None:
        hand = ScoredHand.dead()
    else:
        hand = ScoredHand.from_hand(result, knocker=knocker, defender=defender)
    verdict = _verdict(result, knocker, defender)
    verdict["scored"] = _scored(hand)
    return Prepared(kind, entry.as_payload(), verdict)


def _prepare_partnership(state: MatchState, ctx: HandContext, entry: HandEntry) -> Prepared:
    rules = state.rules
    if entry.outcome == HandOutcome.DEAD.value and not entry.boards:
        verdict: dict[str, Any] = {
            "outcome": "dead",
            "winner": None,
            "points": 0,
            "team_points": [0, 0],
            "boards": [],
            "winner_team": None,
            "scored": _scored(ScoredHand.dead()),
        }
        return Prepared("dead", entry.as_payload(), verdict)
    if len(entry.boards) != 2:
        raise ApplicationError(_("A partnership hand has two boards: enter both."), field="boards")
    results: list[HandResult] = []
    verdicts: list[dict[str, Any]] = []
    teams: list[int] = []
    seats_used: list[int] = []
    kinds: set[str] = set()
    for index, board in enumerate(entry.boards):
        prefix = f"boards[{index}]."
        kind, result, knocker, defender = _board(
            state, board, ctx.playing, prefix=prefix, partnership=board.outcome != "dead"
        )
        kinds.add(kind)
        results.append(result)
        verdicts.append(_verdict(result, knocker, defender))
        if knocker is not None and defender is not None:
            seats_used += [knocker, defender]
            teams.append(state.side_of(knocker))
        else:
            teams.append(0)
    if len(set(seats_used)) != len(seats_used):
        raise ApplicationError(_("Each player plays on one board only."), field="boards[1].knocker")
    try:
        combined = score_partnership_hand(
            rules, results[0], results[1], knocker_team_a=teams[0], knocker_team_b=teams[1]
        )
    except EngineError as exc:
        raise _refused(exc, "boards.") from None
    hand = ScoredHand.from_partnership(combined)
    verdict = {
        "outcome": "dead" if hand.winner is None else combined.outcome.value,
        "winner": combined.winner,
        "winner_team": combined.winner,
        "points": combined.points,
        "team_points": list(combined.team_points),
        "boards": verdicts,
        "scored": _scored(hand),
    }
    kind = "cards" if "cards" in kinds else ("dead" if kinds == {"dead"} else "counts")
    return Prepared(kind, entry.as_payload(), verdict)


def _prepare_rummy(state: MatchState, ctx: HandContext, entry: HandEntry) -> Prepared:
    went_out = _seat_check(state, entry.went_out, "went_out", ctx.playing)
    leftovers = entry.leftovers or {}
    try:
        result: RummyHandResult = score_rummy_hand(
            state.rules,
            players=len(state.seats),
            went_out=went_out,
            rummy=entry.rummy,
            leftovers=leftovers,
        )
    except EngineError as exc:
        raise ApplicationError(
            engine_message(exc), field="leftovers" if "went out" not in str(exc) else "went_out"
        ) from None
    if entry.points is not None and entry.points != result.points:
        raise ApplicationError(
            _("The hand scores %(points)s, not %(claimed)s.")
            % {"points": result.points, "claimed": entry.points},
            field="points",
        )
    hand = result.to_scored_hand()
    verdict = {
        "outcome": "rummy" if result.rummy else "out",
        "winner": went_out,
        "went_out": went_out,
        "rummy": result.rummy,
        "multiplier": result.multiplier,
        "counts": list(result.counts),
        "cards_left": [format_cards(c) if c is not None else None for c in result.cards_left],
        "points": result.points,
        "scored": _scored(hand),
    }
    return Prepared("rummy", entry.as_payload(), verdict)


def hand_prepare(*, state: MatchState, context: HandContext, entry: HandEntry) -> Prepared:
    """Score ``entry`` with the engine for the hand described by ``context`` (no writes)."""
    if state.rules.family == "rummy":
        return _prepare_rummy(state, context, entry)
    if state.partnership:
        return _prepare_partnership(state, context, entry)
    if state.rules.family == "gem" and len(state.seats) != 2:
        raise ApplicationError(_("Three-player Gem Rummy is not supported yet."), field="knocker")
    return _prepare_two(state, context, entry)


# -- shared write helpers ---------------------------------------------------------------------


def _lock(match: Match) -> MatchState:
    Match.objects.select_for_update().filter(pk=match.pk).first()
    Game.objects.get_or_create(match_id=match.pk, number=1)
    return match_state(match=match_prefetched(match_id=match.pk))


def _origin(sub: HandSubmission, actor: Actor, player: Player | None, reason: str) -> None:
    sub._history_user = actor.user  # type: ignore[attr-defined]
    sub._history_origin = (player, actor.ip, actor.user_agent)  # type: ignore[attr-defined]
    sub._change_reason = reason  # type: ignore[attr-defined]


def _current_of(hand: Hand) -> HandSubmission | None:
    return (
        hand.submissions.filter(
            status__in=[HandSubmission.Status.CONFIRMED, HandSubmission.Status.PENDING]
        )
        .select_related("hand__game", "submitted_by_player", "confirmed_by_player")
        .select_related("submitted_by_user", "confirmed_by_user")
        .first()
    )


def _conflict(message: str, stored: HandSubmission | None) -> ApplicationError:
    extra = {"stored": submission_out(stored)} if stored is not None else {}
    return ApplicationError(message, status=409, extra=extra)


def _store(
    *,
    state: MatchState,
    game: Game,
    number: int,
    prepared: Prepared,
    actor: Actor,
    player: Player | None,
    confirmed: bool,
    override_reason: str = "",
) -> HandSubmission:
    """Insert a submission; the unique constraints turn a concurrent duplicate into a 409."""
    hand, _created = Hand.objects.get_or_create(game=game, number=number)
    version = (hand.submissions.aggregate(v=Max("version"))["v"] or 0) + 1
    now = timezone.now()
    sub = HandSubmission(
        hand=hand,
        version=version,
        entry=prepared.entry,
        payload=prepared.payload,
        result=prepared.result,
        status=HandSubmission.Status.CONFIRMED if confirmed else HandSubmission.Status.PENDING,
        submitted_by_user=actor.user,
        submitted_by_player=player,
        confirmed_by_user=actor.user if confirmed and override_reason else None,
        override_reason=override_reason,
        ip_address=actor.ip,
        user_agent=actor.user_agent,
        confirmed_at=now if confirmed else None,
    )
    _origin(sub, actor, player, "override" if override_reason else "submitted")
    try:
        with transaction.atomic():
            sub.save()
    except IntegrityError:
        raise _conflict(
            _("Hand %(number)s was entered by someone else at the same moment.")
            % {"number": number},
            _current_of(hand),
        ) from None
    sub.hand = hand
    event_results_bump(event=state.match.event)
    return sub


def _result_json(state: MatchState, view: GameView) -> dict[str, Any]:
    return game_summary(state=state, view=view) if view.finished else {}


def _hollywood_margin(state: MatchState, view: GameView) -> int | None:
    if state.winner is None:
        return None
    w = state.winner
    return sum(r.final_totals[w] - r.final_totals[1 - w] for r in view.results)


def match_sync(*, match: Match) -> MatchState:
    """Bring the stored game and match rows in line with the engine's view of the hands.

    Closes games the engine says ended (and starts the next game of a best-of), re-opens any a
    correction re-opened, removes an empty game that is no longer needed, and fills the match's
    winner and summary. Bumps the results sequence when a game or the match changes state.
    """
    try:
        state = match_state(match=match_prefetched(match_id=match.pk))
    except EngineError as exc:
        raise ApplicationError(
            _("This would make the recorded hands inconsistent: %(reason)s")
            % {"reason": engine_message(exc)},
            status=409,
        ) from None
    changed = False
    now = timezone.now()
    kept = {view.game.pk for view in state.games}
    for view in state.games:
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
        if (game.status, game.winner_position, game.winner_team, game.margin, game.result) != (
            status,
            position,
            team,
            margin,
            result,
        ):
            changed = (
                changed
                or game.status != status
                or (game.winner_position, game.winner_team) != (position, team)
            )
            game.status = status
            game.winner_position = position
            game.winner_team = team
            game.margin = margin
            game.result = result
            game.finished_at = (game.finished_at or now) if finished else None
            game.save(
                update_fields=[
                    "status",
                    "winner_position",
                    "winner_team",
                    "margin",
                    "result",
                    "finished_at",
                ]
            )
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
        changed = True
    match = state.match
    last = state.games[-1] if state.games else None
    if not state.finished and last is not None and last.finished and state.fmt.kind == "best_of":
        Game.objects.create(
            match=match, number=last.game.number + 1, first_dealer=last.result.next_dealer
        )
        changed = True
    winner_player = None
    winner_team = None
    if state.finished and state.winner is not None:
        if state.partnership:
            winner_team = state.winner
        else:
            seat = state.seat(state.winner)
            winner_player = seat.player if seat is not None else None
    match_status = Match.Status.FINISHED if state.finished else Match.Status.PLAYING
    summary = (
        {
            "games_won": list(state.games_won),
            "winner": state.winner,
            "winner_name": state.name_of(state.winner),
            "margins": [
                v.game.margin if not state.rules.hollywood_games else _hollywood_margin(state, v)
                for v in state.games
            ],
        }
        if state.finished
        else {}
    )
    before = (match.status, match.winner_id, match.winner_team)
    after = (match_status, winner_player.pk if winner_player else None, winner_team)
    # A correction that re-opens a final match or changes its winner may already have been
    # acted on (a bracket match paired with the old winner): tournaments decide, before commit.
    corrected = before[0] == Match.Status.FINISHED and before != after
    if corrected:
        match_result_change_allowed(
            match=match, new_winner=after[1] if match_status == Match.Status.FINISHED else None
        )
    if (*before, match.summary) != (*after, summary):
        changed = True
        match.status = match_status
        match.winner = winner_player
        match.winner_team = winner_team
        match.summary = summary
        match.finished_at = (match.finished_at or now) if state.finished else None
        match.save(update_fields=["status", "winner", "winner_team", "summary", "finished_at"])
    if changed:
        event_results_bump(event=match.event)
        if corrected:
            match_result_changed(match=match)
        if state.finished:
            match_finished(match=match)
    return state


# -- matches ----------------------------------------------------------------------------------

_SEATS = {"two": (2, 2), "three_box": (3, 3), "three_dealer_out": (3, 3), "partnership": (4, 4)}


def match_start(
    *,
    actor: Actor,
    event: Event,
    players: Sequence[int],
    teams: Sequence[int] | None = None,
    table_number: int | None = None,
    round_number: int | None = None,
    rules_preset: str | None = None,
    rule_overrides: Mapping[str, Any] | None = None,
    match_format: Mapping[str, Any] | None = None,
    first_dealer: int = 0,
) -> Match:
    """Start a match at a table: seats in the order given (in the box: box, captain, sitter)."""
    user = actor.user
    director = user is not None and event_is_director(event=event, user=user)
    if event.status == Event.Status.FINISHED:
        raise ApplicationError(_("This event has finished."), status=409)
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
    if rules.family == "rummy":
        low, high = 2, 6
    elif rules.family == "gem":
        low, high = 2, 2
    else:
        low, high = _SEATS[rules.table]
    if not low <= len(players) <= high:
        wanted = str(low) if low == high else f"{low}-{high}"
        raise ApplicationError(
            _("The %(rules)s rules seat %(wanted)s players, not %(count)s.")
            % {"rules": rules.name, "wanted": wanted, "count": len(players)},
            field="players",
        )
    if len(set(players)) != len(players):
        raise ApplicationError(_("A player can take only one seat."), field="players")
    found = {p.pk: p for p in Player.objects.filter(pk__in=players)}
    registered = set(
        Registration.objects.filter(event=event, player_id__in=players).values_list(
            "player_id", flat=True
        )
    )
    for pid in players:
        player = found.get(pid)
        if player is None or (player.club_id != event.club_id and pid not in registered):
            raise ApplicationError(
                _("Player %(id)s is not a player of this event's club.") % {"id": pid},
                field="players",
            )
    if not director and not (
        user is not None and any(found[p].user_id == user.pk for p in players)
    ):
        raise ApplicationError(
            _("Only the event's directors or one of the players may start a match."), status=403
        )
    seat_teams: list[int | None] = [None] * len(players)
    if rules.table == "partnership":
        seat_teams = list(teams) if teams else [0, 1, 0, 1]
        if sorted(t if t is not None else -1 for t in seat_teams) != [0, 0, 1, 1]:
            raise ApplicationError(_("Two teams of two: teams are 0 and 1."), field="teams")
    elif teams:
        raise ApplicationError(_("Teams are for partnership tables only."), field="teams")
    dealers = 2 if rules.table == "partnership" else len(players)
    if not 0 <= first_dealer < dealers:
        raise ApplicationError(
            _("The first dealer is 0-%(last)s.") % {"last": dealers - 1}, field="first_dealer"
        )
    if rules.table == "three_box":
        first_dealer = 0
    round_obj = None
    if round_number is not None:
        round_obj = Round.objects.filter(event=event, number=round_number).first()
        if round_obj is None:
            raise ApplicationError(_("There is no such round."), field="round")
    with transaction.atomic():
        match = Match.objects.create(
            event=event,
            round=round_obj,
            table_number=table_number,
            rules=rules.to_dict(),
            match_format=match_format_dict(fmt),
            created_by=user,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=found[pid], position=pos, team=seat_teams[pos])
            for pos, pid in enumerate(players)
        )
        Game.objects.create(match=match, number=1, first_dealer=first_dealer)
    return match


# -- hands --------------------------------------------------------------------------------------


def _require_actor(access: Access, declared: int | None) -> Player | None:
    """The player the actor acts as (None for a director acting as themself)."""
    if not access.can_view:
        raise ApplicationError(_("Not found."), status=404)
    position = access.acting_position(declared)
    if position is None and not access.director:
        raise ApplicationError(_("Say which player you are (as_position)."), field="as_position")
    return access.players[position] if position is not None else None


def _policy(event: Event) -> str:
    return str(event.confirmation)


def hand_submit(
    *,
    match: Match,
    actor: Actor,
    entry: HandEntry,
    hand_number: int | None = None,
    as_position: int | None = None,
) -> HandSubmission:
    """Enter the next hand of the match's current game (confirmed at once under policy none)."""
    with transaction.atomic():
        state = _lock(match)
        access = match_access(actor=actor, match=state.match)
        player = _require_actor(access, as_position)
        view = state.current
        if view is None or state.match.decision != Match.Decision.PLAYED:
            raise ApplicationError(_("This match is over."), status=409)
        number = hand_number if hand_number is not None else view.next_number
        if view.pending is not None and hand_number is None:
            number = view.pending.hand.number
        if number < view.next_number:
            raise _conflict(
                _("Hand %(number)s is already recorded.") % {"number": number},
                view.hands[number - 1],
            )
        if view.pending is not None and view.pending.hand.number == number:
            raise _conflict(
                _("Hand %(number)s was already entered and waits for confirmation.")
                % {"number": number},
                view.pending,
            )
        if number > view.next_number:
            raise ApplicationError(
                _("The next hand of this game is hand %(next)s.") % {"next": view.next_number},
                field="hand_number",
            )
        prepared = hand_prepare(state=state, context=view.next_context, entry=entry)
        confirmed = _policy(state.match.event) == Event.Confirmation.NONE
        sub = _store(
            state=state,
            game=view.game,
            number=number,
            prepared=prepared,
            actor=actor,
            player=player,
            confirmed=confirmed,
        )
        if confirmed:
            match_sync(match=state.match)
    return sub


def _acting_player(access: Access, as_position: int | None) -> Player | None:
    """The player an actor acts as at a confirm or withdraw (None: a director as themself)."""
    if as_position is None and (access.director or not access.positions):
        return None
    position = access.acting_position(as_position)
    return access.players[position] if position is not None else None


def _is_own(sub: HandSubmission, actor: Actor, player: Player | None) -> bool:
    """Did this actor make this entry? A player is judged by seat (a handed-over phone acts for
    the player it names), anyone else by their account."""
    if player is not None and sub.submitted_by_player_id is not None:
        return sub.submitted_by_player_id == player.pk
    return actor.user is not None and sub.submitted_by_user_id == actor.user.pk


def _submission_locked(submission: HandSubmission) -> tuple[MatchState, HandSubmission]:
    state = _lock(submission.hand.game.match)
    sub = HandSubmission.objects.select_related(
        "hand__game__match__event", "submitted_by_player", "confirmed_by_player"
    ).get(pk=submission.pk)
    return state, sub


def _opponents(state: MatchState, one: Player, other: Player) -> bool:
    positions = {seat.player_id: seat.position for seat in state.seats}
    a, b = positions.get(one.pk), positions.get(other.pk)
    if a is None or b is None:
        return True
    return a != b and state.side_of(a) != state.side_of(b)


def hand_confirm(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """Confirm a pending entry under the event's policy (never one's own)."""
    with transaction.atomic():
        state, sub = _submission_locked(submission)
        access = match_access(actor=actor, match=state.match)
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        if sub.status != HandSubmission.Status.PENDING:
            raise _conflict(
                _("This entry is %(status)s, not waiting for confirmation.")
                % {"status": sub.get_status_display()},
                sub,
            )
        policy = _policy(state.match.event)
        if policy == Event.Confirmation.DIRECTOR:
            if not access.director:
                raise ApplicationError(_("A director confirms results at this event."), status=403)
            player = None
        else:
            player = _acting_player(access, as_position)
            if player is None and not access.director:
                raise ApplicationError(
                    _("Say which player you are (as_position)."), field="as_position"
                )
        if _is_own(sub, actor, player):
            raise ApplicationError(_("Nobody confirms their own entry."), status=403)
        submitter = sub.submitted_by_player
        if (
            player is not None
            and submitter is not None
            and not _opponents(state, player, submitter)
        ):
            raise ApplicationError(
                _("The other side confirms this entry, not the player's own side."), status=403
            )
        sub.status = HandSubmission.Status.CONFIRMED
        sub.confirmed_by_user = actor.user
        sub.confirmed_by_player = player
        sub.confirmed_at = timezone.now()
        _origin(sub, actor, player, "confirmed")
        sub.save(
            update_fields=["status", "confirmed_by_user", "confirmed_by_player", "confirmed_at"]
        )
        event_results_bump(event=state.match.event)
        match_sync(match=state.match)
    return sub


def hand_withdraw(
    *, submission: HandSubmission, actor: Actor, as_position: int | None = None
) -> HandSubmission:
    """The submitter (or a director) withdraws an entry that is not confirmed yet."""
    with transaction.atomic():
        state, sub = _submission_locked(submission)
        access = match_access(actor=actor, match=state.match)
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        player = _acting_player(access, as_position)
        if sub.status != HandSubmission.Status.PENDING:
            raise _conflict(
                _(
                    "Only an entry waiting for confirmation can be withdrawn; this one is "
                    "%(status)s."
                )
                % {"status": sub.get_status_display()},
                sub,
            )
        if not (_is_own(sub, actor, player) or access.director):
            raise ApplicationError(_("Only whoever entered it may withdraw it."), status=403)
        sub.status = HandSubmission.Status.WITHDRAWN
        _origin(sub, actor, player, "withdrawn")
        sub.save(update_fields=["status"])
        event_results_bump(event=state.match.event)
    return sub


def _context_for(state: MatchState, hand: Hand) -> tuple[GameView, HandContext]:
    for view in state.games:
        if view.game.pk == hand.game_id:
            return view, view.contexts[min(hand.number, len(view.contexts)) - 1]
    raise ApplicationError(_("This hand's game is no longer in play."), status=409)


def hand_override(
    *, submission: HandSubmission, actor: Actor, entry: HandEntry, reason: str
) -> HandSubmission:
    """A director's correction: a new confirmed version; the old one is kept, superseded."""
    reason = (reason or "").strip()
    with transaction.atomic():
        state, sub = _submission_locked(submission)
        access = match_access(actor=actor, match=state.match)
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        if not access.director:
            raise ApplicationError(_("Only a director can correct a hand."), status=403)
        if not reason:
            raise ApplicationError(_("Give the reason for the correction."), field="reason")
        hand = sub.hand
        current = _current_of(hand)
        if current is None:
            raise ApplicationError(
                _("This hand has no entry to correct; enter it instead."), status=409
            )
        view, context = _context_for(state, hand)
        if current.status == HandSubmission.Status.CONFIRMED:
            context = view.contexts[hand.number - 1]
        prepared = hand_prepare(state=state, context=context, entry=entry)
        # Supersede first, so the one-confirmed and one-pending indexes are never violated.
        current.status = HandSubmission.Status.SUPERSEDED
        _origin(current, actor, None, f"superseded: {reason}")
        current.save(update_fields=["status"])
        new = _store(
            state=state,
            game=hand.game,
            number=hand.number,
            prepared=prepared,
            actor=actor,
            player=None,
            confirmed=True,
            override_reason=reason,
        )
        match_sync(match=state.match)
    return new


# -- whole score sheets and CSV ------------------------------------------------------------------


def scoresheet_submit(
    *, match: Match, actor: Actor, hands: Sequence[HandEntry], game_number: int | None = None
) -> list[HandSubmission]:
    """Enter a whole paper score sheet (all hands of the current game, in order), all or nothing.

    Each hand is checked against the game as the hands before it left it (dealer, roles, end).
    """
    if not hands:
        raise ApplicationError(_("A score sheet has at least one hand."), field="hands")
    stored: list[HandSubmission] = []
    with transaction.atomic():
        state = _lock(match)
        access = match_access(actor=actor, match=state.match)
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        policy = _policy(state.match.event)
        if not access.director and policy != Event.Confirmation.NONE:
            raise ApplicationError(
                _(
                    "At this event a paper score sheet is entered by a director; players enter "
                    "hand by hand."
                ),
                status=403,
            )
        view = state.current
        if view is None:
            raise ApplicationError(_("This match is over."), status=409)
        if game_number is not None and game_number != view.game.number:
            raise ApplicationError(
                _("The game being played is game %(number)s.") % {"number": view.game.number},
                field="game",
            )
        if view.hands or view.pending is not None:
            raise ApplicationError(
                _("Game %(number)s already has hands; a score sheet fills a fresh game.")
                % {"number": view.game.number},
                status=409,
            )
        player = None
        if access.positions and not access.director:
            player = access.players[access.positions[0]]
        for index, entry in enumerate(hands):
            state = match_state(match=match_prefetched(match_id=match.pk))
            current = state.current
            if current is None or current.game.pk != view.game.pk:
                raise ApplicationError(
                    _("The game ended with the hand before this one."), field=f"hands[{index}]"
                )
            try:
                prepared = hand_prepare(state=state, context=current.next_context, entry=entry)
            except ApplicationError as exc:
                exc.field = f"hands[{index}].{exc.field}" if exc.field else f"hands[{index}]"
                raise
            sub = _store(
                state=state,
                game=view.game,
                number=current.next_number,
                prepared=prepared,
                actor=actor,
                player=player,
                confirmed=True,
            )
            stored.append(sub)
            match_sync(match=state.match)
    return stored


CSV_COLUMNS = (
    "match",
    "game",
    "hand",
    "knocker",
    "defender",
    "outcome",
    "knocker_deadwood",
    "defender_deadwood",
    "knocker_cards",
    "defender_cards",
    "knocker_melds",
    "upcard",
    "knock_limit",
    "points",
)
_INT_COLUMNS = (
    "match",
    "game",
    "hand",
    "knock_limit",
    "points",
    "knocker_deadwood",
    "defender_deadwood",
)


def _row_entry(row: Mapping[str, str], state: MatchState) -> HandEntry:
    values: dict[str, Any] = {}
    for key in CSV_COLUMNS:
        raw = (row.get(key) or "").strip()
        if not raw or key in ("match", "game", "hand"):
            continue
        if key in ("knocker", "defender"):
            values[key] = _seat_by_name(state, raw, key)
        elif key in _INT_COLUMNS:
            try:
                values[key] = int(raw)
            except ValueError:
                raise ApplicationError(
                    _("%(value)s is not a whole number.") % {"value": raw}, field=key
                ) from None
        else:
            values[key] = raw
    return HandEntry.from_dict(values)


def _seat_by_name(state: MatchState, raw: str, column: str) -> int:
    if raw.isdigit() and state.seat(int(raw)) is not None:
        return int(raw)
    for seat in state.seats:
        if seat.player.name.casefold() == raw.casefold():
            return seat.position
    raise ApplicationError(
        _("%(value)s is not a player of this match.") % {"value": raw}, field=column
    )


def import_csv(*, actor: Actor, text: str, dry_run: bool) -> ImportReport:
    """Import past score sheets: one row per hand (columns :data:`CSV_COLUMNS`).

    Rows are grouped by match and game and must give each game's hands in order from its next
    hand. Every row is checked (against the engine and the game as the rows before it leave it)
    and every problem reported; unless it is a dry run and nothing is wrong, everything is
    stored confirmed, or nothing is.
    """
    reader = csv.DictReader(io.StringIO(text))
    header = [h.strip() for h in (reader.fieldnames or [])]
    report = ImportReport(dry_run=dry_run)
    missing = [c for c in ("match", "hand", "knocker", "outcome") if c not in header]
    unknown = [h for h in header if h not in CSV_COLUMNS]
    if missing or unknown:
        message = []
        if missing:
            message.append(_("missing column(s): %(names)s") % {"names": ", ".join(missing)})
        if unknown:
            message.append(_("unknown column(s): %(names)s") % {"names": ", ".join(unknown)})
        report.problems.append(RowProblem(1, None, "; ".join(message)))
        return report
    rows = list(reader)
    report.rows = len(rows)
    failed_games: set[tuple[str, str]] = set()
    checked_matches: dict[int, bool] = {}
    with transaction.atomic():
        for line, row in enumerate(rows, start=2):
            row = {(k or "").strip(): (v or "") for k, v in row.items()}
            key = (row.get("match", "").strip(), row.get("game", "").strip() or "1")
            if key in failed_games:
                report.problems.append(
                    RowProblem(line, None, _("Skipped: an earlier row of this game has a problem."))
                )
                continue
            try:
                with transaction.atomic():
                    _import_row(actor, row, checked_matches)
                report.stored += 1
            except ApplicationError as exc:
                failed_games.add(key)
                report.problems.append(RowProblem(line, exc.field, exc.message))
        if dry_run or report.problems:
            transaction.set_rollback(True)
            if not dry_run:
                report.stored = 0
    return report


def _import_row(actor: Actor, row: Mapping[str, str], checked: dict[int, bool]) -> None:
    try:
        match_id = int(row.get("match", "").strip())
    except ValueError:
        raise ApplicationError(_("Give the match id."), field="match") from None
    match = Match.objects.select_related("event").filter(pk=match_id).first()
    if match is None:
        raise ApplicationError(_("There is no match %(id)s.") % {"id": match_id}, field="match")
    if match_id not in checked:
        checked[match_id] = actor.user is not None and event_is_director(
            event=match.event, user=actor.user
        )
    if not checked[match_id]:
        raise ApplicationError(
            _("Only a director of the match's event can import its results."), field="match"
        )
    state = _lock(match)
    view = state.current
    if view is None:
        raise ApplicationError(_("This match is over."), field="match")
    game = (row.get("game") or "").strip()
    if game and game != str(view.game.number):
        raise ApplicationError(
            _("The game being played is game %(number)s.") % {"number": view.game.number},
            field="game",
        )
    number = (row.get("hand") or "").strip()
    if number != str(view.next_number) or view.pending is not None:
        raise ApplicationError(
            _("The next hand of this game is hand %(next)s.") % {"next": view.next_number},
            field="hand",
        )
    entry = _row_entry(row, state)
    prepared = hand_prepare(state=state, context=view.next_context, entry=entry)
    _store(
        state=state,
        game=view.game,
        number=view.next_number,
        prepared=prepared,
        actor=actor,
        player=None,
        confirmed=True,
    )
    match_sync(match=state.match)
