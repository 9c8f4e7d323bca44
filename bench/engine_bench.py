"""Benchmark of the engine core against OpenSpiel (C++) and RLCard (Python).

Run from the repository root: ``python -m bench.engine_bench``. Hands come from a fixed seed;
every implementation is timed on the same hands in one run (several repetitions, best taken), and
nothing is cached between calls. The answers are compared where the peer is exact (10 cards);
for 11 cards it counts how often OpenSpiel's discard shortcut misses the optimum.

Peers (``pip install open-spiel rlcard``) are optional: without them only Knock is timed.
OpenSpiel numbers cards ``suit * 13 + rank`` with suits S C D H, so ids are converted.
"""

from __future__ import annotations

import importlib
import random
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.arrange import (
    best_discard,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.cards import RANKS, SUITS, cards_to_mask, mask_to_cards
from engine.layoff import knocker_choice, lay_off
from engine.melds import ALL_MELDS

SEED = 20240601
REPEATS = 5
HANDS = 3000
RLCARD_HANDS = 300
KNOCKS = 1000

_OPENSPIEL_SUIT = (0, 3, 2, 1)  # Knock S H D C -> OpenSpiel S C D H


@dataclass
class Row:
    """One line of the table: µs per call for each implementation, and the target."""

    case: str
    knock: float
    openspiel: float | None = None
    rlcard: float | None = None
    target: str = ""
    met: bool | None = None


def best_time(function: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    """Microseconds per call of ``function`` over ``inputs``, best of :data:`REPEATS` runs."""
    best = float("inf")
    for _ in range(REPEATS):
        start = time.perf_counter()
        for item in inputs:
            function(item)
        best = min(best, time.perf_counter() - start)
    return best / len(inputs) * 1e6


def random_hand(rng: random.Random, size: int) -> int:
    """A uniformly random hand, as a mask."""
    return cards_to_mask(rng.sample(range(52), size))


def meld_rich_hand(rng: random.Random, size: int, limit: int = 10) -> int:
    """A hand built from random melds plus filler, in knock range (least deadwood <= limit)."""
    while True:
        mask = 0
        while mask.bit_count() < size - 3:
            meld = rng.choice(ALL_MELDS).mask
            if not meld & mask and (mask | meld).bit_count() <= size:
                mask |= meld
        while mask.bit_count() < size:
            mask |= 1 << rng.randrange(52)
        if min_deadwood(mask) <= limit:
            return mask


def openspiel_ids(mask: int) -> list[int]:
    """The hand as OpenSpiel card ids."""
    return [_OPENSPIEL_SUIT[card // 13] * 13 + card % 13 for card in mask_to_cards(mask)]


def load(name: str) -> Any:
    """Import an optional peer, or None."""
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


def ratio(numerator: float | None, denominator: float | None) -> str:
    """``numerator / denominator`` as ``1.23x``, or a dash."""
    if numerator is None or denominator is None:
        return "-"
    return f"{numerator / denominator:.2f}x"


def print_table(rows: list[Row]) -> None:
    """Print the results as a fixed-width table."""
    header = ("case", "Knock µs", "OpenSpiel µs", "RLCard µs", "Knock/OS", "RLCard/Knock")
    lines = [(*header, "target", "met")]
    for row in rows:
        lines.append(
            (
                row.case,
                f"{row.knock:.2f}",
                "-" if row.openspiel is None else f"{row.openspiel:.2f}",
                "-" if row.rlcard is None else f"{row.rlcard:.1f}",
                ratio(row.knock, row.openspiel),
                ratio(row.rlcard, row.knock),
                row.target,
                "-" if row.met is None else ("yes" if row.met else "NO"),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for index, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
        if index == 0:
            print("  ".join("-" * width for width in widths))


def main(argv: Sequence[str] = ()) -> int:
    """Run every case, print the table, and return 1 if an exact answer disagreed.

    ``argv`` is accepted for ``python -m bench``, which passes its arguments on; none are used.
    """
    rng = random.Random(SEED)
    pyspiel = load("pyspiel")
    rl_melding = load("rlcard.games.gin_rummy.utils.melding")
    rl_utils = load("rlcard.games.gin_rummy.utils.utils")
    rl_card = load("rlcard.games.base")
    missing = [
        name for name, module in (("open-spiel", pyspiel), ("rlcard", rl_melding)) if not module
    ]
    if missing:
        print(
            f"peers missing: {', '.join(missing)} (pip install open-spiel rlcard); timing the rest"
        )

    os10 = pyspiel.gin_rummy.GinRummyUtils(13, 4, 10) if pyspiel else None
    os11 = pyspiel.gin_rummy.GinRummyUtils(13, 4, 11) if pyspiel else None

    def rl_deadwood(cards: list[Any]) -> int:
        clusters = rl_melding.get_best_meld_clusters(hand=cards)
        cluster = clusters[0] if clusters else []
        return int(rl_utils.get_deadwood_count(hand=cards, meld_cluster=cluster))

    def rl_cards(mask: int) -> list[Any]:
        return [rl_card.Card(SUITS[c // 13], RANKS[c % 13]) for c in mask_to_cards(mask)]

    rows: list[Row] = []
    errors: list[str] = []

    ten: tuple[tuple[str, Callable[[], int], float], ...] = (
        ("10 cards, random", lambda: random_hand(rng, 10), 2.0),
        ("10 cards, meld-rich", lambda: meld_rich_hand(rng, 10), 1.0),
    )
    for case, make, factor in ten:
        masks = [make() for _ in range(HANDS)]
        row = Row(case, best_time(min_deadwood, masks), target=f"<= {factor:g}x OS, >= 10x RL")
        if os10 is not None:
            ids = [openspiel_ids(mask) for mask in masks]
            row.openspiel = best_time(os10.min_deadwood, ids)
            wrong = sum(
                os10.min_deadwood(i) != min_deadwood(m) for i, m in zip(ids, masks, strict=True)
            )
            if wrong:
                errors.append(f"{case}: {wrong} answers differ from OpenSpiel")
        if rl_melding is not None:
            few = masks[:RLCARD_HANDS]
            hands = [rl_cards(mask) for mask in few]
            row.rlcard = best_time(rl_deadwood, hands)
            wrong = sum(rl_deadwood(h) != min_deadwood(m) for h, m in zip(hands, few, strict=True))
            if wrong:
                errors.append(f"{case}: {wrong} answers differ from RLCard")
        row.met = _met(row, factor)
        rows.append(row)
        with_conversion = [list(mask_to_cards(mask)) for mask in masks]
        rows.append(
            Row(
                f"{case}, from a card list",
                best_time(lambda cards: min_deadwood(cards_to_mask(cards)), with_conversion),
                row.openspiel,
                row.rlcard,
                target="(for reference)",
            )
        )

    eleven: tuple[tuple[str, Callable[[], int]], ...] = (
        ("11 cards, random", lambda: random_hand(rng, 11)),
        ("11 cards, meld-rich", lambda: meld_rich_hand(rng, 11, limit=20)),
    )
    for case, make in eleven:
        masks = [make() for _ in range(HANDS)]
        fast = Row(
            f"{case}: best discard deadwood",
            best_time(min_deadwood_after_discard, masks),
            target="<= 1x OS, >= 10x RL",
        )
        full = Row(
            f"{case}: best_discard(), every discard",
            best_time(best_discard, masks),
            target="<= 1x OS x11, >= 10x RL",
        )
        whole = Row(f"{case}: no discard", best_time(min_deadwood, masks), target="<= 1x OS")
        if os10 is not None and os11 is not None:
            ids = [openspiel_ids(mask) for mask in masks]
            fast.openspiel = best_time(os10.min_deadwood, ids)
            # Like for like: the full result scores every discard, so OpenSpiel makes 11 calls.
            per_discard = [[[c for c in i if c != card] for card in i] for i in ids]
            full.openspiel = best_time(lambda h: [os10.min_deadwood(x) for x in h], per_discard)
            whole.openspiel = best_time(os11.min_deadwood, ids)
            shortcut_wrong = 0
            for i, mask in zip(ids, masks, strict=True):
                exact = min_deadwood_after_discard(mask)
                shortcut = os10.min_deadwood(i)
                if shortcut < exact or os11.min_deadwood(i) != min_deadwood(mask):
                    errors.append(f"{case}: OpenSpiel found less than the exact optimum")
                shortcut_wrong += shortcut != exact
            print(
                f"{case}: OpenSpiel's discard shortcut is not optimal on "
                f"{shortcut_wrong} of {len(masks)} hands"
            )
        if rl_melding is not None:
            few = masks[:RLCARD_HANDS]
            hands = [[rl_cards(mask ^ 1 << card) for card in mask_to_cards(mask)] for mask in few]
            fast.rlcard = full.rlcard = best_time(lambda h: min(rl_deadwood(x) for x in h), hands)
        for row in (fast, full):
            row.met = _met(row, 1.0)
        whole.met = None if whole.openspiel is None else whole.knock <= whole.openspiel
        rows += [fast, full, whole]

    knocks: list[tuple[tuple[int, ...], tuple[int, ...]]] = []
    while len(knocks) < KNOCKS:
        knocker = meld_rich_hand(rng, 10)
        rest = [card for card in range(52) if not knocker >> card & 1]
        knocks.append((mask_to_cards(knocker), tuple(rng.sample(rest, 10))))
    arrangements = [knocker_choice(knocker, defender)[0] for knocker, defender in knocks]
    layoff_inputs = [
        (a.melds, d, not a.is_gin) for a, (_, d) in zip(arrangements, knocks, strict=True)
    ]
    layoff_time = best_time(
        lambda args: lay_off(args[0], args[1], allow_layoffs=args[2]), layoff_inputs
    )
    choice_time = best_time(lambda args: knocker_choice(*args), knocks)
    rows.append(
        Row("lay_off, knock range", layoff_time, target="<= 100 µs", met=layoff_time <= 100)
    )
    rows.append(
        Row("knocker_choice, knock range", choice_time, target="<= 100 µs", met=choice_time <= 100)
    )

    print_table(rows)
    for error in errors:
        print("ERROR:", error)
    return 1 if errors else 0


def _met(row: Row, factor: float) -> bool | None:
    """Whether ``row`` is within ``factor`` of OpenSpiel and 10x faster than RLCard."""
    checks = []
    if row.openspiel is not None:
        checks.append(row.knock <= factor * row.openspiel)
    if row.rlcard is not None:
        checks.append(row.rlcard >= 10 * row.knock)
    return all(checks) if checks else None


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
