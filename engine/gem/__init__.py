"""Gem Rummy's extra data, melds and lay-offs (docs/rules.md §8, seed 003): the deck map, vaults,
Queen's Diamond, lay-offs for two and three players, gem bonus.

Which gem a card carries is printed on the commercial deck and is club data, so it comes in as a
:class:`DeckMap`. This module turns a deck map into the extra meld candidates that
:mod:`engine.arrange` searches over, checks Gem melds a player declares, lays off for Gem hands
(:func:`lay_off_in_turn`: vaults take further cards of their gem, and three players lay off in
turn one card at a time) and decides the gem parts bonus. It must not score hands (that is
:mod:`engine.scoring`).

Decisions where the seed is silent:

- The dice are six-sided: the knock-limit die and the diamond number are 1-6, and the diamond
  number names the diamond of that rank (1 = A♦ .. 6 = 6♦).
- A deck map gives every one of the 52 cards; a king carries exactly two gems, every other card
  one; there are exactly eight gems in all.
- A king in a vault stands for one of its gems; for the gem bonus a king counts as one of its two
  gems (whichever completes the eight), never both.
- A vault takes lay-offs of any card carrying a gem that all its cards carry; a Queen's Diamond
  takes none (the seed defines it as exactly two cards).
- Three players lay off in turn: see :func:`lay_off_in_turn` for the order and how ties are read.

The package: :mod:`~engine.gem.deck` (the deck map, Gem melds, the gem bonus) and
:mod:`~engine.gem.layoffs` (lay-offs in turn, the knocker's choice). Import from ``engine.gem``.
"""

from engine.gem.deck import (
    GEM_COUNT,
    DeckMap,
    check_gem_meld,
    diamond_card,
    gem_melds,
    has_all_gems,
    vault_gems,
)
from engine.gem.layoffs import gem_knocker_choice, lay_off_in_turn

__all__ = [
    "GEM_COUNT",
    "DeckMap",
    "check_gem_meld",
    "diamond_card",
    "gem_knocker_choice",
    "gem_melds",
    "has_all_gems",
    "lay_off_in_turn",
    "vault_gems",
]
