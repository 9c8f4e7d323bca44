"""A two-player hand entered by cards: arrange, check the knock, lay off, decide and score.

:func:`score_hand` reads both hands (notation or card ids), validates the knocker's melds or takes
the knocker's best choice (docs/rules.md §3.2), lays off, and scores with the rules of
:mod:`engine.scoring.two_player`; with a deck map it plays Gem's extra melds and gem parts bonus.
:func:`check_knock_discard` refuses a knock that discards the card taken from the discard pile.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from engine.arrange import best_arrangement
from engine.cards import cards_to_mask, check_card, format_card, parse_card, parse_cards
from engine.errors import (
    CardError,
    KnockError,
    MeldError,
    Message,
    Param,
    RuleError,
    ScoreError,
    gettext_noop,
    joined,
)
from engine.gem import (
    DeckMap,
    check_gem_meld,
    gem_knocker_choice,
    gem_melds,
    has_all_gems,
    lay_off_in_turn,
)
from engine.layoff import LayoffResult, choose_layoffs, lay_off, validate_knocker_melds
from engine.melds import Meld
from engine.rules import RuleSet
from engine.scoring.outcome import HandResult, Role, role_text, shown_text
from engine.scoring.two_player import (
    build_result,
    decide_outcome,
    hand_knock_limit,
    knock_limit_text,
)

__all__ = ["check_knock_discard", "score_hand"]

CardsIn = str | Iterable[str] | Iterable[int]
MeldsIn = str | Sequence[Meld | str | Sequence[str] | Sequence[int]]


def _id_mask(cards: Sequence[object]) -> int:
    """The mask of ``cards`` when they are distinct card ids (ints 0-51), else -1."""
    try:
        mask = cards_to_mask(cards)  # type: ignore[arg-type]
    except CardError:
        return -1
    return mask if mask.bit_count() == len(cards) else -1


def _read_hand(
    label: Role, cards: CardsIn, counts: Sequence[int], note: Param = ""
) -> tuple[tuple[int, ...], int]:
    """The cards of one hand, read and checked, and their mask."""
    mask = -1
    try:
        if isinstance(cards, str):
            hand = parse_cards(cards)
        elif isinstance(cards, (list, tuple)) and (mask := _id_mask(cards)) >= 0:
            hand = tuple(map(int, cards))  # the fast path: what the loop below would return
        else:
            items = list(cards)
            if all(isinstance(c, str) for c in items):
                hand = parse_cards([str(c) for c in items])
            else:
                hand = parse_cards([format_card(c) for c in items if isinstance(c, int)])
                if len(hand) != len(items):
                    raise CardError(
                        gettext_noop("Cards must all be notation strings or all card ids")
                    )
    except CardError as exc:
        raise CardError(
            gettext_noop("{label}: {reason}"), label=role_text(label), reason=exc.message
        ) from None
    if len(hand) not in counts:
        raise CardError(
            gettext_noop("{label}: expected {wanted} cards{note}, got {got}"),
            label=role_text(label),
            wanted=joined(gettext_noop("{first} or {rest}"), counts),
            note=note,
            got=len(hand),
        )
    return hand, mask if mask >= 0 else cards_to_mask(hand)


def _read_upcard(upcard: int | str | None) -> int | None:
    if upcard is None:
        return None
    try:
        return parse_card(upcard) if isinstance(upcard, str) else check_card(upcard)
    except CardError as exc:
        raise CardError(gettext_noop("Upcard: {reason}"), reason=exc.message) from None


def _read_melds(
    melds: MeldsIn, candidates: Sequence[Meld], deck_map: DeckMap | None, diamond: int | None
) -> tuple[Meld, ...]:
    groups: list[Meld | str | Sequence[str] | Sequence[int]]
    groups = [g for g in melds.split("|") if g.strip()] if isinstance(melds, str) else list(melds)
    out: list[Meld] = []
    by_cards = {meld.cards: meld for meld in candidates}
    for group in groups:
        if isinstance(group, Meld):
            meld = group
        else:
            tokens = (
                group
                if isinstance(group, str)
                else [t if isinstance(t, str) else format_card(t) for t in group]
            )
            cards = tuple(sorted(parse_cards(tokens)))
            meld = by_cards[cards] if cards in by_cards else Meld.from_cards(cards)
        check_gem_meld(meld, deck_map, diamond)
        out.append(meld)
    return tuple(out)


def score_hand(
    rules: RuleSet,
    *,
    knocker_cards: CardsIn,
    defender_cards: CardsIn,
    knocker_melds: MeldsIn | None = None,
    upcard: int | str | None = None,
    knock_limit: int | None = None,
    diamond_number: int | None = None,
    deck_map: DeckMap | None = None,
    taken_from_discard: int | str | None = None,
) -> HandResult:
    """Score a hand entered by cards: arrange, check the knock, lay off, decide and score.

    ``knocker_cards`` are the knocker's cards after the discard (``hand_size``), or after the draw
    for big gin (one more). ``knocker_melds`` (``"AS 2S 3S | 7H 7D 7C"`` or a list of melds) are
    validated and used; without them the engine takes the knocker's best choice (docs/rules.md
    §3.2). ``taken_from_discard`` (optional) is the card the knocker took from the discard pile on
    the knocking turn; see :func:`check_knock_discard`.

    >>> from engine.rules import find_rules
    >>> r = score_hand(find_rules("standard"),
    ...                knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
    ...                defender_cards="8H 9H KS KH KD 2C 3C QS JD 5C")
    >>> r.outcome.value, r.knocker_deadwood, r.defender_deadwood, r.points  # 30 - 10
    ('knock', 10, 30, 20)
    >>> print(r.explain())
    Knocker (chosen by the engine): melds AS 2S 3S | 5H 6H 7H | 9S 9D 9C; deadwood KC
    Defender: melds KS KH KD; deadwood QS JD 2C 3C 5C
    Lay-offs: 8H on 5H 6H 7H; 9H on 9S 9D 9C
    Deadwood: knocker 10, defender 30 (47 before lay-offs); knock limit 10
    Knock: knocker scores defender 30 − knocker 10 = 20
    """
    if rules.family == "rummy":
        raise RuleError(
            gettext_noop("Basic Rummy hands are scored with engine.rummy.score_rummy_hand")
        )
    gem = rules.family == "gem"
    if gem and deck_map is None:
        raise ScoreError(
            gettext_noop(
                "Gem Rummy hands are scored by cards only with the club's deck map;"
                " without one, enter the hand by counts"
            )
        )
    if gem and diamond_number is None:
        raise ScoreError(
            gettext_noop("Gem Rummy needs the diamond number (1-6) entered with the hand")
        )
    if not gem and (deck_map is not None or diamond_number is not None):
        raise RuleError(
            gettext_noop("A deck map and a diamond number belong to Gem Rummy hands only")
        )
    up = _read_upcard(upcard)
    limit = hand_knock_limit(rules, upcard=up, knock_limit=knock_limit)
    size = rules.hand_size
    sizes = (size, size + 1) if rules.big_gin else (size,)
    note: Param = ""
    if rules.big_gin:
        note = Message(gettext_noop(" ({count} only for big gin)"), count=size + 1)
    knocker, knocker_mask = _read_hand("knocker", knocker_cards, sizes, note)
    defender, defender_mask = _read_hand("defender", defender_cards, (size,))
    both = knocker_mask & defender_mask
    if both:
        raise CardError(
            gettext_noop("Card {card} is in both the knocker's and the defender's hand"),
            card=format_card((both & -both).bit_length() - 1),
        )
    taken = check_knock_discard(knocker, defender, taken_from_discard)
    knocker_extra: tuple[Meld, ...] = ()
    defender_extra: tuple[Meld, ...] = ()
    if deck_map is not None:
        knocker_extra = gem_melds(knocker, deck_map, diamond_number)
        defender_extra = gem_melds(defender, deck_map, diamond_number)
    given = knocker_melds is not None
    layoffs: LayoffResult | None = None
    if knocker_melds is not None:
        try:
            melds = _read_melds(knocker_melds, knocker_extra, deck_map, diamond_number)
            arrangement = validate_knocker_melds(knocker, melds)
        except (CardError, MeldError) as exc:
            raise MeldError(gettext_noop("Knocker's melds: {reason}"), reason=exc.message) from None
    elif deck_map is not None:
        arrangement, (layoffs,) = gem_knocker_choice(knocker, [defender], deck_map, diamond_number)
    else:
        arrangement, layoffs = choose_layoffs(
            knocker_mask, defender_mask, knocker_extra, defender_extra
        )
    k = arrangement.deadwood
    big = len(knocker) == size + 1
    better: Param = ""
    if k > limit or (big and k):  # only the errors below show the arrangements
        shown = shown_text(arrangement.melds, arrangement.deadwood_cards)
    if given and (k > limit or (big and k)):
        best = best_arrangement(knocker, extra_melds=knocker_extra)
        if k != best.deadwood:
            better = Message(
                gettext_noop("; the best arrangement leaves {deadwood}: {shown}"),
                deadwood=best.deadwood,
                shown=shown_text(best.melds, best.deadwood_cards),
            )
    if big and k:
        raise KnockError(
            gettext_noop(
                "{count} cards are entered only for big gin, but they are not all melded:"
                " deadwood {deadwood} ({shown}{better}); enter the {size} cards left after the"
                " discard"
            ),
            count=len(knocker),
            deadwood=k,
            shown=shown,
            better=better,
            size=size,
        )
    if k > limit:
        raise KnockError(
            gettext_noop(
                "Knock over the limit: deadwood {deadwood} > {limit}"
                " ({shown}{better}; {limit_text})"
            ),
            deadwood=k,
            limit=limit,
            shown=shown,
            better=better,
            limit_text=knock_limit_text(rules, limit, up),
        )
    allow = k > 0
    if layoffs is None and deck_map is not None:
        (layoffs,) = lay_off_in_turn(
            arrangement.melds, [defender], deck_map, diamond_number, allow_layoffs=allow
        )
    elif layoffs is None:
        layoffs = lay_off(
            arrangement.melds, defender, allow_layoffs=allow, defender_extra=defender_extra
        )
    d = layoffs.deadwood
    outcome = decide_outcome(rules, k, d, big)
    gem_k = gem_d = 0
    if deck_map is not None:
        gem_k = rules.gem_bonus_knocker if has_all_gems(knocker, deck_map) else 0
        gem_d = rules.gem_bonus_other if has_all_gems(defender, deck_map) else 0
    return build_result(
        rules,
        outcome,
        k,
        d,
        limit=limit,
        upcard=up,
        defender_deadwood_without_layoffs=layoffs.deadwood_without_layoffs,
        knocker_cards=knocker,
        defender_cards=defender,
        knocker_melds=arrangement.melds,
        knocker_deadwood_cards=arrangement.deadwood_cards,
        knocker_melds_given=given,
        defender_melds=layoffs.defender_melds,
        defender_deadwood_cards=layoffs.deadwood_cards,
        layoffs=layoffs.layoffs,
        gem_bonus_knocker=gem_k,
        gem_bonus_defender=gem_d,
        by_cards=True,
        taken_from_discard=taken,
    )


def check_knock_discard(
    knocker: Sequence[int], defender: Sequence[int], taken: int | str | None
) -> int | None:
    """The card the knocker took from the discard pile, checked against the knock (or ``None``).

    A card taken from the discard pile may not be discarded on the same turn (seed 000, and seed
    004 for the knock discard itself), so it cannot be the knocker's discard. In gin rummy nothing
    is put on the table during play, so the card taken is either still among the knocker's cards
    entered after the discard, or it was the discard: a taken card missing from the knocker's
    cards means the knock discarded it, and the knock is refused. For big gin (no discard) the card
    has to be among the cards entered. It can never be in the defender's hand.

    >>> check_knock_discard(parse_cards("AS 2S 3S"), parse_cards("KD"), "2S")
    1
    >>> check_knock_discard(parse_cards("AS 2S 3S"), parse_cards("KD"), "7H")
    Traceback (most recent call last):
    ...
    engine.errors.KnockError: Knock refused: the knocker took 7H from the discard pile this turn and may not discard it on the same turn
    """  # noqa: E501
    if taken is None:
        return None
    try:
        card = parse_card(taken) if isinstance(taken, str) else check_card(taken)
    except CardError as exc:
        raise CardError(
            gettext_noop("The card taken from the discard pile: {reason}"), reason=exc.message
        ) from None
    if card in defender:
        raise CardError(
            gettext_noop(
                "The knocker took {card} from the discard pile, so it cannot be in the"
                " defender's hand"
            ),
            card=format_card(card),
        )
    if card not in knocker:
        raise KnockError(
            gettext_noop(
                "Knock refused: the knocker took {card} from the discard pile this turn and may"
                " not discard it on the same turn"
            ),
            card=format_card(card),
        )
    return card
