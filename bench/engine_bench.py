"""Benchmark of the engine on the calls people make, side by side with OpenSpiel (C++).

Run from the repository root: ``python -m bench engine_bench`` (or ``make bench``). Hands come from
a fixed seed, and every implementation is timed on the same hands in one run: the repetitions
alternate Knock and its peer, and the best of each is kept, so a busy machine slows both alike.
Times are the CPU time of the timing thread (``time.thread_time``), so time spent waiting for a
core on a shared machine is not counted; the batch rate is per second of the child's CPU time.
Every call starts from a list of card ids, as callers hold them: Knock's conversion to a mask is
timed with it, as OpenSpiel's conversion of a Python list is. Each side is timed as a caller writes
it, one call expression per hand in a list comprehension (``min_deadwood(cards)``, which checks
and converts the list as ``cards_to_mask`` does, against ``utils.min_deadwood(ids)``). Nothing is
cached between calls.

The rows are the targets of the engine: the least deadwood (``min_deadwood``, and for 11 cards
the least after the best discard), the melds (``best_arrangement`` against OpenSpiel's
``BestMeldGroup``; its result builds its fields when first read, so a reference row also times
the call with every field read), a whole knock with lay-offs (``score_hand``) and
``python -m engine batch``.
Every answer is compared with OpenSpiel's where OpenSpiel is exact (on 11 cards with a hand size
of 10 it drops one card by a shortcut that can miss the optimum: only "never better than Knock"
is checked there). RLCard (pure Python) is timed on a few hands for reference.

Peers (``pip install open-spiel rlcard``, the ``bench`` extra) are optional: without them only
Knock is timed. OpenSpiel numbers cards ``suit * 13 + rank`` with suits S C D H, so ids are
converted once, before timing.
"""

from __future__ import annotations

import importlib
import io
import json
import random
import resource
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engine.arrange import (
    best_arrangement,
    min_deadwood,
    min_deadwood_after_discard,
)
from engine.cards import RANKS, SUITS, cards_to_mask, format_cards, mask_to_cards
from engine.cli import batch
from engine.layoff import knocker_choice, lay_off
from engine.melds import ALL_MELDS
from engine.rules import find_rules
from engine.scoring import score_hand

SEED = 20240601
REPEATS = 7
HANDS = 2000
RLCARD_HANDS = 200
KNOCKS = 1000
BATCH_LINES = 4000

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
    unit: str = "µs"


Batch = Callable[[Sequence[Any]], object]
"""A pass over a list of inputs: one call expression per input, in a list comprehension."""


def each(function: Callable[[Any], object]) -> Batch:
    """The pass that calls ``function`` on each input."""
    return lambda inputs: [function(item) for item in inputs]


def _run_once(run: Batch, inputs: Sequence[Any]) -> float:
    """CPU seconds of this thread for one pass: time spent waiting for a core is not counted."""
    start = time.thread_time()
    run(inputs)
    return time.thread_time() - start


def side_by_side(
    knock: Batch,
    knock_inputs: Sequence[Any],
    peer: Batch | None = None,
    peer_inputs: Sequence[Any] = (),
) -> tuple[float, float | None]:
    """µs per input of the ``knock`` pass and of the ``peer`` pass (or None), best of
    :data:`REPEATS` alternating passes over the same hands."""
    best_knock = best_peer = float("inf")
    for _ in range(REPEATS):
        best_knock = min(best_knock, _run_once(knock, knock_inputs))
        if peer is not None:
            best_peer = min(best_peer, _run_once(peer, peer_inputs))
    knock_us = best_knock / len(knock_inputs) * 1e6
    return knock_us, (best_peer / len(peer_inputs) * 1e6 if peer is not None else None)


def best_time(function: Callable[[Any], object], inputs: Sequence[Any]) -> float:
    """Microseconds per call of ``function`` over ``inputs``, best of :data:`REPEATS` runs."""
    return side_by_side(each(function), inputs)[0]


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


def card_list(rng: random.Random, mask: int) -> list[int]:
    """The cards of ``mask`` as a list in a random order, as a caller would hold them."""
    cards = list(mask_to_cards(mask))
    rng.shuffle(cards)
    return cards


def openspiel_ids(cards: Sequence[int]) -> list[int]:
    """The cards as OpenSpiel card ids, in the same order."""
    return [_OPENSPIEL_SUIT[card // 13] * 13 + card % 13 for card in cards]


def openspiel_deadwood(ids: Sequence[int], melds: Sequence[Sequence[int]]) -> int:
    """The deadwood OpenSpiel's meld group leaves (its ids: rank = id % 13 too)."""
    melded = {card for meld in melds for card in meld}
    return sum(min(card % 13 + 1, 10) for card in ids if card not in melded)


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
    header = ("case", "Knock", "OpenSpiel", "Knock/OS", "RLCard", "target", "met")
    lines = [header]
    for row in rows:
        lines.append(
            (
                row.case,
                f"{row.knock:.2f} {row.unit}",
                "-" if row.openspiel is None else f"{row.openspiel:.2f} {row.unit}",
                ratio(row.knock, row.openspiel),
                "-" if row.rlcard is None else f"{row.rlcard:.0f} {row.unit}",
                row.target,
                "-" if row.met is None else ("yes" if row.met else "NO"),
            )
        )
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    for index, line in enumerate(lines):
        print("  ".join(cell.ljust(width) for cell, width in zip(line, widths, strict=True)))
        if index == 0:
            print("  ".join("-" * width for width in widths))


def _within(row: Row, factor: float) -> None:
    row.target = f"<= {factor:g}x OS"
    row.met = None if row.openspiel is None else row.knock <= factor * row.openspiel


def main(argv: Sequence[str] = ()) -> int:
    """Run every case, print the table, and return 1 if a target or an exact answer failed.

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

    def rl_cards(cards: Sequence[int]) -> list[Any]:
        return [rl_card.Card(SUITS[c // 13], RANKS[c % 13]) for c in cards]

    rows: list[Row] = []
    errors: list[str] = []

    def knock_min10(cards: list[int]) -> int:
        return min_deadwood(cards_to_mask(cards))

    def knock_after_discard(cards: list[int]) -> int:
        return min_deadwood_after_discard(cards_to_mask(cards))

    # Timed as a caller writes them: one expression per hand, from the list of cards (each
    # function checks and converts a list itself, as cards_to_mask does).
    def knock_min_pass(hands: Sequence[list[int]]) -> object:
        return [min_deadwood(cards) for cards in hands]

    def knock_after_pass(hands: Sequence[list[int]]) -> object:
        return [min_deadwood_after_discard(cards) for cards in hands]

    def read_arrangement_pass(hands: Sequence[list[int]]) -> object:
        return [
            (arrangement.melds, arrangement.deadwood_cards, arrangement.deadwood)
            for arrangement in [best_arrangement(cards) for cards in hands]
        ]

    hands: dict[str, list[list[int]]] = {
        "10 random": [card_list(rng, random_hand(rng, 10)) for _ in range(HANDS)],
        "10 meld-rich": [card_list(rng, meld_rich_hand(rng, 10)) for _ in range(HANDS)],
        "11 random": [card_list(rng, random_hand(rng, 11)) for _ in range(HANDS)],
        "11 meld-rich": [card_list(rng, meld_rich_hand(rng, 11, limit=20)) for _ in range(HANDS)],
    }
    ids = {name: [openspiel_ids(cards) for cards in group] for name, group in hands.items()}

    # min_deadwood on 10 cards.
    for name, factor in (("10 random", 1.5), ("10 meld-rich", 1.0)):
        group = hands[name]
        knock_us, os_us = side_by_side(
            knock_min_pass, group, each(os10.min_deadwood) if os10 else None, ids[name]
        )
        row = Row(f"min_deadwood, {name} cards", knock_us, os_us)
        _within(row, factor)
        if os10 is not None:
            wrong = sum(
                os10.min_deadwood(i) != knock_min10(c)
                for i, c in zip(ids[name], group, strict=True)
            )
            if wrong:
                errors.append(f"{row.case}: {wrong} answers differ from OpenSpiel")
        if rl_melding is not None:
            few = group[:RLCARD_HANDS]
            rl_hands = [rl_cards(cards) for cards in few]
            row.rlcard = best_time(rl_deadwood, rl_hands)
            wrong = sum(
                rl_deadwood(h) != knock_min10(c) for h, c in zip(rl_hands, few, strict=True)
            )
            if wrong:
                errors.append(f"{row.case}: {wrong} answers differ from RLCard")
        rows.append(row)

    # 11 cards: the least deadwood after the best discard, and with no discard.
    for name in ("11 random", "11 meld-rich"):
        group = hands[name]
        knock_us, os_us = side_by_side(
            knock_after_pass, group, each(os10.min_deadwood) if os10 else None, ids[name]
        )
        after = Row(f"min_deadwood, {name} cards, best discard", knock_us, os_us)
        _within(after, 1.0)
        knock_us, os_us = side_by_side(
            knock_min_pass, group, each(os11.min_deadwood) if os11 else None, ids[name]
        )
        whole = Row(f"min_deadwood, {name} cards, no discard", knock_us, os_us)
        _within(whole, 1.0)
        if os10 is not None and os11 is not None:
            shortcut_wrong = 0
            for i, cards in zip(ids[name], group, strict=True):
                exact = knock_after_discard(cards)
                shortcut = os10.min_deadwood(i)
                if shortcut < exact:
                    errors.append(f"{after.case}: OpenSpiel found less than the exact optimum")
                if os11.min_deadwood(i) != knock_min10(cards):
                    errors.append(f"{whole.case}: an answer differs from OpenSpiel")
                shortcut_wrong += shortcut != exact
            print(
                f"{name} cards: OpenSpiel's discard shortcut is not optimal on "
                f"{shortcut_wrong} of {len(group)} hands (Knock's answer is exact)"
            )
        rows += [after, whole]

    # best_arrangement: the melds, against OpenSpiel's BestMeldGroup.
    for name, factor in (("10 random", 1.5), ("10 meld-rich", 1.0)):
        group = hands[name]
        knock_us, os_us = side_by_side(
            each(best_arrangement), group, each(os10.best_meld_group) if os10 else None, ids[name]
        )
        row = Row(f"best_arrangement, {name} cards", knock_us, os_us)
        _within(row, factor)
        if os10 is not None:
            wrong = sum(
                openspiel_deadwood(i, os10.best_meld_group(i)) != best_arrangement(c).deadwood
                for i, c in zip(ids[name], group, strict=True)
            )
            if wrong:
                errors.append(f"{row.case}: {wrong} deadwood counts differ from OpenSpiel")
        rows.append(row)
        # The fields of a best_arrangement result are built when first read: this reference row
        # times the call with every field read, as a caller that shows the melds does.
        read_us, _ = side_by_side(read_arrangement_pass, group)
        rows.append(Row(f"  {name} cards, every field read (reference)", read_us, os_us))

    # A whole knock with lay-offs, from two card lists, and the engine batch.
    standard = find_rules("standard")
    knocks: list[tuple[list[int], list[int]]] = []
    while len(knocks) < KNOCKS:
        knocker = meld_rich_hand(rng, 10)
        if not min_deadwood(knocker):
            continue  # gin: nothing is laid off
        rest = [card for card in range(52) if not knocker >> card & 1]
        defender = rng.sample(rest, 10)
        _, result = knocker_choice(mask_to_cards(knocker), defender)
        if result.layoffs:
            knocks.append((card_list(rng, knocker), defender))

    def knock_hand(pair: tuple[list[int], list[int]]) -> object:
        return score_hand(standard, knocker_cards=pair[0], defender_cards=pair[1])

    score_us = best_time(knock_hand, knocks)
    rows.append(
        Row("score_hand, knock with lay-offs", score_us, target="<= 50 µs", met=score_us <= 50)
    )
    choice_us = best_time(lambda pair: knocker_choice(*pair), knocks)
    rows.append(Row("  of which knocker_choice (reference)", choice_us))
    layoff_inputs = [(knocker_choice(*pair)[0].melds, pair[1]) for pair in knocks]
    layoff_us = best_time(lambda args: lay_off(*args), layoff_inputs)
    rows.append(Row("  of which lay_off, one arrangement (reference)", layoff_us))

    lines = [
        json.dumps(
            {"op": "knock", "knocker": format_cards(knocker), "defender": format_cards(defender)}
        )
        for knocker, defender in knocks
    ]
    text = "\n".join(lines * (BATCH_LINES // len(lines))) + "\n"
    count = text.count("\n")
    in_process_us = best_time(lambda data: batch(io.StringIO(data), io.StringIO()), [text])
    in_process = count / in_process_us * 1e6
    rows.append(
        Row(
            "engine batch (in process), knock hands",
            in_process,
            target=">= 5000 /s",
            met=in_process >= 5000,
            unit="/s",
        )
    )
    rate = _cli_rate(text, count)
    rows.append(
        Row(
            "python -m engine batch, knock hands",
            rate,
            target=">= 5000 /s",
            met=rate >= 5000,
            unit="/s",
        )
    )

    print_table(rows)
    for error in errors:
        print("ERROR:", error)
    missed = [row.case for row in rows if row.met is False]
    if missed:
        print("targets missed:", "; ".join(missed))
    return 1 if errors or missed else 0


def _cli_rate(text: str, count: int) -> float:
    """Knock hands a second of CPU time (one core) through ``python -m engine batch``.

    The child's start-up (an empty batch) is timed in the same run and taken off, so the figure
    is the steady rate; every answer line is checked to be a result, not an error.
    """
    command = [sys.executable, "-m", "engine", "batch"]

    def run(data: str) -> tuple[float, str]:
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        done = subprocess.run(command, input=data, capture_output=True, text=True, check=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
        return used, done.stdout

    startup = min(run("")[0] for _ in range(3))
    best = float("inf")
    out = ""
    for _ in range(3):
        used, out = run(text)
        best = min(best, used)
    answers = out.splitlines()
    if len(answers) != count or any('"error"' in line for line in answers):
        raise RuntimeError("python -m engine batch did not answer every knock")
    return count / max(best - startup, 1e-9)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
