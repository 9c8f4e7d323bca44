"""Command line for the engine: ``python -m engine arrange|discard|knock|batch``.

The only engine module that does I/O. ``arrange``, ``discard`` and ``knock`` print a readable
answer; ``batch`` reads JSON Lines requests on stdin and writes one JSON line per request, in
order, so other programs (and the benchmark) can drive the engine. A bad request in a batch
answers ``{"error": "..."}`` on its line and the batch goes on; blank lines are skipped. Exit
status: 0, or 2 with a message on stderr for a usage error or an entry the engine refuses.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Mapping, Sequence
from typing import Any, NoReturn, TextIO

from engine.arrange import Arrangement, best_arrangement
from engine.cards import format_card, format_cards, parse_cards
from engine.discard import best_discard
from engine.errors import EngineError, gettext_noop
from engine.melds import Meld
from engine.rules import find_rules
from engine.scoring import HandResult, score_hand

__all__ = ["batch", "handle_request", "main"]


class _UsageError(Exception):
    """A command line the parser cannot use."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:
        raise _UsageError(f"{self.prog}: {message}")


def _melds_json(melds: Sequence[Meld]) -> list[list[str]]:
    return [[format_card(card) for card in meld.cards] for meld in melds]


def _cards_json(cards: Sequence[int]) -> list[str]:
    return [format_card(card) for card in cards]


def _arrangement_json(arrangement: Arrangement) -> dict[str, Any]:
    return {
        "deadwood": arrangement.deadwood,
        "melds": _melds_json(arrangement.melds),
        "deadwood_cards": _cards_json(arrangement.deadwood_cards),
    }


def _hand_json(result: HandResult) -> dict[str, Any]:
    return {
        "outcome": result.outcome.value,
        "winner": result.winner,
        "points": result.points,
        "knocker_deadwood": result.knocker_deadwood,
        "defender_deadwood": result.defender_deadwood,
        "defender_deadwood_without_layoffs": result.defender_deadwood_without_layoffs,
        "knock_limit": result.knock_limit,
        "multiplier": result.multiplier,
        "knocker_melds": _melds_json(result.knocker_melds),
        "knocker_deadwood_cards": _cards_json(result.knocker_deadwood_cards),
        "layoffs": [
            {
                "card": format_card(layoff.card),
                "onto": _cards_json(result.knocker_melds[layoff.meld_index].cards),
            }
            for layoff in result.layoffs
        ],
        "defender_melds": _melds_json(result.defender_melds),
        "defender_deadwood_cards": _cards_json(result.defender_deadwood_cards),
    }


def _field(request: Mapping[str, Any], name: str, kind: type, required: bool = True) -> Any:
    if name not in request:
        if required:
            raise EngineError(
                gettext_noop("'{op}' needs \"{name}\""), op=str(request.get("op")), name=name
            )
        return None
    value = request[name]
    if not isinstance(value, kind) or isinstance(value, bool) != (kind is bool):
        raise EngineError(
            gettext_noop('"{name}" must be a {kind}, not {value}'),
            name=name,
            kind=kind.__name__,
            value=repr(value),
        )
    return value


def _cards_field(request: Mapping[str, Any], name: str) -> tuple[int, ...]:
    value = request.get(name)
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return parse_cards(value)
    return parse_cards(_field(request, name, str))


def _op_arrange(request: Mapping[str, Any]) -> dict[str, Any]:
    return _arrangement_json(best_arrangement(_cards_field(request, "cards")))


def _op_discard(request: Mapping[str, Any]) -> dict[str, Any]:
    result = best_discard(_cards_field(request, "cards"))
    return {
        "deadwood_after_best_discard": result.deadwood_after_best_discard,
        "best_discards": _cards_json(result.best_discards),
        "big_gin": result.big_gin,
        "deadwood_no_discard": result.deadwood_no_discard,
    }


def _op_knock(request: Mapping[str, Any]) -> dict[str, Any]:
    rules = find_rules(_field(request, "rules", str, required=False) or "standard")
    melds = request.get("knocker_melds")
    if melds is not None and not (
        isinstance(melds, str)
        or (isinstance(melds, list) and all(isinstance(m, (list, str)) for m in melds))
    ):
        raise EngineError(gettext_noop('"knocker_melds" must be a list of melds (lists of cards)'))
    result = score_hand(
        rules,
        knocker_cards=_cards_field(request, "knocker"),
        defender_cards=_cards_field(request, "defender"),
        knocker_melds=melds,
        upcard=_field(request, "upcard", str, required=False),
        knock_limit=_field(request, "knock_limit", int, required=False),
        taken_from_discard=_field(request, "taken_from_discard", str, required=False),
    )
    return _hand_json(result)


_OPS: dict[str, tuple[Callable[[Mapping[str, Any]], dict[str, Any]], frozenset[str]]] = {
    "arrange": (_op_arrange, frozenset({"op", "cards"})),
    "discard": (_op_discard, frozenset({"op", "cards"})),
    "knock": (
        _op_knock,
        frozenset(
            {
                "op",
                "knocker",
                "defender",
                "knocker_melds",
                "rules",
                "upcard",
                "knock_limit",
                "taken_from_discard",
            }
        ),
    ),
}


def handle_request(line: str) -> dict[str, Any]:
    """Answer one JSON Lines request; every failure becomes ``{"error": message}``.

    >>> handle_request('{"op": "arrange", "cards": "AS 2S 3S KD"}')
    {'deadwood': 10, 'melds': [['AS', '2S', '3S']], 'deadwood_cards': ['KD']}
    >>> handle_request('{"op": "shuffle"}')
    {'error': "unknown op 'shuffle'; known: arrange, discard, knock"}
    """
    try:
        request = json.loads(line)
    except json.JSONDecodeError as exc:
        return {"error": f"bad JSON: {exc}"}
    if not isinstance(request, dict):
        return {"error": 'a request must be a JSON object with an "op"'}
    op = request.get("op")
    if op not in _OPS:
        return {"error": f"unknown op {op!r}; known: {', '.join(_OPS)}"}
    handler, allowed = _OPS[op]
    unknown = sorted(k for k in request if k not in allowed)
    if unknown:
        return {"error": f"unknown field(s) for '{op}': {', '.join(unknown)}"}
    try:
        return handler(request)
    except EngineError as exc:
        return {"error": str(exc)}


def batch(stdin: TextIO, stdout: TextIO) -> None:
    """Answer every non-blank line of ``stdin`` on ``stdout``, one JSON line each, in order."""
    for line in stdin:
        if line.strip():
            stdout.write(json.dumps(handle_request(line), ensure_ascii=False) + "\n")
            stdout.flush()


def _parser() -> _Parser:
    parser = _Parser(prog="python -m engine", description="Knock's gin rummy engine.")
    commands = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    arrange = commands.add_parser("arrange", help="best melds and deadwood of a hand")
    arrange.add_argument("cards", help='cards, e.g. "AS 2S 3S 7H 7D 7C KC 4D"')
    discard = commands.add_parser("discard", help="best discard from 11 cards")
    discard.add_argument("cards")
    knock = commands.add_parser("knock", help="score a knock")
    knock.add_argument("--knocker", required=True, help="knocker's cards after the discard")
    knock.add_argument("--defender", required=True, help="defender's cards")
    knock.add_argument("--knocker-melds", help='e.g. "AS 2S 3S|7H 7D 7C" (default: best choice)')
    knock.add_argument("--rules", default="standard", help="rule set preset (default standard)")
    knock.add_argument("--upcard", help="the upcard (Oklahoma)")
    knock.add_argument("--knock-limit", type=int, help="the knock-limit die (Gem)")
    knock.add_argument(
        "--taken-from-discard",
        help="the card the knocker took from the discard pile (it may not be the discard)",
    )
    commands.add_parser("batch", help="JSON Lines requests on stdin, one answer line each")
    return parser


def _run(args: argparse.Namespace, stdin: TextIO, stdout: TextIO) -> None:
    if args.command == "arrange":
        arrangement = best_arrangement(parse_cards(args.cards))
        melds = " | ".join(str(meld) for meld in arrangement.melds) or "none"
        stdout.write(f"Melds:    {melds}\n")
        left = format_cards(arrangement.deadwood_cards) or "none (gin)"
        stdout.write(f"Deadwood: {left} = {arrangement.deadwood}\n")
    elif args.command == "discard":
        discard = best_discard(parse_cards(args.cards))
        stdout.write(
            f"Discard {' or '.join(_cards_json(discard.best_discards))}: "
            f"deadwood {discard.deadwood_after_best_discard} left\n"
        )
        if discard.big_gin:
            stdout.write("Big gin: every card melds without a discard\n")
    elif args.command == "knock":
        result = score_hand(
            find_rules(args.rules),
            knocker_cards=args.knocker,
            defender_cards=args.defender,
            knocker_melds=args.knocker_melds,
            upcard=args.upcard,
            knock_limit=args.knock_limit,
            taken_from_discard=args.taken_from_discard,
        )
        stdout.write(result.explain() + "\n")
    else:
        batch(stdin, stdout)


def main(
    argv: Sequence[str] | None = None,
    *,
    stdin: TextIO | None = None,
    stdout: TextIO | None = None,
    stderr: TextIO | None = None,
) -> int:
    """Run the command line; returns the exit status (0, or 2 with a message on stderr)."""
    err = stderr or sys.stderr
    try:
        args = _parser().parse_args(argv)
        _run(args, stdin or sys.stdin, stdout or sys.stdout)
    except _UsageError as exc:
        err.write(f"{exc}\n")
        return 2
    except EngineError as exc:
        err.write(f"error: {exc}\n")
        return 2
    return 0
