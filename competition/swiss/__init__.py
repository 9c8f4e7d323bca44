"""Swiss pairing of one round: who plays whom, who sits out, and at which table.

This module owns the pairing rules only. It takes frozen snapshots of the players (built by a
selector) and returns a frozen :class:`SwissPairing`; it never reads or writes the database and
never decides scores. ``docs/pairing.md`` sets the criteria beside FIDE's Dutch system (C.04.3).

Hard rules (never broken): nobody meets an opponent they have played (an unplayed, forfeited
game is not a meeting: the caller leaves it out of ``opponents``), no hard-forbidden pair, and
everybody not on a requested bye is paired, or sits out on the one pairing bye of an odd field.
Among the pairings that keep them, the best is chosen by these criteria, each one absolute over
the ones after it:

1. the pairing bye goes to a player of the lowest score group among those who have had no
   pairing bye and no forfeit win (``byes``, ``forfeit_wins``); only when no complete pairing
   allows that does it go further up, and to a player with a bye or forfeit win only when nobody
   else can take it (then to whoever has had the fewest). Which player of that tier sits out is
   decided with the pairing, by the criteria below;
2. the smallest pairing score difference (FIDE's PSD): the score gaps of the games, largest
   first, compared lexicographically; the bye counts as a game against a player one point below
   the lowest score;
3. the fewest soft-forbidden couples (same club or family when the event only discourages it);
4. the fewest floaters (games between different scores);
5. the fewest repeated floats, in FIDE's order: downfloaters (the pairing bye included) who
   floated down last round (``last_float``), upfloaters who floated up last round, then the same
   two rounds back (``prior_float``); then the bye to the lowest-ranked player of its tier;
6. the nearest to the Dutch order inside each score group: top half against bottom half
   (1 v n/2+1, ...), a floater against the top of the group below.

Requested byes are set aside first and never count as pairing byes. A round a player did not
play is a downfloat in their history; the caller builds that history.

How: a fast Dutch pass pairs each score group from the top (floaters from above meet the highest
compatible residents, then S1 meets S2 with the nearest transposition on a conflict). For fields
of at most ``FULL_MATCHING_LIMIT`` players the whole field is then paired exactly, unless the
fast pass is already perfect (nothing in criteria 2-6 to improve): a maximum-weight matching
(:mod:`.matching`) whose edge weights are digits in a large base, one digit (or one digit per
score gap, for the PSD) per criterion, so a higher criterion always outweighs everything below
it; in an odd field a bye vertex in the same matching chooses the bye with the pairing. Above
that size the fast pass stands where it is clean, and the score groups where it went wrong are
re-paired by the same exact matching on growing windows until everybody is paired.
Because the last window is the whole field, a pairing is found whenever one exists; otherwise
:class:`PairingError` says why.

The package: :mod:`.model` (the snapshots in and the pairing out), :mod:`.pairing`
(:func:`pair_swiss`, :func:`pairing_score_difference`) and :mod:`.solver` (the search). Import
from ``competition.swiss``.
"""

from __future__ import annotations

from .model import (
    ClubRule,
    Float,
    ForbiddenPair,
    PairingError,
    PairingErrorCode,
    Score,
    Seat,
    SwissBye,
    SwissConfig,
    SwissPairing,
    SwissPlayer,
    Table,
)
from .pairing import pair_swiss, pairing_score_difference
from .solver import FULL_MATCHING_LIMIT

__all__ = [
    "FULL_MATCHING_LIMIT",
    "ClubRule",
    "Float",
    "ForbiddenPair",
    "PairingError",
    "PairingErrorCode",
    "Score",
    "Seat",
    "SwissBye",
    "SwissConfig",
    "SwissPairing",
    "SwissPlayer",
    "Table",
    "pair_swiss",
    "pairing_score_difference",
]
