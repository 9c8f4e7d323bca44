"""Cards: the integer encoding, values, masks, and the notation players type (docs/rules.md §1).

A card is an ``int`` 0-51, ``suit * 13 + rank``: rank 0 is the ace and 12 the king, suits in the
order S H D C. A set of cards is also a 52-bit ``int`` *mask* (bit ``card`` set), one 13-bit block
per suit, which is what the fast meld code works on.

This module owns reading and writing cards; it must not know about melds or rules.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from operator import itemgetter
from typing import Final

from engine.errors import CardError, gettext_noop, joined

__all__ = [
    "DECK",
    "DECK_MASK",
    "RANKS",
    "SUITS",
    "SUIT_NAMES_KO",
    "SUIT_SYMBOLS",
    "card_rank",
    "card_suit",
    "card_value",
    "cards_to_mask",
    "check_card",
    "format_card",
    "format_cards",
    "hand_value",
    "make_card",
    "mask_to_cards",
    "parse_card",
    "parse_cards",
    "sort_cards",
    "suit_symbol",
]

RANKS: Final = "A23456789TJQK"
"""Rank letters, index = rank (0 = ace)."""
SUITS: Final = "SHDC"
"""Suit letters, index = suit."""
SUIT_SYMBOLS: Final = "♠♥♦♣"
"""Suit symbols, index = suit."""
DECK: Final = tuple(range(52))
"""Every card, in id order (by suit, then rank)."""
DECK_MASK: Final = (1 << 52) - 1
"""The mask of the full deck."""

_VALUES: Final = tuple(min(card % 13 + 1, 10) for card in range(52))
_VALUES_ACE_HIGH: Final = tuple(
    15 if card % 13 == 0 else value for card, value in enumerate(_VALUES)
)

_RANK_OF: Final = {letter: rank for rank, letter in enumerate(RANKS)} | {"10": 9}
_SUIT_OF: Final = {letter: suit for suit, letter in enumerate(SUITS)} | {
    symbol: suit for symbols in (SUIT_SYMBOLS, "♤♡♢♧") for suit, symbol in enumerate(symbols)
}
SUIT_NAMES_KO: Final = {
    "스페이드": 0,
    "하트": 1,
    "다이아몬드": 2,
    "다이아": 2,
    "클로버": 3,
    "클럽": 3,
}
"""Korean suit names players type (spade, heart, diamond or its short form, club or clover)."""
_SUIT_WORDS: Final = tuple(
    sorted((_SUIT_OF | SUIT_NAMES_KO).items(), key=lambda item: -len(item[0]))
)
"""Every spelling of a suit, the longest first (so 다이아몬드 is tried before 다이아)."""
_SEPARATORS: Final = re.compile(r"[\s,]+")
_VARIATION_SELECTORS: Final = str.maketrans("", "", "\ufe0e\ufe0f")
_NAMES: Final = tuple(RANKS[card % 13] + SUITS[card // 13] for card in DECK)
_SYMBOL_NAMES: Final = tuple(RANKS[card % 13] + SUIT_SYMBOLS[card // 13] for card in DECK)
_CARD_OF: Final = {
    token: _SUIT_OF[suit_text.upper()] * 13 + _RANK_OF[rank_text.upper()]
    for rank_text in (*RANKS, *RANKS.lower(), "10")
    for suit_text in (*SUITS, *SUITS.lower(), *_SUIT_OF)
    for token in (rank_text + suit_text, suit_text + rank_text)
}
"""Every token :func:`_parse_token` reads that needs no stripping, folding or clean-up."""


def check_card(card: int) -> int:
    """Return ``card`` if it is a card id (an int 0-51), else raise :class:`CardError` naming it.

    >>> check_card(51)
    51
    """
    if not isinstance(card, int) or isinstance(card, bool) or not 0 <= card < 52:
        raise CardError(
            gettext_noop("{card} is not a card: a card is an integer 0-51"), card=repr(card)
        )
    return card


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (0 = ace .. 12 = king) and ``suit`` (0-3 for S H D C).

    >>> make_card(9, 2)
    35
    """
    if not (0 <= rank < 13 and 0 <= suit < 4):
        raise CardError(
            gettext_noop("No card has rank {rank} and suit {suit}"), rank=rank, suit=suit
        )
    return suit * 13 + rank


def card_rank(card: int) -> int:
    """The rank of ``card``, 0 (ace) to 12 (king).

    >>> card_rank(parse_card("KH"))
    12
    """
    return check_card(card) % 13


def card_suit(card: int) -> int:
    """The suit of ``card``, 0-3 for S H D C.

    >>> card_suit(parse_card("7C"))
    3
    """
    return check_card(card) // 13


def card_value(card: int, *, ace_high: bool = False) -> int:
    """The deadwood value of ``card``: ace 1 (15 when ``ace_high``), 2-9 face, T J Q K 10.

    >>> [card_value(parse_card(t)) for t in ("AS", "7H", "TD", "KC")]
    [1, 7, 10, 10]
    >>> card_value(parse_card("AS"), ace_high=True)
    15
    """
    return (_VALUES_ACE_HIGH if ace_high else _VALUES)[check_card(card)]


def _read(token: str) -> int | None:
    """The card ``token`` spells, rank and suit in either order, or None."""
    text = token.strip().translate(_VARIATION_SELECTORS).upper()
    for word, suit in _SUIT_WORDS:
        if text.endswith(word):
            rank = _RANK_OF.get(text[: -len(word)].strip())
        elif text.startswith(word):
            rank = _RANK_OF.get(text[len(word) :].strip())
        else:
            continue
        if rank is not None:
            return suit * 13 + rank
    return None


def _parse_token(token: str, position: int) -> int:
    """Read one token, naming it and its 1-based ``position`` when it is not a card."""
    card = _read(token)
    if card is None:
        raise CardError(
            gettext_noop(
                "Cannot read card {token} at position {position}: expected a rank"
                " (A 2-9 T/10 J Q K) followed by a suit (S H D C or a suit symbol)"
            ),
            token=repr(token),
            position=position,
        )
    return card


def _bare(token: str) -> str | None:
    """``"rank"`` or ``"suit"`` for a token that is only one of them, else None."""
    text = token.translate(_VARIATION_SELECTORS).upper()
    if text in _RANK_OF:
        return "rank"
    if text in _SUIT_OF or text in SUIT_NAMES_KO:
        return "suit"
    return None


def _joined(tokens: list[str]) -> list[str]:
    """``tokens`` with a bare suit and a bare rank next to each other read as one card
    ("스페이드 A", "10 ♥"), as a player says it aloud."""
    out: list[str] = []
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if index + 1 < len(tokens):
            kinds = {_bare(token), _bare(tokens[index + 1])}
            if kinds == {"rank", "suit"}:
                out.append(token + tokens[index + 1])
                index += 2
                continue
        out.append(token)
        index += 1
    return out


def parse_card(token: str) -> int:
    """Read one card in any notation of docs/rules.md §1 (case-insensitive).

    >>> [parse_card(t) for t in ("AS", "10h", "Td", "K♣", "q♡", "H10", "♠a", "하트K", "다이아 7")]
    [0, 22, 35, 51, 24, 22, 0, 25, 32]
    >>> parse_card("1S")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    engine.errors.CardError: Cannot read card '1S' at position 1: expected a rank (A 2-9 T/10 J ...
    """
    return _parse_token(token, 1)


def _count_error(expected: Collection[int], got: int) -> CardError:
    """The error for a hand of ``got`` cards where one of ``expected`` counts was required."""
    wanted = joined(gettext_noop("{first} or {rest}"), sorted(expected))
    return CardError(gettext_noop("Expected {wanted} cards, got {got}"), wanted=wanted, got=got)


def parse_cards(
    text: str | Iterable[str],
    *,
    count: int | None = None,
    counts: Collection[int] | None = None,
) -> tuple[int, ...]:
    """Read a list of cards, keeping their order.

    ``text`` is one string of tokens separated by spaces and/or commas, or an iterable of tokens.
    A card is a rank and a suit in either order; in a string, a suit and a rank written apart
    ("스페이드 A") are one card.
    A card given twice is an error naming it and both positions; ``count`` (or any of ``counts``)
    checks how many cards were given.

    >>> format_cards(parse_cards("AS, 10h td  K♣"))
    'AS TH TD KC'
    >>> format_cards(parse_cards("h10 ts 스페이드 A 클로버 2"))
    'TH TS AS 2C'
    >>> parse_cards(["7c", "8C", "9c"])
    (45, 46, 47)
    >>> parse_cards("AS AS")
    Traceback (most recent call last):
    ...
    engine.errors.CardError: Card AS appears twice (positions 1 and 2)
    >>> parse_cards("AS 2S", count=3)
    Traceback (most recent call last):
    ...
    engine.errors.CardError: Expected 3 cards, got 2
    """
    tokens = [t for t in _SEPARATORS.split(text) if t] if isinstance(text, str) else list(text)
    try:
        found = [_CARD_OF[token] for token in tokens]
    except (KeyError, TypeError):
        pass  # a token needing clean-up, or not a card: the loop below reads or names it
    else:
        if len(set(found)) == len(found):
            if count is not None and len(found) != count:
                raise _count_error((count,), len(found))
            if counts is not None and len(found) not in counts:
                raise _count_error(counts, len(found))
            return tuple(found)
    if isinstance(text, str):
        tokens = _joined(tokens)
    cards: list[int] = []
    seen: dict[int, int] = {}
    for position, token in enumerate(tokens, start=1):
        card = _parse_token(token, position)
        if card in seen:
            raise CardError(
                gettext_noop("Card {card} appears twice (positions {first} and {second})"),
                card=format_card(card),
                first=seen[card],
                second=position,
            )
        seen[card] = position
        cards.append(card)
    if count is not None and len(cards) != count:
        raise _count_error((count,), len(cards))
    if counts is not None and len(cards) not in counts:
        raise _count_error(counts, len(cards))
    return tuple(cards)


def suit_symbol(suit: int) -> str:
    """The symbol of ``suit`` (0-3).

    >>> suit_symbol(1)
    '♥'
    """
    if not 0 <= suit < 4:
        raise CardError(
            gettext_noop("{suit} is not a suit: a suit is 0-3 (S H D C)"), suit=repr(suit)
        )
    return SUIT_SYMBOLS[suit]


def format_card(card: int, *, symbols: bool = False) -> str:
    """The canonical notation of ``card``: rank letter (``T`` for ten) then suit letter or symbol.

    >>> format_card(35), format_card(35, symbols=True)
    ('TD', 'T♦')
    """
    if type(card) is int and 0 <= card < 52:
        return (_SYMBOL_NAMES if symbols else _NAMES)[card]
    suit, rank = divmod(check_card(card), 13)
    return RANKS[rank] + (SUIT_SYMBOLS if symbols else SUITS)[suit]


def format_cards(cards: Iterable[int], *, symbols: bool = False) -> str:
    """Canonical notation of ``cards``, space-separated, in the order given.

    >>> format_cards([51, 0, 35])
    'KC AS TD'
    """
    return " ".join(format_card(card, symbols=symbols) for card in cards)


def sort_cards(cards: Iterable[int]) -> tuple[int, ...]:
    """``cards`` sorted by suit (S H D C), then rank (ace first): the canonical order.

    >>> format_cards(sort_cards(parse_cards("KC AS TD 2S")))
    'AS 2S TD KC'
    """
    return tuple(sorted(check_card(card) for card in cards))


CARD_BIT: Final = {card: 1 << card for card in DECK}
"""Each card's bit in a hand mask."""
BIT_OF: Final = CARD_BIT.__getitem__


def cards_to_mask(cards: Iterable[int]) -> int:
    """The mask of ``cards``; a card given twice is a :class:`CardError` naming it.

    >>> cards_to_mask([0, 13, 51]) == 1 | 1 << 13 | 1 << 51
    True
    """
    if type(cards) is list or type(cards) is tuple:
        # The fast path: bits summed in C. Distinct bits add without a carry, so the sum has one
        # bit per card exactly when no card repeats. Only numbers equal to 0-51 have a bit; their
        # sum is an int only if none is a float, Decimal, Fraction or NumPy number; and a bool
        # can only stand for card 0 or 1, so only the one item equal to each is looked at.
        # (One itemgetter call fetches every bit: cheaper than a call a card through map. It
        # fails on no cards or one, which the loop below then reads.)
        try:
            mask: int = sum(itemgetter(*cards)(CARD_BIT))
        except (KeyError, TypeError):
            pass  # not a card: the loop below names it
        else:
            if (
                mask.bit_count() == len(cards)
                and type(sum(cards)) is int
                and (not mask & 1 or type(cards[cards.index(0)]) is int)
                and (not mask & 2 or type(cards[cards.index(1)]) is int)
            ):
                return mask
    mask = 0
    for card in cards:
        if type(card) is not int or not 0 <= card < 52:  # the fast test; check_card names it
            check_card(card)
        bit = 1 << card
        if mask & bit:
            raise CardError(gettext_noop("Card {card} appears twice"), card=format_card(card))
        mask |= bit
    return mask


def mask_to_cards(mask: int) -> tuple[int, ...]:
    """The cards of ``mask``, in canonical order.

    >>> format_cards(mask_to_cards(cards_to_mask(parse_cards("KC AS TD"))))
    'AS TD KC'
    """
    if not 0 <= mask <= DECK_MASK:
        raise CardError(
            gettext_noop("{mask} is not a card mask: a mask is an integer 0 to 2**52 - 1"),
            mask=repr(mask),
        )
    cards: list[int] = []
    while mask:
        low = mask & -mask
        cards.append(low.bit_length() - 1)
        mask ^= low
    return tuple(cards)


def hand_value(cards: Iterable[int] | int, *, ace_high: bool = False) -> int:
    """The total value of ``cards`` (an iterable of cards, or a mask).

    >>> hand_value(parse_cards("AS TD KC 7H"))
    28
    >>> hand_value(cards_to_mask(parse_cards("AS 2S")), ace_high=True)
    17
    """
    table = _VALUES_ACE_HIGH if ace_high else _VALUES
    if isinstance(cards, int):
        cards = mask_to_cards(cards)
    return sum(table[check_card(card)] for card in cards)
