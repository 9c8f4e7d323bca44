"""Writes that follow a corrected final result: the bracket's later matches and the ratings.

Scoring's director override can re-open a finished match or change its winner. Standings need
nothing here (they are rebuilt from the results sequence). Scoring asks
:func:`match_result_change_allowed` before it commits such a change and calls
:func:`match_result_changed` after storing it, in the same transaction:

- a later bracket match that was created with the old winner (or loser) and has no hand yet is
  re-seated with the new one, or removed when its slot is no longer decided (a re-opened match);
- if such a match already has a hand or a result, the correction is refused with 409: its hands
  were played by someone the bracket no longer puts there, so they are corrected or withdrawn
  first;
- ratings are redone from the stored results: two-player (Glicko-2) ratings for the period the
  match counted in, and a multi-player or partnership match's OpenSkill ratings by replaying the
  club's multi-player matches (``ratings_openskill_rebuild``). A re-opened match is taken out
  here, at once; a match still final with another winner is re-rated by the rating task that
  ``match_finished`` schedules, which sees the match was rated before and replays.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.live import live_changed
from ratings.services import ratings_withdraw_match
from scoring.models import Hand, Match, Seat
from tournaments.models import Event
from tournaments.selectors import event_bracket_snapshot
from tournaments.services.events import ELIMINATION_KINDS


@dataclass(frozen=True, slots=True)
class _Reseat:
    """A stored bracket match whose players the bracket now sees differently (None: undecided)."""

    match_id: int
    players: tuple[int, int] | None
    started: bool


def _in_bracket(match: Match) -> bool:
    event = match.event
    return (
        bool(match.bracket_key)
        and event.kind in ELIMINATION_KINDS
        and bool((event.draw or {}).get("entrants"))
    )


def _reseats(match: Match, new_winner: int | None, *, override: bool) -> list[_Reseat]:
    """Later stored bracket matches whose players differ from the bracket after the change."""
    overrides = {int(match.bracket_key): new_winner} if override else None
    try:
        snap = event_bracket_snapshot(event=match.event, overrides=overrides)
    except ApplicationError:
        # A later stored result names a player the bracket would no longer put there.
        raise ApplicationError(
            _(
                "A later bracket match was already played with this match's result; correct "
                "that match first."
            ),
            status=409,
        ) from None
    out: list[_Reseat] = []
    for ms in snap.state.matches:
        stored = snap.matches.get(ms.match.id)
        if stored is None or stored.id == match.pk:
            continue
        home, away = ms.home, ms.away
        expected = (home, away) if isinstance(home, int) and isinstance(away, int) else None
        if expected is not None and stored.players == expected:
            continue
        if expected is None and stored.finished and stored.decision != Match.Decision.PLAYED:
            continue  # a walkover or bye the bracket itself decided: it follows the replay
        out.append(_Reseat(stored.id, expected, stored.finished))
    if out:
        started = set(
            Hand.objects.filter(game__match_id__in=[r.match_id for r in out]).values_list(
                "game__match_id", flat=True
            )
        )
        out = [_Reseat(r.match_id, r.players, r.started or r.match_id in started) for r in out]
    return out


def match_result_change_allowed(*, match: Match, new_winner: int | None) -> None:
    """Refuse (409) a change of a final match's result that a later match was played on.

    ``new_winner`` is the player the correction makes the winner, or None when the match has no
    winner any more (re-opened, or a draw). Only bracket matches have later matches that depend
    on a result; everything else (standings, ratings) is rebuilt from the stored results.
    """
    match = Match.objects.select_related("event").get(pk=match.pk)
    if not _in_bracket(match):
        return
    blocked = [r for r in _reseats(match, new_winner, override=True) if r.started]
    if blocked:
        raise ApplicationError(
            _(
                "This match's result decides who plays bracket match %(match)s, which has "
                "already started; correct or withdraw that match's hands first."
            )
            % {"match": blocked[0].match_id},
            status=409,
        )


def match_result_changed(*, match: Match) -> None:
    """Follow a stored correction of a final result (call inside its transaction).

    Re-seats later bracket matches that have not started, removes those whose players are no
    longer known, re-opens a finished elimination event whose champion is no longer decided,
    and takes a re-opened match out of the ratings, OpenSkill ones included (a still-final
    match is re-rated by the task ``match_finished`` schedules, which scoring calls next).
    """
    match = Match.objects.select_related("event").get(pk=match.pk)
    with transaction.atomic():
        if _in_bracket(match):
            _bracket_follow(match)
        if match.status != Match.Status.FINISHED:
            ratings_withdraw_match(match=match, day=timezone.now().date())


def _bracket_follow(match: Match) -> None:
    event = Event.objects.select_for_update().get(pk=match.event_id)
    changes = _reseats(match, None, override=False)
    if any(r.started for r in changes):
        raise ApplicationError(
            _("A later bracket match has already started; correct or withdraw its hands first."),
            status=409,
        )
    for r in changes:
        if r.players is None:
            Match.objects.filter(pk=r.match_id).delete()
            continue
        Seat.objects.filter(match_id=r.match_id).delete()
        Match.objects.filter(pk=r.match_id).update(live_seq=F("live_seq") + 1)
        live_changed(page="match", pk=r.match_id)
        Seat.objects.bulk_create(
            Seat(match_id=r.match_id, player_id=pid, position=pos)
            for pos, pid in enumerate(r.players)
        )
    if event.status == Event.Status.FINISHED:
        snap = event_bracket_snapshot(event=event)
        if snap.state.champion is None:
            Event.objects.filter(pk=event.pk).update(status=Event.Status.RUNNING)
