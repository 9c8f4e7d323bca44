"""The rating services the tasks and corrections call: after one match, for a whole event's
matches, and taking a re-opened match out of the ratings."""

from __future__ import annotations

from collections import defaultdict
from datetime import date

from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from clubs.models import Club
from ratings.models import Rating, RatingHistory
from ratings.selectors import club_rating_period_start
from ratings.services.glicko import club_ratings_lock, glicko_period_rate
from ratings.services.openskill import (
    openskill_counts,
    openskill_match_rate,
    ratings_openskill_rebuild,
)
from scoring.models import Match, Seat


def ratings_update_for_match(*, match_id: int) -> None:
    """Update the club ratings after one final match (idempotent; nothing for byes, walkovers)."""
    with transaction.atomic():
        match = Match.objects.select_related("event__club").filter(pk=match_id).first()
        if match is None:
            return
        club_ratings_lock(match.event.club_id)  # before reading what the update builds on
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
            glicko_period_rate(club=club, period=period, affected=players)
        elif openskill_counts(seats):
            openskill_match_rate(match, seats)


def ratings_withdraw_match(*, match: Match, day: date) -> None:
    """Take a match that is no longer final (a correction re-opened it) out of the ratings.

    Two-player ratings re-rate the players' current period from the stored results, which no
    longer include the match, exactly as :func:`ratings_update_for_match` would: idempotent.
    A multi-player match that OpenSkill counted rebuilds the club's OpenSkill ratings from the
    stored results (:func:`ratings_openskill_rebuild`), which no longer include it.
    """
    club_ratings_lock(match.event.club_id)
    seats = sorted(Seat.objects.filter(match=match).values_list("position", "player_id", "team"))
    if openskill_counts(seats):
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
    glicko_period_rate(club=club, period=period, affected=players)


def ratings_update_for_event_matches(*, club: Club, event_id: int) -> int:
    """Re-rate every two-player match of one event of ``club`` at once (the batch path); returns
    the number of players rated.

    Each period the event touches is rated once for all its players, which is what makes a
    1,024-player event a single pass instead of thousands of per-match updates. The caller
    records which results the ratings now reflect, after this commit and outside the club's
    rating lock (``tournaments.services.ratings_update_for_event``).
    """
    rows = list(
        Match.objects.filter(
            event_id=event_id, status=Match.Status.FINISHED, decision=Match.Decision.PLAYED
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
        club_ratings_lock(club.pk)
        for period, mids in sorted(by_period.items()):
            seats = Seat.objects.filter(match_id__in=mids)
            players = set(seats.values_list("player_id", flat=True))
            glicko_period_rate(club=club, period=period, affected=players)
            rated |= players
    return len(rated)
