"""The command line: in-process through main(argv) (for coverage) and through a subprocess."""

from __future__ import annotations

import io
import json
import runpy
import subprocess
import sys
from pathlib import Path

import pytest

from engine.cli import handle_request, main

ROOT = Path(__file__).resolve().parents[2]
KNOCKER = "AS 2S 3S 5H 6H 7H 9S 9D 9C KC"
DEFENDER = "8H 9H KS KH KD 2C 3C QS JD 5C"


def run(argv: list[str], stdin: str = "") -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(argv, stdin=io.StringIO(stdin), stdout=out, stderr=err)
    return code, out.getvalue(), err.getvalue()


def test_arrange() -> None:
    code, out, err = run(["arrange", "AS 2S 3S 7H 7D 7C KC 4D 9S 10h"])
    assert code == 0
    assert err == ""
    assert out == "Melds:    AS 2S 3S | 7H 7D 7C\nDeadwood: 9S TH 4D KC = 33\n"
    assert run(["arrange", "AS 2S 3S"])[1] == "Melds:    AS 2S 3S\nDeadwood: none (gin) = 0\n"
    assert run(["arrange", "KS"])[1].startswith("Melds:    none\n")


def test_discard() -> None:
    code, out, _ = run(["discard", "AS 2S 3S 4S KS 8H 8D 9D KD 8C KC"])
    assert (code, out) == (0, "Discard 9D: deadwood 0 left\n")
    out = run(["discard", "AS 2S 3S 4S 8H 8D 8C KS KD KC 5S"])[1]
    assert "Big gin: every card melds without a discard" in out


def test_knock() -> None:
    code, out, _ = run(["knock", "--knocker", KNOCKER, "--defender", DEFENDER])
    assert code == 0
    assert "Knock: knocker scores defender 30 − knocker 10 = 20" in out
    oklahoma = ["--rules", "oklahoma", "--upcard", "TS"]
    code, out, _ = run(["knock", "--knocker", KNOCKER, "--defender", DEFENDER, *oklahoma])
    assert code == 0
    assert "× 2 for a spade upcard = 40" in out


def test_usage_and_engine_errors_exit_2() -> None:
    code, out, err = run([])
    assert (code, out) == (2, "")
    assert "required: command" in err
    code, _, err = run(["knock", "--knocker", KNOCKER])
    assert code == 2
    assert "--defender" in err
    code, _, err = run(["arrange", "AS ZZ"])
    assert code == 2
    assert err == "error: Cannot read card 'ZZ' at position 2: " + err.split(": ", 2)[2]
    code, _, err = run(
        ["knock", "--knocker", KNOCKER, "--defender", DEFENDER, "--knocker-melds", "AS 2S 3S"]
    )
    assert code == 2
    assert err.startswith("error: Knock over the limit: deadwood 55 > 10")
    code, _, err = run(["knock", "--knocker", KNOCKER, "--defender", DEFENDER, "--rules", "x"])
    assert code == 2
    assert "Unknown rule set 'x'" in err


def test_batch_answers_every_line_in_order() -> None:
    lines = [
        '{"op":"arrange","cards":"AS 2S 3S 10D"}',
        "not json",
        "",
        '{"op":"discard","cards":"AS 2S 3S 4S KS 8H 8D 9D KD 8C KC"}',
        json.dumps({"op": "knock", "knocker": KNOCKER, "defender": DEFENDER}),
        json.dumps(
            {
                "op": "knock",
                "knocker": KNOCKER.split(),
                "defender": DEFENDER,
                "knocker_melds": [["AS", "2S", "3S"], ["5H", "6H", "7H"], ["9S", "9D", "9C"]],
                "rules": "classic",
            }
        ),
        '{"op":"deal"}',
        "[1, 2]",
        '{"op":"arrange"}',
        '{"op":"arrange","cards":"AS AS"}',
        '{"op":"arrange","cards":5}',
        '{"op":"arrange","cards":"AS","extra":1}',
        '{"op":"knock","knocker":"AS","defender":"2S","knocker_melds":5}',
        '{"op":"knock","knocker":"AS","defender":"2S","knock_limit":true}',
    ]
    code, out, _ = run(["batch"], "\n".join(lines) + "\n")
    answers = [json.loads(line) for line in out.splitlines()]
    assert code == 0
    assert len(answers) == len(lines) - 1
    assert answers[0] == {"deadwood": 10, "melds": [["AS", "2S", "3S"]], "deadwood_cards": ["TD"]}
    assert answers[1]["error"].startswith("bad JSON: ")
    assert answers[2]["deadwood_after_best_discard"] == 0
    assert answers[2]["best_discards"] == ["9D"]
    assert answers[2]["big_gin"] is False
    knock = answers[3]
    assert {k: knock[k] for k in ("outcome", "winner", "points")} == {
        "outcome": "knock",
        "winner": "knocker",
        "points": 20,
    }
    assert (knock["knocker_deadwood"], knock["defender_deadwood"]) == (10, 30)
    assert {"card": "8H", "onto": ["5H", "6H", "7H"]} in knock["layoffs"]
    assert knock["defender_melds"] == [["KS", "KH", "KD"]]
    assert answers[4]["points"] == 20
    assert answers[5] == {"error": "unknown op 'deal'; known: arrange, discard, knock"}
    assert answers[6] == {"error": 'a request must be a JSON object with an "op"'}
    assert answers[7] == {"error": "'arrange' needs \"cards\""}
    assert answers[8] == {"error": "Card AS appears twice (positions 1 and 2)"}
    assert answers[9] == {"error": '"cards" must be a str, not 5'}
    assert answers[10] == {"error": "unknown field(s) for 'arrange': extra"}
    assert answers[11] == {"error": '"knocker_melds" must be a list of melds (lists of cards)'}
    assert answers[12] == {"error": '"knock_limit" must be a int, not True'}


def test_handle_request_gem_fields() -> None:
    answer = handle_request('{"op":"knock","knocker":"AS","defender":"2S","rules":"gem"}')
    assert "error" in answer
    assert "deck map" in answer["error"]


def test_subprocess() -> None:
    arrange = subprocess.run(
        [sys.executable, "-m", "engine", "arrange", "AS 2S 3S KD"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert arrange.returncode == 0
    assert arrange.stdout == "Melds:    AS 2S 3S\nDeadwood: KD = 10\n"
    batch = subprocess.run(
        [sys.executable, "-m", "engine", "batch"],
        input='{"op":"arrange","cards":"AS 2S 3S KD"}\n{"op":"nope"}\n',
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert batch.returncode == 0
    assert [json.loads(x) for x in batch.stdout.splitlines()][1]["error"].startswith("unknown op")
    bad = subprocess.run(
        [sys.executable, "-m", "engine", "frobnicate"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert bad.returncode == 2
    assert "invalid choice" in bad.stderr
    assert bad.stdout == ""


def test_help_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        main(["--help"])
    assert info.value.code == 0
    assert "batch" in capsys.readouterr().out


def test_module_entry_point_in_process(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(sys, "argv", ["engine", "arrange", "AS 2S 3S"])
    with pytest.raises(SystemExit) as info:
        runpy.run_module("engine", run_name="__main__")
    assert info.value.code == 0
    assert capsys.readouterr().out.startswith("Melds:    AS 2S 3S")


def test_knock_refuses_discarding_the_card_taken_from_the_discard_pile() -> None:
    """Seeds 000 and 004: the card taken from the discard pile cannot be the knock discard."""
    kept = KNOCKER.split()[0]
    code, out, _ = run(
        ["knock", "--knocker", KNOCKER, "--defender", DEFENDER, "--taken-from-discard", kept]
    )
    assert code == 0
    assert "= 20" in out
    code, _, err = run(
        ["knock", "--knocker", KNOCKER, "--defender", DEFENDER, "--taken-from-discard", "QH"]
    )
    assert code == 2
    assert "may not discard it on the same turn" in err
    answer = handle_request(
        f'{{"op":"knock","knocker":"{KNOCKER}","defender":"{DEFENDER}","taken_from_discard":"QH"}}'
    )
    assert "may not discard it on the same turn" in answer["error"]
