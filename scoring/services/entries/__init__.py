"""A hand as entered (:data:`HandEntry`) and its scoring by the engine (:func:`hand_prepare`).

:data:`HandEntry` is a tagged union, one frozen dataclass per family (:class:`TwoPlayerEntry`,
:class:`DeadHand`, :class:`PartnershipEntry`, :class:`GemThreeEntry` with its
:class:`GemDefenderEntry`, :class:`RummyEntry`), read by :func:`entry_from_dict` from an API body,
a page form or a CSV row: a field that does not apply to the family cannot be given.

No writes: :func:`hand_prepare` checks an entry against the hand the match is at and returns it
scored (:class:`Prepared`, the verdict stored with the submission); engine errors become the one
application error, naming the field they are about.

The package: :mod:`~.kinds` (the entry kinds and reading them), :mod:`~.verdicts` (what every
family's scoring shares), and one module per family: :mod:`~.two_player` (two players and
partnership boards), :mod:`~.gem_three` (three-player Gem Rummy), :mod:`~.rummy`.
"""

from __future__ import annotations

from scoring.selectors import HandContext, MatchState
from scoring.services.entries.gem_three import prepare_gem_three
from scoring.services.entries.kinds import (
    ENTRY_KINDS,
    DeadHand,
    EntryFamily,
    GemDefenderEntry,
    GemThreeEntry,
    HandEntry,
    PartnershipEntry,
    Prepared,
    RummyEntry,
    TwoPlayerEntry,
    build_entry,
    entry_family,
    entry_from_dict,
)
from scoring.services.entries.rummy import prepare_rummy
from scoring.services.entries.two_player import prepare_partnership, prepare_two

__all__ = [
    "DeadHand",
    "EntryFamily",
    "GemDefenderEntry",
    "GemThreeEntry",
    "HandEntry",
    "PartnershipEntry",
    "Prepared",
    "RummyEntry",
    "TwoPlayerEntry",
    "entry_family",
    "entry_from_dict",
    "hand_prepare",
]


def hand_prepare(*, state: MatchState, context: HandContext, entry: HandEntry) -> Prepared:
    """Score ``entry`` with the engine for the hand described by ``context`` (no writes).

    ``entry`` is read again as the kind of entry the match's family takes: an entry of another
    kind whose fields all fit is taken, and a field that does not apply is refused, named.
    """
    family = entry_family(rules=state.rules, seats=len(state.seats))
    if isinstance(entry, DeadHand) and family != "rummy":
        if family == "partnership":
            return prepare_partnership(state, context, entry)
        return prepare_two(state, context, TwoPlayerEntry(outcome="dead", upcard=entry.upcard))
    kind = ENTRY_KINDS[family]
    read = entry if isinstance(entry, kind) else build_entry(kind, entry.given(), "")
    if isinstance(read, RummyEntry):
        return prepare_rummy(state, context, read)
    if isinstance(read, PartnershipEntry):
        return prepare_partnership(state, context, read)
    if isinstance(read, GemThreeEntry):
        return prepare_gem_three(state, context, read)
    assert isinstance(read, TwoPlayerEntry)
    return prepare_two(state, context, read)
