"""Swiss pairing checked against the FIDE worked exercise "Mastering the Dutch" (FA Mario Held).

Two editions of the same exercise are used, each cited where it is used:

- the 2014 edition, reproduced in the FIDE Arbiters' Manual 2014, pp. 65-92 (also worked through
  in Kenneth Ballou, "An In-Depth Comparison of US Chess Swiss pairings and FIDE Dutch System
  Swiss Pairings", 2015): fourteen players, Alice (1) ... Robert (14), five rounds;
- the 2026 edition of "Mastering the Dutch" (FIDE TEC), which adds a fifteenth player, Stephanie,
  with new ratings: round 1 (pp. 11-13), round 2 (pp. 31-32) and round 3 (pp. 33-37). Its
  ratings, results and pairings are second-hand: from an independent transcription (the Dutch
  pairing tests of the open-source chesspairing Go library) that checks every player's score and
  colour preference against the ones printed in the exercise. The scores are re-checked below.

Gin rummy has no colours, so Knock's pairer never looks at them. A published pairing that only
follows from the colour rules (a transposition made to give players their due colours) is
checked here for what colour cannot change: the score brackets, who floats, the bye.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from tournaments.algorithms.swiss import Float, SwissConfig, SwissPairing, SwissPlayer, pair_swiss

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

# Round 1 as published, (first, second, points of the first); 15 had the pairing bye (1 point).
ROUND_1_2026 = (
    (1, 8, 1),
    (9, 2, HALF),
    (3, 10, 1),
    (11, 4, 0),
    (5, 12, HALF),
    (13, 6, 1),
    (7, 14, 0),
)
# Round 2 as published; 6 asked for (and had) a half-point bye.
ROUND_2_2026 = (
    (14, 1, 0),
    (15, 3, 0),
    (4, 13, 1),
    (2, 5, 1),
    (12, 9, HALF),
    (10, 7, 0),
    (8, 11, 1),
)


def _field_2026(
    rounds: Iterable[tuple[tuple[int, int, Fraction | int], ...]],
    *,
    half_byes: Iterable[int] = (),
    requests: Iterable[int] = (),
) -> list[SwissPlayer]:
    """The snapshot a selector would hand the pairer after the given published rounds."""
    score: dict[int, Fraction] = {p: Fraction(0) for p in RATINGS_2026}
    opponents: dict[int, set[int]] = {p: set() for p in RATINGS_2026}
    played = tuple(rounds)
    for games in played:
        for first, second, points in games:
            score[first] += points
            score[second] += 1 - Fraction(points)
            opponents[first].add(second)
            opponents[second].add(first)
    if played:
        score[15] += 1  # round 1 pairing bye
    for p in half_byes:
        score[p] += HALF
    asking = set(requests)
    return [
        SwissPlayer(
            id=p,
            score=score[p],
            rating=rating,
            seed=p,
            opponents=frozenset(opponents[p]),
            byes=1 if played and p == 15 else 0,
            requests_bye=p in asking,
            # The round 1 bye counts as a downfloat in round 1; round 2 had no floaters.
            last_float=Float.DOWN if len(played) == 1 and p == 15 else None,
        )
        for p, rating in RATINGS_2026.items()
    ]


CONFIG_2026 = SwissConfig(pairing_bye_points=1, requested_bye_points=HALF)


def test_held_2026_round_1_fifteen_players_lowest_gets_the_bye() -> None:
    """ "Mastering the Dutch", 2026 edition, round 1 (pp. 11-13).

    With fifteen players the lowest-ranked, Stephanie (15), takes the pairing bye and the other
    fourteen pair top half against bottom half, 1 v 8 ... 7 v 14, as published (colours aside).
    """
    result = pair_swiss(_field_2026(()), config=CONFIG_2026)
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
    result = pair_swiss(_field_2026((ROUND_1_2026,), requests=(6,)), config=CONFIG_2026)
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
    field = _field_2026((ROUND_1_2026, ROUND_2_2026), half_byes=(6,), requests=(7,))
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
