"""Knock's game engine: pure rules for gin rummy and its family (no Django, no I/O).

Cards are ints 0-51 and hands are 52-bit masks (:mod:`engine.cards`); melds and the per-suit
tables live in :mod:`engine.melds`; best arrangements in :mod:`engine.arrange`, the best discard in
:mod:`engine.discard`;
lay-offs and the knocker's choice in :mod:`engine.layoff`. Rule sets, hand and game scoring build
on those (:mod:`engine.rules`, :mod:`engine.scoring`, :mod:`engine.game`).

>>> from engine import best_arrangement, parse_cards
>>> best_arrangement(parse_cards("9S KS 9H KH 9D KD 4C 5C 6C 7C")).is_gin
True
"""

from engine.arrange import (
    Arrangement,
    all_best_arrangements,
    best_arrangement,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.cards import (
    RANKS,
    SUITS,
    card_value,
    cards_to_mask,
    check_card,
    format_card,
    format_cards,
    hand_value,
    mask_to_cards,
    parse_card,
    parse_cards,
    sort_cards,
    suit_symbol,
)
from engine.discard import DiscardResult, best_discard
from engine.errors import CardError, EngineError, KnockError, MeldError, RuleError, ScoreError
from engine.layoff import Layoff, LayoffResult, knocker_choice, lay_off, validate_knocker_melds
from engine.melds import ALL_MELDS, Meld, MeldKind

# isort: split
# Rule sets, hand scoring and game scoring, built on the names above.
from engine.game import GameResult, score_game
from engine.rules import RULE_PRESETS, RuleSet, find_rules
from engine.scoring import HandOutcome, HandResult, score_hand

__all__ = [
    "ALL_MELDS",
    "RANKS",
    "RULE_PRESETS",
    "SUITS",
    "Arrangement",
    "CardError",
    "DiscardResult",
    "EngineError",
    "GameResult",
    "HandOutcome",
    "HandResult",
    "KnockError",
    "Layoff",
    "LayoffResult",
    "Meld",
    "MeldError",
    "MeldKind",
    "RuleError",
    "RuleSet",
    "ScoreError",
    "all_best_arrangements",
    "best_arrangement",
    "best_discard",
    "card_value",
    "cards_to_mask",
    "check_card",
    "find_rules",
    "format_card",
    "format_cards",
    "hand_value",
    "knocker_choice",
    "lay_off",
    "mask_to_cards",
    "min_deadwood",
    "min_deadwood_after_discard",
    "parse_card",
    "parse_cards",
    "score_game",
    "score_hand",
    "sort_cards",
    "suit_symbol",
    "validate_knocker_melds",
]
