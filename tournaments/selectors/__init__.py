"""Reads for tournaments: snapshots for the pure algorithms, standings, brackets and leagues.

Selectors turn stored rows into the frozen dataclasses of ``competition`` (never model
instances) and shape what the API and pages show. They never write. Match points, byes, walkovers
and late entries are translated here, in one place, into the algorithms' records:

- a win is worth ``win_points`` (1), a draw half of it, a loss 0;
- a walkover is a win for the player who was there and a loss for the other, unplayed;
- both players forfeiting scores 0 for both, unplayed;
- a pairing bye scores ``bye_points`` (1), a requested bye ``requested_bye_points`` (0);
- a late entry's missed rounds score ``late_entry_points`` (0), unplayed.

A result is *final* when ``Match.status == "finished"``; a match still being played counts for
nothing. Game points are the net sum of game margins (a game won adds its margin, a game lost
subtracts it). Hands won and gins come from confirmed hand submissions.

The package: :mod:`~tournaments.selectors.options` (event options and tie-break orders),
:mod:`~tournaments.selectors.results` (match records and the results snapshot),
:mod:`~tournaments.selectors.standings` (computed and stored standings, league tables),
:mod:`~tournaments.selectors.pairing` (pairing input), :mod:`~tournaments.selectors.brackets`,
:mod:`~tournaments.selectors.lists` (what the API and pages list) and
:mod:`~tournaments.selectors.console` (the director's console of a round).
"""

from tournaments.selectors.brackets import (
    BracketNext,
    BracketSnapshot,
    bracket_next,
    bracket_pending,
    event_bracket,
    event_bracket_snapshot,
    event_bracket_structure,
)
from tournaments.selectors.console import (
    ConsoleRound,
    ConsoleState,
    ConsoleTable,
    event_console,
)
from tournaments.selectors.lists import (
    PlayerMatch,
    club_feed_list,
    event_active_players,
    event_forbidden_pairings,
    event_list,
    event_matches,
    event_present_players,
    event_round,
    event_rounds,
    event_takes_entries,
    player_matches,
    registration_list,
    round_has_results,
    round_matches,
)
from tournaments.selectors.options import (
    DEFAULT_TIEBREAKS,
    TIEBREAK_CHOICES,
    event_option,
    event_options,
    event_tiebreak_order,
)
from tournaments.selectors.pairing import (
    SwissInput,
    event_pairing_registrations,
    event_table_history,
    seeded_registrations,
    swiss_input,
)
from tournaments.selectors.results import (
    GIN_OUTCOMES,
    MatchRecord,
    ResultsSnapshot,
    event_match_records,
    event_results_snapshot,
)
from tournaments.selectors.standings import (
    EventStandings,
    StandingLine,
    event_standings,
    league_results_seq,
    league_table,
    standings_compute,
)

__all__ = [
    "DEFAULT_TIEBREAKS",
    "GIN_OUTCOMES",
    "TIEBREAK_CHOICES",
    "BracketNext",
    "BracketSnapshot",
    "ConsoleRound",
    "ConsoleState",
    "ConsoleTable",
    "EventStandings",
    "MatchRecord",
    "PlayerMatch",
    "ResultsSnapshot",
    "StandingLine",
    "SwissInput",
    "bracket_next",
    "bracket_pending",
    "club_feed_list",
    "event_active_players",
    "event_bracket",
    "event_bracket_snapshot",
    "event_bracket_structure",
    "event_console",
    "event_forbidden_pairings",
    "event_list",
    "event_match_records",
    "event_matches",
    "event_option",
    "event_options",
    "event_pairing_registrations",
    "event_present_players",
    "event_results_snapshot",
    "event_round",
    "event_rounds",
    "event_standings",
    "event_table_history",
    "event_takes_entries",
    "event_tiebreak_order",
    "league_results_seq",
    "league_table",
    "player_matches",
    "registration_list",
    "round_has_results",
    "round_matches",
    "seeded_registrations",
    "standings_compute",
    "swiss_input",
]
