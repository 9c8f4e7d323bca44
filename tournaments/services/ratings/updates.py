"""The rating services the tasks and corrections call: after one match, for a whole event, and
taking a re-opened match out of the ratings."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from clubs.models import Club
from scoring.models import Match, Seat
from tournaments.models import Event, Rating, RatingHistory
from tournaments.selectors import club_rating_period_start
from tournaments.services.ratings.glicko import _glicko_rate, lock_club_ratings
from tournaments.services.ratings.openskill import (
    _is_openskill,
    _openskill_rate,
    ratings_openskill_rebuild,
)


def ratings_update_for_match(*, match_id: int) -> None:
    """Update the club ratings after one final match (idempotent; nothing for byes, walkovers)."""
    with transaction.atomic():
        match = Match.objects.select_related("event__club").filter(pk=match_id).first()
        if match is None:
            return
        lock_club_ratings(match.event.club_id)  # before reading what the update builds on
        match.refresh_from_db(fields=["status", "decision", "finished_at"])
        if match.status != Match.Status.FINISHED or match.decision != Match.Decision.PLAYED:
            # No longer rated: if OpenSkill still counts it, take it out by a rebuild.
            if RatingHistory.objects.filter(match=match, kind=Rating.Kind.OPENSKILL).exists():
                ratings_openskill_rebuild(club=match.event.club)
            return
        seats = sorted(match.seats.values_list("position", "player_id", "team"))
        if len(seats) < 2:
            return
        if len(seats) == 2 and all(t is None for _, _, t in seats):
            club = match.event.club
            day = (match.finished_at or timezone.now()).date()
            period = club_rating_period_start(club=club, day=day)
            players = {pid for _, pid, _ in seats}
            current = dict(
                Rating.objects.filter(
                    club=club, kind=Rating.Kind.GLICKO2, player_id__in=players
                ).values_list("player_id", "period_start")
            )
            period = max([period, *(p for p in current.values() if p is not None)])
            _glicko_rate(club=club, period=period, affected=players)
        elif _is_openskill(seats):
            _openskill_rate(match, seats)


def ratings_withdraw_match(*, match: Match, day: date) -> None:
    """Take a match that is no longer final (a correction re-opened it) out of the ratings.

    Two-player ratings re-rate the players' current period from the stored results, which no
    longer include the match, exactly as :func:`ratings_update_for_match` would: idempotent.
    A multi-player match that OpenSkill counted rebuilds the club's OpenSkill ratings from the
    stored results (:func:`ratings_openskill_rebuild`), which no longer include it.
    """
    lock_club_ratings(match.event.club_id)
    seats = sorted(Seat.objects.filter(match=match).values_list("position", "player_id", "team"))
    if _is_openskill(seats):
        if RatingHistory.objects.filter(match=match, kind=Rating.Kind.OPENSKILL).exists():
            ratings_openskill_rebuild(club=Club.objects.get(pk=match.event.club_id))
        return
    if len(seats) != 2:
        return
    club = Club.objects.get(pk=match.event.club_id)
    players = {pid for _, pid, _ in seats}
    current = Rating.objects.filter(club=club, kind=Rating.Kind.GLICKO2, player_id__in=players)
    if not current.exists():
        return
    period = max(
        [
            club_rating_period_start(club=club, day=day),
            *(p for p in current.values_list("period_start", flat=True) if p is not None),
        ]
    )
    RatingHistory.objects.filter(match=match, kind=Rating.Kind.GLICKO2).delete()
    _glicko_rate(club=club, period=period, affected=players)


def ratings_update_for_event(*, event: Event) -> int:
    """Re-rate every two-player match of ``event`` at once (the batch path); returns players rated.

    Each period the event touches is rated once for all its players, which is what makes a
    1,024-player event a single pass instead of thousands of per-match updates.
    """
    club = event.club
    rows = list(
        Match.objects.filter(
            event=event, status=Match.Status.FINISHED, decision=Match.Decision.PLAYED
        )
        .annotate(n=Count("seats", distinct=True))
        .filter(n=2)
        .values_list("pk", "finished_at")
    )
    if not rows:
        return 0
    by_period: dict[date, list[int]] = defaultdict(list)
    for mid, finished_at in rows:
        day = (finished_at or timezone.now()).date()
        by_period[club_rating_period_start(club=club, day=day)].append(mid)
    rated: set[int] = set()
    with transaction.atomic():
        lock_club_ratings(club.pk)
        for period, mids in sorted(by_period.items()):
            seats = Seat.objects.filter(match_id__in=mids)
            players = set(seats.values_list("player_id", flat=True))
            _glicko_rate(club=club, period=period, affected=players)
            rated |= players
    # After the ratings' commit, not under the club's lock: a correction takes the event's row
    # (its results bump) before the club's (the ratings it withdraws), so holding the club's
    # while waiting for the event's could deadlock with it. Lost with a crash in between, it is
    # only a repeat of this idempotent update.
    Event.objects.filter(pk=event.pk).update(ratings_seq=event.results_seq)
    return len(rated)
