"""Pure tournament algorithms: Swiss pairing, round robins, brackets and tie-breaks.

The rating arithmetic (Glicko-2, OpenSkill) is :mod:`ratings.algorithms`.

Nothing here imports Django or the tournament app: inputs and outputs are frozen dataclasses
built by the app's selectors, players are opaque integer ids, and every function is
deterministic for a given input, so a round can be re-paired or standings rebuilt at any time.
"""

from .elimination import (
    Bracket,
    BracketError,
    BracketMatch,
    BracketState,
    MatchState,
    MatchStatus,
    Section,
    Slot,
    SlotSource,
    Vacancy,
    bracket_state,
    double_elimination,
    seed_order,
    single_elimination,
)
from .matching import max_weight_matching
from .round_robin import (
    RoundRobinGame,
    RoundRobinRound,
    berger_schedule,
    playoff_seeding,
    snake_groups,
)
from .swiss import (
    FULL_MATCHING_LIMIT,
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
    pair_swiss,
    pairing_score_difference,
)
from .tiebreaks import GameSide, RoundResult, StandingsRow, TieBreak, TieBreakConfig, rank

__all__ = [
    "FULL_MATCHING_LIMIT",
    "Bracket",
    "BracketError",
    "BracketMatch",
    "BracketState",
    "ClubRule",
    "Float",
    "ForbiddenPair",
    "GameSide",
    "MatchState",
    "MatchStatus",
    "PairingError",
    "PairingErrorCode",
    "RoundResult",
    "RoundRobinGame",
    "RoundRobinRound",
    "Score",
    "Seat",
    "Section",
    "Slot",
    "SlotSource",
    "StandingsRow",
    "SwissBye",
    "SwissConfig",
    "SwissPairing",
    "SwissPlayer",
    "Table",
    "TieBreak",
    "TieBreakConfig",
    "Vacancy",
    "berger_schedule",
    "bracket_state",
    "double_elimination",
    "max_weight_matching",
    "pair_swiss",
    "pairing_score_difference",
    "playoff_seeding",
    "rank",
    "seed_order",
    "single_elimination",
    "snake_groups",
]
