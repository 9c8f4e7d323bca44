"""Writes for matches, hands, confirmation, corrections, score sheets and imports.

Every service validates, writes inside ``transaction.atomic`` with the match row locked (so the
engine's view of a match never changes under a writer), and tells the organiser
(:mod:`scoring.organiser`; tournaments bumps the event's results sequence) once, at its end,
inside the same transaction, whatever it stored, confirmed, closed or re-opened
(:class:`~scoring.organiser.ResultChanges`). What it needs of an event it reads from the
event's terms (:class:`~scoring.organiser.EventTerms`), never from the event's row. Entered
results are append-only: a submission is a new row, a correction a new version; only a
submission's status moves (pending → confirmed / withdrawn / superseded), and each move is kept
in its history with who made it and from where.

The engine is the single source of truth for every point: hands are scored with
:mod:`engine.scoring` / :mod:`engine.rummy` when entered (the verdict is stored with the entry)
and games with :func:`scoring.selectors.match_state`, never here.

Decisions:

- One open hand per game: the next hand can be entered only once the previous one is confirmed
  (the engine needs the confirmed hands to know dealer, roles and who sits out).
- Confirmation policy (``Event.confirmation``): ``none`` confirms at once; ``opponent`` needs a
  player of the other side (either player of the other team in a partnership; any player if a
  director entered it) or a director not seated at the match; ``director`` needs a director not
  seated at the match. The two-person rule holds over every identity an actor holds at once (an
  account seat and a seat link): nobody confirms, disputes or withdraws-and-re-enters around
  their own entry. The table link (no seat) lets a shared phone act for the player it names
  (``as_position``), but only for a holder with no seat of their own at the match: that is how an
  entry is confirmed on the same phone after hand-over; the history shows both actions came from
  the same device.
- Disputes: the other side may dispute a waiting entry with a reason; it is then not counted
  until its submitter withdraws it (and enters the hand again) or a director not seated at the
  match settles it (confirms it, or overrides it with a reason).
- A director's correction (override) supersedes the hand's confirmed (or pending) version and
  confirms a new one; the match is re-scored from its confirmed hands. A correction that would
  make a later confirmed hand impossible (the game now ends before it, the sitter would have
  won it, a later game was started before this one ended) is refused with 409: the director
  corrects the later hands first, from the last one back. A game that a correction re-opens is
  marked playing again (and the match too); an empty later game that is no longer needed is
  removed.
- A correction that re-opens a finished match or changes its winner asks
  the organiser's ``match_result_change_allowed`` first (it refuses with 409 when a later
  bracket match was already played with the old winner) and, once stored, tells
  its ``match_result_changed`` (the bracket's next match gets the right player, ratings are redone).
- Winners are seat positions, except in a partnership, where the engine's side is a team:
  ``Game.winner_team`` / ``Match.winner_team`` hold it (``winner_position`` and ``winner`` stay
  empty) and a partnership hand's verdict carries ``winner_team`` (its ``winner`` is the same
  team index, as the API's ``sides`` number them).
- A paper score sheet (a whole game) is entered confirmed at once when a director enters it (the
  sheet is signed by both players) or when the event needs no confirmation; players enter hand
  by hand otherwise. CSV imports are for directors and are stored confirmed.

The package: :mod:`~scoring.services.entries` (a hand as entered and its scoring by the engine),
:mod:`~scoring.services.matches` (starting a match, syncing its games and result),
:mod:`~scoring.services.hands` (submit, confirm, withdraw, correct),
:mod:`~scoring.services.sheets` (a whole paper score sheet),
:mod:`~scoring.services.imports` (CSV import),
:mod:`~scoring.services.stands` (closing a match as it stands at time) and
:mod:`~scoring.services.links` (private links); ``common`` holds the write helpers they share.
"""

from scoring.services.entries import (
    DeadHand,
    EntryFamily,
    GemDefenderEntry,
    GemThreeEntry,
    HandEntry,
    PartnershipEntry,
    Prepared,
    RummyEntry,
    TwoPlayerEntry,
    entry_family,
    entry_from_dict,
    hand_prepare,
)
from scoring.services.hands import (
    hand_confirm,
    hand_dispute,
    hand_override,
    hand_submit,
    hand_withdraw,
)
from scoring.services.imports import CSV_COLUMNS, ImportReport, RowProblem, csv_import
from scoring.services.links import match_keys_ensure, match_link_token, match_links_reissue
from scoring.services.matches import match_start, match_sync
from scoring.services.sheets import scoresheet_submit
from scoring.services.stands import match_close_as_it_stands

__all__ = [
    "CSV_COLUMNS",
    "DeadHand",
    "EntryFamily",
    "GemDefenderEntry",
    "GemThreeEntry",
    "HandEntry",
    "ImportReport",
    "PartnershipEntry",
    "Prepared",
    "RowProblem",
    "RummyEntry",
    "TwoPlayerEntry",
    "csv_import",
    "entry_family",
    "entry_from_dict",
    "hand_confirm",
    "hand_dispute",
    "hand_override",
    "hand_prepare",
    "hand_submit",
    "hand_withdraw",
    "match_close_as_it_stands",
    "match_keys_ensure",
    "match_link_token",
    "match_links_reissue",
    "match_start",
    "match_sync",
    "scoresheet_submit",
]
