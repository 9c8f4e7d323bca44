"""Swiss pairing checked against the FIDE worked exercise "Mastering the Dutch" (FA Mario Held).

Two editions of the same exercise are used, each cited where it is used:

- the 2014 edition, reproduced in the FIDE Arbiters' Manual 2014, pp. 65-92 (also worked through
  in Kenneth Ballou, "An In-Depth Comparison of US Chess Swiss pairings and FIDE Dutch System
  Swiss Pairings", 2015): fourteen players, Alice (1) ... Robert (14), five rounds;
- the 2026 edition of "Mastering the Dutch" (FIDE TEC), which adds a fifteenth player, Stephanie,
  with new ratings and nine rounds: round 1 (pp. 11-13), round 2 (pp. 31-32), round 3
  (pp. 33-37), rounds 4 to 9 (sections 6-11, pp. 44-67). Its ratings, results and pairings are
  second-hand: from an independent transcription (the Dutch pairing tests of the open-source
  chesspairing Go library) that checks every player's score and colour preference against the
  ones printed in the exercise. The scores before rounds 4 to 9 are re-checked below.

Only round 1 of the 2014 edition is checked: the round-by-round results of pp. 65-92 were not
at hand when these tests were written, and the 2026 rounds are not the 2014 ones.

Gin rummy has no colours, so Knock's pairer never looks at them. A published pairing that only
follows from the colour rules (a transposition made to give players their due colours) is
checked here for what colour cannot change: the score brackets, who floats, the bye.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

import pytest

from competition.swiss import (
    Float,
    Score,
    SwissConfig,
    SwissPairing,
    SwissPlayer,
    pair_swiss,
)

HALF = Fraction(1, 2)


def _games(result: SwissPairing) -> set[frozenset[int]]:
    return {frozenset(p) for p in result.pairs}


def _pairs(*pairs: tuple[int, int]) -> set[frozenset[int]]:
    return {frozenset(p) for p in pairs}


def _inside(result: SwissPairing, group: Iterable[int]) -> set[frozenset[int]]:
    members = set(group)
    return {g for g in _games(result) if g & members}


# --- 2014 edition (FIDE Arbiters' Manual 2014, pp. 65-92): fourteen players ---------------------

# Pairing numbers as set in the exercise: by rating, then title, then name (Carla and David share
# a rating and Carla's WGM title ranks her first). Only the order matters to the pairing.
NAMES_2014 = (
    "Alice",
    "Bruno",
    "Carla",
    "David",
    "Eloise",
    "Finn",
    "Giorgia",
    "Kevin",
    "Louise",
    "Marco",
    "Nancy",
    "Oskar",
    "Patricia",
    "Robert",
)


def test_held_2014_round_1_is_top_half_against_bottom_half() -> None:
    """Held, "Mastering the Dutch", FIDE Arbiters' Manual 2014, pp. 65-92, round 1.

    The fourteen players form one score bracket; the top half (pairing numbers 1-7) meets the
    bottom half (8-14) in order, 1 v 8 down to 7 v 14, with no bye. Colours alternate down the
    boards in the exercise, which Knock has no use for: the games themselves are colour-free.
    """
    players = [SwissPlayer(id=n, seed=n) for n in range(1, len(NAMES_2014) + 1)]
    result = pair_swiss(players, config=SwissConfig(order_by="seed"))
    assert _games(result) == _pairs((1, 8), (2, 9), (3, 10), (4, 11), (5, 12), (6, 13), (7, 14))
    assert result.byes == ()
    assert result.floats == ()
    # Tables follow the bracket order: Alice's game is board 1, Giorgia's board 7.
    assert [min(p) for p in result.pairs] == [1, 2, 3, 4, 5, 6, 7]


# --- 2026 edition: fifteen players ---------------------------------------------------------------

RATINGS_2026 = {
    1: 2509,  # Alice
    2: 2445,  # Bruno
    3: 2421,  # Carla
    4: 2402,  # David
    5: 2309,  # Eloise
    6: 2307,  # Finn
    7: 2286,  # Giorgia
    8: 2158,  # Kevin
    9: 2132,  # Louise
    10: 2123,  # Marco
    11: 2116,  # Nancy
    12: 2113,  # Oskar
    13: 2105,  # Patricia
    14: 1936,  # Robert
    15: 1900,  # Stephanie
}

# The nine published rounds: games as (first, second, result), the result being the first
# player's points, or "+" / "-" for a forfeit won / lost by the first player (not a meeting, so
# left out of the opponents, as Knock's selectors do); then the byes of the round, "pab" for the
# pairing bye (1 point) and "half" for a requested half-point bye.
Result = Fraction | int | str
ROUNDS_2026: dict[int, tuple[tuple[tuple[int, int, Result], ...], dict[int, str]]] = {
    1: (
        ((1, 8, 1), (9, 2, HALF), (3, 10, 1), (11, 4, 0), (5, 12, HALF), (13, 6, 1), (7, 14, 0)),
        {15: "pab"},
    ),
    2: (
        ((14, 1, 0), (2, 5, 1), (15, 3, 0), (4, 13, 1), (10, 7, 0), (8, 11, 1), (12, 9, HALF)),
        {6: "half"},
    ),
    3: (
        (
            (1, 4, HALF),
            (3, 2, HALF),
            (6, 5, HALF),
            (8, 13, "+"),
            (9, 14, 1),
            (11, 10, 1),
            (12, 15, 1),
        ),
        {7: "half"},
    ),
    4: (
        ((4, 3, "-"), (2, 1, 0), (8, 9, 0), (7, 12, 1), (5, 13, 1), (14, 6, 0), (15, 11, 0)),
        {10: "pab"},
    ),
    5: (
        ((1, 3, HALF), (9, 7, 0), (4, 5, 1), (12, 2, HALF), (6, 8, 0), (13, 11, 1), (10, 15, 1)),
        {14: "pab"},
    ),
    6: (
        ((7, 1, 0), (3, 4, 1), (8, 12, 1), (11, 9, HALF), (2, 10, 1), (5, 14, "-"), (15, 6, 0)),
        {13: "pab"},
    ),
    7: (
        ((3, 8, 1), (1, 9, HALF), (4, 2, 1), (6, 7, 0), (13, 14, 1), (12, 11, 1), (5, 10, 0)),
        {15: "half"},
    ),
    8: (
        ((7, 3, HALF), (1, 13, 1), (9, 4, 0), (2, 8, 1), (10, 12, 1), (11, 6, 1), (14, 15, 0)),
        {5: "pab"},
    ),
    9: (
        ((10, 1, 0), (9, 3, 0), (4, 7, 0), (13, 2, 0), (8, 15, 0), (5, 11, 0), (12, 14, 0)),
        {6: "pab"},
    ),
}


def _field_2026(round_number: int) -> list[SwissPlayer]:
    """The snapshot a selector would hand the pairer before the given published round.

    Requested byes of that round are marked; ``last_float`` is the previous round's float and
    ``prior_float`` the one before, a bye or a forfeit counting as a downfloat, as in FIDE's
    rules.
    """
    ids = tuple(RATINGS_2026)
    score: dict[int, Fraction] = {p: Fraction(0) for p in ids}
    opponents: dict[int, set[int]] = {p: set() for p in ids}
    byes = dict.fromkeys(ids, 0)
    forfeit_wins = dict.fromkeys(ids, 0)
    last: dict[int, Float | None] = {}
    prior: dict[int, Float | None] = {}
    for number in range(1, round_number):
        games, round_byes = ROUNDS_2026[number]
        before = dict(score)
        prior, last = last, dict.fromkeys(ids)
        for first, second, result in games:
            if isinstance(result, str):
                winner = first if result == "+" else second
                score[winner] += 1
                forfeit_wins[winner] += 1
                last[first] = last[second] = Float.DOWN
                continue
            score[first] += result
            score[second] += 1 - Fraction(result)
            opponents[first].add(second)
            opponents[second].add(first)
            if before[first] != before[second]:
                high, low = sorted((first, second), key=lambda p: before[p], reverse=True)
                last[high], last[low] = Float.DOWN, Float.UP
        for player, kind in round_byes.items():
            score[player] += 1 if kind == "pab" else HALF
            byes[player] += kind == "pab"
            last[player] = Float.DOWN
    requests = {p for p, kind in ROUNDS_2026[round_number][1].items() if kind == "half"}
    return [
        SwissPlayer(
            id=p,
            score=score[p],
            rating=RATINGS_2026[p],
            seed=p,
            opponents=frozenset(opponents[p]),
            byes=byes[p],
            forfeit_wins=forfeit_wins[p],
            requests_bye=p in requests,
            last_float=last.get(p),
            prior_float=prior.get(p),
        )
        for p in ids
    ]


def _published(round_number: int) -> set[frozenset[int]]:
    return {frozenset((a, b)) for a, b, _ in ROUNDS_2026[round_number][0]}


def _published_bye(round_number: int) -> int | None:
    return next((p for p, kind in ROUNDS_2026[round_number][1].items() if kind == "pab"), None)


def _psd(score: dict[int, Score], games: Iterable[frozenset[int]]) -> list[Score]:
    """The score gaps of the games, largest first (the bye, the same on both sides, left out)."""
    gaps = [abs(score[a] - score[b]) for a, b in (tuple(g) for g in games)]
    return sorted(gaps, reverse=True)


CONFIG_2026 = SwissConfig(pairing_bye_points=1, requested_bye_points=HALF)


def test_held_2026_round_1_fifteen_players_lowest_gets_the_bye() -> None:
    """ "Mastering the Dutch", 2026 edition, round 1 (pp. 11-13).

    With fifteen players the lowest-ranked, Stephanie (15), takes the pairing bye and the other
    fourteen pair top half against bottom half, 1 v 8 ... 7 v 14, as published (colours aside).
    """
    result = pair_swiss(_field_2026(1), config=CONFIG_2026)
    assert _games(result) == _pairs((1, 8), (2, 9), (3, 10), (4, 11), (5, 12), (6, 13), (7, 14))
    assert result.bye == 15
    assert [(b.player, b.points, b.requested) for b in result.byes] == [(15, 1, False)]


def test_held_2026_round_2_brackets_and_the_forced_half_point_bracket() -> None:
    """ "Mastering the Dutch", 2026 edition, round 2 (pp. 31-32).

    After round 1 the brackets are 1 point {1, 3, 4, 13, 14, 15}, half a point {2, 5, 9, 12} and
    nought {7, 8, 10, 11}; Finn (6, nought) is on a requested half-point bye. Published: 14-1,
    15-3, 4-13, 2-5, 12-9, 10-7, 8-11, nobody floats.

    Two brackets were decided by colour. In the 1-point bracket the natural 1-13, 3-14, 4-15 is
    transposed in the exercise so that players get their due colours. In the half-point bracket
    2-9 is a rematch, so the first legal colour-free Dutch candidate is 2-12, 5-9, and the exercise
    exchanges it to 2-5, 12-9 because 2 and 12 are both due white. Knock, without colours, is held
    there only to what colour cannot change: each bracket pairs inside itself, no rematch, no
    floater; and, having no colours to weigh, to the colour-free Dutch order (1-13, 3-14, 4-15;
    2-12, 5-9). The nought bracket is the natural top-half pairing and is checked exactly.
    """
    result = pair_swiss(_field_2026(2), config=CONFIG_2026)
    top = {1, 3, 4, 13, 14, 15}
    half = {2, 5, 9, 12}
    for bracket in (top, half):
        assert all(g <= bracket for g in _inside(result, bracket))
        assert len(_inside(result, bracket)) == len(bracket) // 2
    assert _inside(result, top) == _pairs((1, 13), (3, 14), (4, 15))
    assert _inside(result, half) == _pairs((2, 12), (5, 9))
    assert not _inside(result, half) & _pairs((9, 2), (5, 12))
    assert _inside(result, {7, 8, 10, 11}) == _pairs((10, 7), (8, 11))
    assert result.floats == ()
    assert result.bye is None
    assert [(b.player, b.points, b.requested) for b in result.byes] == [(6, HALF, True)]


def test_held_2026_round_3_one_downfloater_from_the_top_bracket() -> None:
    """ "Mastering the Dutch", 2026 edition, round 3 (pp. 33-37).

    Before round 3: 2 points {1, 3, 4}, 1.5 {2}, 1 {8, 9, 12, 13, 14, 15}, 0.5 {5, 6}, 0 {10, 11};
    Giorgia (7) is on a requested half-point bye. Published: 1-4, 3-2, 13-8, 9-14, 12-15, 6-5,
    11-10.

    The odd top bracket sends one player down to Bruno (2), the only 1.5; which of the three goes
    was decided by colour in the exercise (Alice and Carla both want white, so Alice meets David
    and Carla floats). Knock is held to what colour cannot change: the two others meet, exactly
    one 2-point player floats down to meet 2 (one float, the smallest possible), and the lower
    brackets are paired as published: 8-13, 9-14, 12-15 (the natural top-half order), 5-6, 10-11.
    With no colours to weigh, the colour-free Dutch order applies in the top bracket: S1 {1}
    meets the top of S2, so 1-3, and the lowest, David (4), floats down to Bruno.
    """
    field = _field_2026(3)
    scores = {p.id: p.score for p in field}
    assert scores == {
        1: 2,
        2: Fraction(3, 2),
        3: 2,
        4: 2,
        5: HALF,
        6: HALF,
        7: 1,
        8: 1,
        9: 1,
        10: 0,
        11: 0,
        12: 1,
        13: 1,
        14: 1,
        15: 1,
    }
    result = pair_swiss(field, config=CONFIG_2026)
    top_games = _inside(result, {1, 2, 3, 4})
    assert len(top_games) == 2
    (floater,) = [g for g in top_games if 2 in g]
    assert floater - {2} <= {1, 3, 4}
    assert sorted(result.floats, key=lambda f: f[1].value) == [
        (next(iter(floater - {2})), Float.DOWN),
        (2, Float.UP),
    ]
    assert top_games == _pairs((1, 3), (4, 2))
    assert _inside(result, {8, 9, 12, 13, 14, 15}) == _pairs((13, 8), (9, 14), (12, 15))
    assert _inside(result, {5, 6}) == _pairs((6, 5))
    assert _inside(result, {10, 11}) == _pairs((11, 10))
    assert result.bye is None
    assert [(b.player, b.points, b.requested) for b in result.byes] == [(7, HALF, True)]


# Scores before each round as printed in the exercise, players 1 to 15, and where it is printed.
PRINTED_2026: dict[int, tuple[str, tuple[float, ...]]] = {
    4: ("section 6, p. 44", (2.5, 2, 2.5, 2.5, 1, 1, 1.5, 2, 2, 0, 1, 2, 1, 1, 1)),
    5: ("section 7, p. 51", (3.5, 2, 3.5, 2.5, 2, 2, 2.5, 2, 3, 1, 2, 2, 1, 1, 1)),
    6: ("section 8, p. 57", (4, 2.5, 4, 3.5, 2, 2, 3.5, 3, 3, 2, 2, 2.5, 2, 2, 1)),
    7: ("section 9, p. 60", (5, 3.5, 5, 3.5, 2, 3, 3.5, 4, 3.5, 2, 2.5, 2.5, 3, 3, 1)),
    8: ("section 10, p. 63", (5.5, 3.5, 6, 4.5, 2, 3, 4.5, 4, 4, 3, 2.5, 3.5, 4, 3, 1.5)),
    9: ("section 11, p. 67", (6.5, 4.5, 6.5, 5.5, 3, 3, 5, 4, 4, 4, 3.5, 3.5, 4, 3, 2.5)),
}


@pytest.mark.parametrize("round_number", [4, 5, 6, 7, 8])
def test_held_2026_rounds_4_to_8_same_bye_and_same_score_gaps(round_number: int) -> None:
    """ "Mastering the Dutch", 2026 edition, rounds 4 to 8 (sections 6-10, pp. 44-63).

    The field is rebuilt from the published results (forfeits, pairing byes and half-point
    byes included) and its scores checked against the printed ones. In every one of these rounds
    Knock gives the pairing bye to the same player as the exercise and its games have the same
    score gaps (the same PSD: the same number of floaters across the same score differences).
    Which players of a bracket meet, and which of equally placed players floats, the exercise
    settles in rounds 4 to 6 by a criterion Knock does not have (colours), so that is not
    asserted there. Rounds 7 and 8 Knock reproduces game for game: round 7 since it remembers
    floats two rounds back and counts a bye or forfeit as a downfloat, as FIDE does (issue 28).
    """
    where, printed = PRINTED_2026[round_number]
    field = _field_2026(round_number)
    score = {p.id: p.score for p in field}
    assert [score[p] for p in sorted(score)] == [Fraction(x) for x in printed], where
    result = pair_swiss(field, config=CONFIG_2026)
    assert result.bye == _published_bye(round_number)
    assert _psd(score, _games(result)) == _psd(score, _published(round_number))
    if round_number in (7, 8):
        assert _games(result) == _published(round_number)


def test_held_2026_round_9_top_boards_and_bye_agree_knock_has_smaller_gaps() -> None:
    """ "Mastering the Dutch", 2026 edition, round 9 (section 11, p. 67), the last round.

    Published: 10-1, 9-3, 4-7, 13-2, 8-15, 5-11, 12-14, Finn (6) on the pairing bye (the lower
    players 15, 14, 5 have all had one). Knock agrees on the bye and on the top boards (Alice and
    Carla, 6.5, drop to Marco and Louise, 4, having met everyone above; David meets Giorgia), but
    not below: it pairs the round with smaller score gaps (largest after the two 2.5 gaps is 1,
    where the exercise has Kevin, 4, against Stephanie, 2.5). See the strict xfail below for why.
    """
    field = _field_2026(9)
    score = {p.id: p.score for p in field}
    result = pair_swiss(field, config=CONFIG_2026)
    assert result.bye == 6
    assert _pairs((1, 10), (3, 9), (4, 7)) <= _games(result)
    assert _psd(score, _games(result)) < _psd(score, _published(9))


@pytest.mark.xfail(
    strict=True,
    reason=(
        "Held 2026, round 9: FIDE pairs bracket by bracket (C6/C7: fewest downfloaters, then "
        "their lowest scores, in each bracket before the next is looked at), so the 4-point "
        "bracket pairs its moved-down Bruno (2, 4.5) with Patricia (13) and sends only Kevin "
        "(8) down; with Nancy and Oskar (11, 12, 3.5, who met) floating too, Kevin ends against "
        "Stephanie (15, 2.5), a 1.5 gap. Knock minimises the score gaps of the whole round at "
        "once: Bruno floats to Nancy (2-11, gap 1), 8-13, 12-14, 5-15, no gap above 1 after the "
        "two 2.5s. Colour-independent; not changed (tests only)."
    ),
)
def test_held_2026_round_9_as_published() -> None:
    """ "Mastering the Dutch", 2026 edition, round 9 (section 11, p. 67): the published pairing.

    Colour plays no part in the difference: it is decided at C6/C7, above every colour
    criterion, by FIDE's bracket-by-bracket order against Knock's whole-round score-gap rule.
    """
    result = pair_swiss(_field_2026(9), config=CONFIG_2026)
    assert _games(result) == _published(9)
