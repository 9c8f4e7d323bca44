"""What the Swiss pairer takes and gives: frozen player snapshots, constraints, the pairing.

Part of :mod:`competition.swiss`; plain data, no pairing logic.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Literal, TypeAlias

__all__ = [
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
]

Score: TypeAlias = float | Fraction
"""A score: an ``int``, ``float`` or exact :class:`~fractions.Fraction` (half points stay exact)."""

PairingErrorCode: TypeAlias = Literal["player_blocked", "no_pairing"]
"""Why a round cannot be paired, for a caller that words the reason itself (in another language):

- ``player_blocked``: one player has played, or may not play, everyone else present
  (``params["player"]`` is their id);
- ``no_pairing``: no player alone is the reason, the field as a whole cannot be paired
  (``params["players"]`` is the number of players to pair).
"""


class PairingError(ValueError):
    """No pairing of the round avoids every rematch and hard-forbidden pair.

    ``str()`` is the English reason; ``code`` and ``params`` say the same as data, so that a
    caller can put it in its user's language.

    >>> err = PairingError("no pairing", code="no_pairing", params={"players": 4})
    >>> (str(err), err.code, err.params)
    ('no pairing', 'no_pairing', {'players': 4})
    """

    def __init__(self, message: str, *, code: PairingErrorCode, params: dict[str, int]) -> None:
        super().__init__(message)
        self.code: PairingErrorCode = code
        self.params = params


class Seat(Enum):
    """Which side of the table a player had: ``FIRST`` deals (or moves) first in game one."""

    FIRST = "first"
    SECOND = "second"


class Float(Enum):
    """The way a player floated in a round: ``DOWN`` met a lower score, or did not play at all
    (any bye, a forfeit won or lost, an absence: FIDE C.04.3 A.4.b), ``UP`` met a higher score."""

    DOWN = "down"
    UP = "up"


class ClubRule(Enum):
    """Whether players of the same club (or family group) may meet."""

    ALLOW = "allow"
    SOFT = "soft"
    HARD = "hard"


@dataclass(frozen=True, slots=True)
class SwissPlayer:
    """One checked-in player as the pairer needs them; ``seed`` 1 is the strongest.

    ``opponents`` are the players actually met (forfeited games left out), ``forfeit_wins`` the
    games won without playing, ``last_float`` the way they floated in the previous round and
    ``prior_float`` the way they floated in the round before that. A round the player did not
    play (any kind of bye, a forfeit won or lost, an absence) is a ``Float.DOWN``: the caller
    says so, the pairer only reads the two fields.
    """

    id: int
    score: Score = 0
    rating: float = 0.0
    seed: int = 0
    opponents: frozenset[int] = frozenset()
    byes: int = 0
    seats: tuple[Seat, ...] = ()
    requests_bye: bool = False
    club: int | None = None
    forfeit_wins: int = 0
    last_float: Float | None = None
    prior_float: Float | None = None


@dataclass(frozen=True, slots=True)
class ForbiddenPair:
    """Two players who must not (``hard``) or should not (soft) be paired this round."""

    a: int
    b: int
    hard: bool = True


@dataclass(frozen=True, slots=True)
class SwissConfig:
    """Event-level pairing choices.

    ``order_by`` ranks players inside a score group (and the whole field in round 1): by rating
    (then seed) or by seed alone. Bye points are echoed in the result so the caller records them
    from one place.
    """

    order_by: Literal["rating", "seed"] = "rating"
    same_club: ClubRule = ClubRule.ALLOW
    pairing_bye_points: Score = 1
    requested_bye_points: Score = 0


@dataclass(frozen=True, slots=True)
class Table:
    """One game of the round: ``first`` takes the first seat."""

    number: int
    first: int
    second: int


@dataclass(frozen=True, slots=True)
class SwissBye:
    """A player who does not play this round, and the points the bye is worth."""

    player: int
    points: Score
    requested: bool


@dataclass(frozen=True, slots=True)
class SwissPairing:
    """The pairing of one round.

    ``soft_conflicts`` lists soft-forbidden couples that had to be paired anyway; ``used_matching``
    tells whether the exact matcher was needed (useful when explaining a surprising pairing);
    ``floats`` says who floated this round and which way, in table order, the bye last.
    """

    tables: tuple[Table, ...]
    byes: tuple[SwissBye, ...]
    soft_conflicts: tuple[tuple[int, int], ...] = ()
    used_matching: bool = False
    floats: tuple[tuple[int, Float], ...] = ()

    @property
    def pairs(self) -> tuple[tuple[int, int], ...]:
        """The games as ``(first, second)`` id pairs, in table order."""
        return tuple((t.first, t.second) for t in self.tables)

    @property
    def bye(self) -> int | None:
        """The player given the pairing bye (not a requested one), if the field was odd."""
        return next((b.player for b in self.byes if not b.requested), None)
