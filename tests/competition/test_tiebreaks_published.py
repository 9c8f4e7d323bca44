"""Buchholz and Sonneborn-Berger checked against numbers published by others.

Two published examples, quoted as printed:

- Sensei's Library, "Sonneborn-Berger" (https://senseis.xmp.net/?SonnebornBerger): a 4-player
  double round robin, wins only, with the Sonneborn-Berger scores printed next to the table.
- Hamilton Chess Club, "Richard On Tie Break" (https://hamiltonchess.net/2018/04/11/richard-on-tie-break/):
  the 2018 club championship, a 27-player 6-round Swiss with half-point byes, full-point byes
  and missed rounds, and the NZCF tie-breaks of the two players tied for first.
"""

from __future__ import annotations

from fractions import Fraction

from competition import GameSide, RoundResult, StandingsRow, TieBreak, rank

F = Fraction


def _by_player(rows: tuple[StandingsRow, ...]) -> dict[int, StandingsRow]:
    return {r.player: r for r in rows}


# --- Sensei's Library: a double round robin, wins only ------------------------------------------

A, B, C, D = 1, 2, 3, 4

# The published crosstable, row player's result against the column player (1 win, 0 loss):
#        1st cycle    2nd cycle
#        A B C D      A B C D
#   A    - 1 1 1      - 0 1 0     4
#   B    0 - 1 1      1 - 0 1     4
#   C    0 0 - 1      0 1 - 1     3
#   D    0 0 0 -      1 0 0 -     1
# Each cycle is laid out over three rounds so that everyone plays every round (no unplayed
# rounds, so the virtual-opponent rule never applies): A-B and C-D, then A-C and B-D, then A-D
# and B-C; the second cycle repeats the pairings in rounds 4 to 6. Each pair is (winner, loser).
SENSEI_CYCLES: tuple[dict[frozenset[int], tuple[int, int]], ...] = (
    {
        frozenset({A, B}): (A, B),
        frozenset({C, D}): (C, D),
        frozenset({A, C}): (A, C),
        frozenset({B, D}): (B, D),
        frozenset({A, D}): (A, D),
        frozenset({B, C}): (B, C),
    },
    {
        frozenset({A, B}): (B, A),
        frozenset({C, D}): (C, D),
        frozenset({A, C}): (A, C),
        frozenset({B, D}): (B, D),
        frozenset({A, D}): (D, A),
        frozenset({B, C}): (C, B),
    },
)
SENSEI_ROUNDS = (((A, B), (C, D)), ((A, C), (B, D)), ((A, D), (B, C)))


def _sensei_results() -> list[RoundResult]:
    results: list[RoundResult] = []
    for cycle, outcomes in enumerate(SENSEI_CYCLES):
        for k, tables in enumerate(SENSEI_ROUNDS, start=1):
            for pair in tables:
                winner, loser = outcomes[frozenset(pair)]
                results.append(RoundResult(3 * cycle + k, GameSide(winner, 1), GameSide(loser, 0)))
    return results


def test_sensei_sonneborn_berger_double_round_robin() -> None:
    order = [TieBreak.SONNEBORN_BERGER, TieBreak.BUCHHOLZ]
    rows = rank([A, B, C, D], _sensei_results(), order, lots_seed=0)
    by = _by_player(rows)
    # Published scores: A 4, B 4, C 3, D 1.
    assert [by[p].match_points for p in (A, B, C, D)] == [4, 4, 3, 1]
    # Published Sonneborn-Berger (sum of the final scores of the opponents beaten):
    #   A beat B, C, C, D: 4 + 3 + 3 + 1 = 11;  B beat A, C, D, D: 4 + 3 + 1 + 1 = 9;
    #   C beat B, D, D: 4 + 1 + 1 = 6;  D beat A: 4.
    assert [by[p].value(TieBreak.SONNEBORN_BERGER) for p in (A, B, C, D)] == [11, 9, 6, 4]
    # Buchholz by hand (not published): everyone met each other twice, so it is twice the sum of
    #   the other three's scores: A 2 * (4 + 3 + 1) = 16, B 2 * (4 + 3 + 1) = 16,
    #   C 2 * (4 + 4 + 1) = 18, D 2 * (4 + 4 + 3) = 22.
    assert [by[p].value(TieBreak.BUCHHOLZ) for p in (A, B, C, D)] == [16, 16, 18, 22]
    # As the page concludes, A and B tie on 4 wins and Sonneborn-Berger makes A the winner.
    assert [r.player for r in rows] == [A, B, C, D]


# --- Hamilton Chess Club championship 2018: a 6-round Swiss with byes ---------------------------

# As published: No Name Score, then per round the result (+ win, = draw, - loss), the colour
# and the opponent's number; "=BYE" is a half-point bye, "+BYE" a full-point bye. Players 9 and
# 18 have five entries: they missed round 6 (both met in round 5; nobody met either in round 6).
HAMILTON_2018 = """
1 Richard_Dare 5.5 +W10 +B17 +W12 =W2 +B4 +B3
2 Graham_Nolan 5.5 +B27 +W16 +W9 =B1 +W8 +B10
3 Milton_Severinsen 4.0 =BYE +W11 +B6 =W4 +B5 -W1
4 Prashant_Mistry 4.0 +W22 +B15 =W8 =B3 -W1 +B13
5 William_Lynn 4.0 -W16 +B14 +W22 +B15 -W3 +B8
6 Gary_Judkins 4.0 -W21 +B27 -W3 +B23 +W16 +B14
7 Kevin_Li 4.0 -W9 -B23 +W27 +B19 +W15 +B12
8 William_Crombie 3.5 +B25 +W21 =B4 +W13 -B2 -W5
9 Hilton_Bennett 3.5 +B7 +W13 -B2 =BYE +W18
10 Michael_Lin 3.5 -B1 +W25 +W26 =B12 +B17 -W2
11 Murray_Tuatini 3.5 =BYE -B3 -W14 +B25 +W20 +W17
12 Eushin_Kang 3.0 +B20 +W18 -B1 =W10 =B14 -W7
13 Christopher_Symon 3.0 +W23 -B9 +W19 -B8 +W21 -W4
14 Ruchira_Silva 3.0 =BYE -W5 +B11 +B22 =W12 -W6
15 Rowan_Lightfoot 3.0 +B26 -W4 +B21 -W5 -B7 +W24
16 Leo_Dizon 3.0 +B5 -B2 -W17 +W24 -B6 +B22
17 Lara_Heppenstall 2.5 +B24 -W1 +B16 =BYE -W10 -B11
18 Ian_Kennedy 2.5 +W19 -B12 +W23 =BYE -B9
19 Joel_Crombie 2.5 -B18 +W20 -B13 -W7 =B25 +W21
20 Daniel_Dizon 2.5 -W12 -B19 =W25 +B27 -B11 +W26
21 Ronja_Ripp 2.0 +B6 -B8 -W15 +W26 -B13 -B19
22 Alex_Treat 2.0 -B4 +W24 -B5 -W14 +B26 -W16
23 Nathanial_Loy 2.0 -B13 +W7 -B18 -W6 -B24 +W27
24 Andy_Song 2.0 -W17 -B22 +BYE -B16 +W23 -B15
25 Sean_Clark 2.0 -W8 -B10 =B20 -W11 =W19 +BYE
26 Lasen_Silva 1.0 -W15 +BYE -B10 -B21 -W22 -B20
27 Maureen_Murphy 1.0 -W2 -W6 -B7 -W20 +BYE -B23
"""
HAMILTON_ROUNDS = 6
POINTS = {"+": F(1), "=": F(1, 2), "-": F(0)}


def _hamilton() -> tuple[dict[int, tuple[Fraction, list[str]]], list[RoundResult]]:
    """The published table as ``{number: (score, cells)}`` and as the module's results.

    A played game is one ``RoundResult`` (White first); a bye is an unplayed one-sided result
    worth its points (1/2 or 1); a missed round has no result at all, so ``rank`` (given the
    number of rounds) counts it as unplayed with 0 points.
    """
    table: dict[int, tuple[Fraction, list[str]]] = {}
    for line in HAMILTON_2018.strip().splitlines():
        no, _name, score, *cells = line.split()
        table[int(no)] = (F(score), cells)
    results: list[RoundResult] = []
    for number, (_score, cells) in table.items():
        for rnd, cell in enumerate(cells, start=1):
            mark, colour, rest = cell[0], cell[1], cell[1:]
            if rest == "BYE":
                results.append(RoundResult(rnd, GameSide(number, POINTS[mark]), played=False))
                continue
            opponent = int(cell[2:])
            # The opponent's row must show the same game from the other side.
            back = table[opponent][1][rnd - 1]
            assert int(back[2:]) == number, (number, rnd)
            assert POINTS[back[0]] == 1 - POINTS[mark], (number, rnd)
            assert back[1] != colour, (number, rnd)
            if colour == "W":
                results.append(
                    RoundResult(
                        rnd, GameSide(number, POINTS[mark]), GameSide(opponent, POINTS[back[0]])
                    )
                )
    return table, results


HAMILTON_ORDER = [
    TieBreak.HEAD_TO_HEAD,
    TieBreak.BUCHHOLZ,
    TieBreak.SONNEBORN_BERGER,
    TieBreak.BUCHHOLZ_CUT1,
]


def test_hamilton_crosstable_is_read_as_published() -> None:
    table, results = _hamilton()
    assert len(table) == 27
    # Every row's total equals the published score, and ``rank`` agrees with all of them.
    for number, (score, cells) in table.items():
        assert sum((POINTS[c[0]] for c in cells), F(0)) == score, number
    rows = _by_player(rank(list(table), results, [], lots_seed=0, rounds=HAMILTON_ROUNDS))
    assert {p: r.match_points for p, r in rows.items()} == {p: s for p, (s, _) in table.items()}
    # 27 players * 6 rounds = 162 player-rounds; 6 half-point byes, 4 full-point byes and the
    # 2 missed rounds of players 9 and 18 are unplayed, which leaves (162 - 12) / 2 = 75 games.
    assert sum(1 for r in results if r.played) == 75
    assert sum(1 for r in results if not r.played) == 10


def test_hamilton_published_tiebreaks_for_the_two_leaders() -> None:
    table, results = _hamilton()
    rows = rank(list(table), results, HAMILTON_ORDER, lots_seed=0, rounds=HAMILTON_ROUNDS)
    by = _by_player(rows)

    # Published (NZCF order: Direct Encounter, Cumulative, Total Buchholz, S-B, Buchholz Cut1):
    #   Pos Name          DirE Cmlt BucT  S-B   Buc1
    #   1   Richard_Dare  0.5  19.5 22.5  19.75 20.0
    #   2   Graham_Nolan  0.5  19.5 20.0  17.25 19.5
    # (Cumulative is not a criterion this module offers, so Cmlt is not checked.)
    #
    # Richard (1) met 10, 17, 12, 2, 4, 3. None of them had a full-point bye or a missed round;
    # 17 and 3 had a half-point bye each, which the FIDE rule ("an opponent's unplayed rounds
    # count as draws") scores at 1/2 anyway, so every score is used at face value:
    #   Buchholz = 3.5 (10) + 2.5 (17) + 3.0 (12) + 5.5 (2) + 4.0 (4) + 4.0 (3) = 22.5
    #   S-B = wins over 10, 17, 12, 4, 3: 3.5 + 2.5 + 3 + 4 + 4 = 17.0, plus 5.5 / 2 = 19.75
    #   Cut-1 drops 17's 2.5: 20.0
    # These must match exactly whatever the bye rule.
    richard = by[1]
    assert richard.match_points == F(11, 2)
    assert richard.value(TieBreak.HEAD_TO_HEAD) == F(1, 2)
    assert richard.value(TieBreak.BUCHHOLZ) == F(45, 2)
    assert richard.value(TieBreak.SONNEBORN_BERGER) == F(79, 4)
    assert richard.value(TieBreak.BUCHHOLZ_CUT1) == F(20)

    # Graham (2) met 27, 16, 9, 1, 8, 10. Two of them were not on face value under our rule:
    #   27 scored 1.0, all of it from a FULL-point bye (round 5); counted as a draw: 0.5.
    #   9 scored 3.5 with a half-point bye (round 4, still 0.5) and a missed round 6 (0 points,
    #   counted as a draw: +0.5): 4.0.
    # Adjusted opponents: 0.5 (27), 3.0 (16), 4.0 (9), 5.5 (1), 3.5 (8), 3.5 (10).
    #   Buchholz = 0.5 + 3 + 4 + 5.5 + 3.5 + 3.5 = 20.0 (face values 1 + 3 + 3.5 + 5.5 + 3.5 + 3.5
    #     give 20.0 too: the -0.5 on 27 and the +0.5 on 9 cancel)
    #   S-B = wins over 27, 16, 9, 8, 10: 0.5 + 3 + 4 + 3.5 + 3.5 = 14.5, plus 5.5 / 2 = 17.25
    #     (face values: 1 + 3 + 3.5 + 3.5 + 3.5 + 2.75 = 17.25, the same cancellation)
    #   Cut-1 drops the lowest, 27's adjusted 0.5: 19.5. With face values it would drop 27's
    #     1.0 and give 19.0, not the published 19.5.
    # So the published figures do not differ from our rule. Buchholz cut-1 is the one number
    # that tells the two bye treatments apart: the total (20.0) and S-B (17.25) both need
    # 27 + 9 to be worth 4.5, i.e. (1.0, 3.5) at face value or (0.5, 4.0) adjusted, and only the
    # adjusted pair makes the lowest opponent 0.5 and cut-1 the published 19.5.
    graham = by[2]
    assert graham.match_points == F(11, 2)
    assert graham.value(TieBreak.HEAD_TO_HEAD) == F(1, 2)
    assert graham.value(TieBreak.BUCHHOLZ) == F(20)
    assert graham.value(TieBreak.SONNEBORN_BERGER) == F(69, 4)
    assert graham.value(TieBreak.BUCHHOLZ_CUT1) == F(39, 2)

    # The published result: Richard takes the title on Total Buchholz (direct encounter was a
    # draw; Cumulative, which we do not offer, was level at 19.5).
    assert [r.player for r in rows[:2]] == [1, 2]


def test_hamilton_face_value_cut1_would_contradict_the_published_figure() -> None:
    # The same arithmetic done naively from the printed scores, to show why the published
    # cut-1 rules out counting opponents' byes and missed rounds at face value.
    table, _results = _hamilton()
    graham = [int(c[2:]) for c in table[2][1] if c[1:] != "BYE"]
    assert graham == [27, 16, 9, 1, 8, 10]
    face = sorted(table[o][0] for o in graham)
    assert sum(face, F(0)) == 20  # the published Total Buchholz: no help in telling them apart
    assert sum(face[1:], F(0)) == 19  # published Buc1 is 19.5: face values are not what was used
