"""Engine errors carry a translatable template and params that reproduce the English message."""

from __future__ import annotations

import ast
import pickle
import string
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from engine.cards import parse_card, parse_cards
from engine.errors import (
    CardError,
    EngineError,
    KnockError,
    MeldError,
    Message,
    RuleError,
    ScoreError,
    gettext_noop,
    joined,
)
from engine.game import MatchFormat, ScoredHand, three_box_roles
from engine.gem import DeckMap, diamond_card
from engine.layoff import validate_knocker_melds
from engine.melds import Meld
from engine.rules import RuleSet, find_rules
from engine.rummy import score_rummy_hand
from engine.scoring import (
    HandOutcome,
    check_claim,
    score_hand,
    score_hand_counts,
)

ENGINE = Path(__file__).resolve().parents[2] / "engine"
SOURCES = sorted(ENGINE.rglob("*.py"))
ERROR_NAMES = {"EngineError", "CardError", "MeldError", "KnockError", "RuleError", "ScoreError"}


def _calls(name_test: Callable[[str], bool]) -> Iterator[tuple[Path, ast.Call]]:
    for path in SOURCES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and name_test(node.func.id)
            ):
                yield path, node


def _templates() -> set[str]:
    """Every template literal the engine marks with ``gettext_noop``."""
    found: set[str] = set()
    for _, call in _calls(lambda name: name == "gettext_noop"):
        (arg,) = call.args
        assert isinstance(arg, ast.Constant)
        assert isinstance(arg.value, str)
        found.add(arg.value)
    return found


TEMPLATES = _templates()


def _fields(template: str) -> list[str | None]:
    return [field for _, field, _, _ in string.Formatter().parse(template)]


def _check(message: Message) -> None:
    """The template is marked, formats to the text, and so does every nested message."""
    assert message.template in TEMPLATES, message.template
    assert str(message) == message.template.format(**message.params)
    for value in message.params.values():
        assert value is None or isinstance(value, str | int | Message)
        if isinstance(value, Message):
            _check(value)


# -- the error and message types ------------------------------------------------------------


def test_template_and_params_reproduce_the_message() -> None:
    error = KnockError(
        gettext_noop("Knock over the limit: deadwood {deadwood} > {limit} ({limit_text})"),
        deadwood=12,
        limit=10,
        limit_text=Message(gettext_noop("limit {limit}"), limit=10),
    )
    assert str(error) == "Knock over the limit: deadwood 12 > 10 (limit 10)"
    assert error.template.startswith("Knock over the limit: deadwood {deadwood}")
    assert error.params["deadwood"] == 12
    assert str(error) == error.template.format(**error.params)
    assert error.args == (str(error),)
    assert isinstance(error, ValueError)
    assert all(issubclass(e, EngineError) for e in (CardError, MeldError, RuleError, ScoreError))


def test_a_plain_message_still_works_and_its_braces_are_text() -> None:
    error = EngineError("{'op': 1} is not a request")
    assert str(error) == "{'op': 1} is not a request"
    assert error.template == "{'op': 1} is not a request"
    assert error.params == {}


def test_an_error_takes_a_ready_message_but_not_a_message_and_params() -> None:
    message = Message(gettext_noop("card {card} appears twice"), card="AS")
    assert str(CardError(message)) == "Card AS appears twice"
    assert CardError(message).message is message
    with pytest.raises(TypeError, match="not both"):
        CardError(message, card="KS")


def test_message_repr_and_json_form() -> None:
    inner = Message(gettext_noop("limit {limit}"), limit=10)
    outer = Message(gettext_noop("({limit_text})"), limit_text=inner)
    assert repr(inner) == "Message('limit {limit}', **{'limit': 10})"
    assert outer.as_dict() == {
        "template": "({limit_text})",
        "params": {"limit_text": {"template": "limit {limit}", "params": {"limit": 10}}},
    }


def test_joined() -> None:
    template = gettext_noop("{first}; {rest}")
    assert joined(template, []) == ""
    assert joined(template, ["a"]) == "a"
    three = joined(template, ["a", 2, Message(gettext_noop("none"))])
    assert isinstance(three, Message)
    assert str(three) == "a; 2; none"
    assert three.params["first"] == "a"


def test_errors_survive_pickling_with_their_params() -> None:
    error = CardError(gettext_noop("card {card} appears twice"), card="AS")
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), str(copy), copy.template, copy.params) == (
        CardError,
        "Card AS appears twice",
        "card {card} appears twice",
        {"card": "AS"},
    )


# -- the sources: every template is marked ---------------------------------------------------


def _stringy(node: ast.expr) -> bool:
    """A literal, an f-string, a concatenation, or text made by ``str``/``format``/``join``."""
    if isinstance(node, ast.Constant | ast.JoinedStr | ast.BinOp):
        return True
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (isinstance(func, ast.Name) and func.id == "str") or (
        isinstance(func, ast.Attribute) and func.attr in ("format", "join")
    )


def test_every_template_is_a_marked_literal() -> None:
    """No error or message is built from an unmarked literal, an f-string or a concatenation."""
    unmarked = []
    for path, call in _calls(lambda name: name in ERROR_NAMES or name == "Message"):
        where = f"{path.name}:{call.lineno}"
        if not call.args:
            unmarked.append(f"{where}: no template")
        elif _stringy(call.args[0]):
            unmarked.append(f"{where}: {ast.unparse(call.args[0])[:60]}")
    assert unmarked == []


def test_marked_templates_are_plain_literals_with_named_placeholders() -> None:
    for _, call in _calls(lambda name: name == "gettext_noop"):
        assert len(call.args) == 1
        assert not call.keywords
        assert isinstance(call.args[0], ast.Constant)
        assert isinstance(call.args[0].value, str)
    for template in TEMPLATES:
        for _, field, spec, conversion in string.Formatter().parse(template):
            if field is not None:
                assert field.isidentifier(), (template, field)
                assert not spec, template
                assert conversion is None, template
    assert len(TEMPLATES) > 150


def test_params_are_values_not_english_text() -> None:
    """Params carry values and nested messages: no f-string, and an inner error goes in as its
    message (``exc.message``), never as its English ``str``."""
    found = []
    for path, call in _calls(lambda name: name in ERROR_NAMES or name == "Message"):
        for keyword in call.keywords:
            for node in ast.walk(keyword.value):
                if isinstance(node, ast.JoinedStr):
                    found.append(f"{path.name}:{call.lineno}: {keyword.arg} is an f-string")
            if isinstance(keyword.value, ast.Name) and keyword.value.id == "exc":
                found.append(f"{path.name}:{call.lineno}: {keyword.arg} is an error")
    assert found == []


# -- raised errors: templates and params reproduce every message -----------------------------

STANDARD = find_rules("standard")
KNOCKER = "AS 2S 3S 5H 6H 7H 9S 9D 9C KC"
DEFENDER = "8H 9H KS KH KD 2C 3C QS JD 5C"


def _knock(**kwargs: object) -> object:
    return score_hand_counts(STANDARD, outcome=HandOutcome.KNOCK, **kwargs)


RAISERS: list[tuple[str, Callable[[], object]]] = [
    ("card token", lambda: parse_card("1S")),
    ("card twice", lambda: parse_cards("AS AS")),
    ("card count", lambda: parse_cards("AS", counts=(2, 3))),
    ("meld", lambda: Meld.parse("QS KS AS")),
    (
        "meld knocker",
        lambda: validate_knocker_melds(parse_cards(KNOCKER), [Meld.parse("9H 9S 9D")]),
    ),
    ("rules kind", lambda: RuleSet(gin_bonus="x")),
    ("rules one of", lambda: RuleSet(family="poker")),
    ("rules limit", lambda: RuleSet(knock_limit="moon")),
    ("rules preset", lambda: find_rules("canasta")),
    ("deck map", lambda: DeckMap(())),
    ("diamond", lambda: diamond_card(9)),
    ("over the limit", lambda: _knock(knocker_deadwood=12, defender_deadwood=30)),
    ("negative count", lambda: _knock(knocker_deadwood=-1, defender_deadwood=30)),
    ("whole count", lambda: _knock(knocker_deadwood="7", defender_deadwood=30)),
    ("undercut", lambda: _knock(knocker_deadwood=9, defender_deadwood=2)),
    ("wrong winner", lambda: _knock(knocker_deadwood=5, defender_deadwood=20, winner="defender")),
    (
        "gin claimed",
        lambda: score_hand_counts(
            STANDARD, outcome=HandOutcome.GIN, knocker_deadwood=3, defender_deadwood=20
        ),
    ),
    (
        "okla limit",
        lambda: score_hand_counts(
            find_rules("oklahoma"),
            outcome=HandOutcome.KNOCK,
            knocker_deadwood=5,
            defender_deadwood=20,
            upcard=parse_card("3H"),
        ),
    ),
    ("by cards hand", lambda: score_hand(STANDARD, knocker_cards="AS XX", defender_cards=DEFENDER)),
    ("by cards count", lambda: score_hand(STANDARD, knocker_cards="AS", defender_cards=DEFENDER)),
    (
        "by cards upcard",
        lambda: score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER, upcard="ZZ"),
    ),
    (
        "by cards melds",
        lambda: score_hand(
            STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER, knocker_melds="AS 2S 5H"
        ),
    ),
    (
        "by cards over",
        lambda: score_hand(
            STANDARD,
            knocker_cards="AS 2S 3S 5H 6H 7H 9S 9D KC QC",
            defender_cards=DEFENDER,
            knocker_melds="AS 2S 3S",
        ),
    ),
    ("box roles", lambda: three_box_roles((0, 1, 2), [2])),
    ("match format", lambda: MatchFormat("best_of", games=4)),
    ("scored hand", lambda: ScoredHand(None, 5, HandOutcome.DEAD)),
    (
        "rummy missing",
        lambda: score_rummy_hand(
            find_rules("rummy"), players=4, went_out=0, rummy=False, leftovers={1: 5}
        ),
    ),
    (
        "claims",
        lambda: check_claim(
            score_hand(STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER),
            claimed_outcome=HandOutcome.UNDERCUT,
            claimed_knocker_deadwood=8,
            claimed_defender_deadwood=47,
            claimed_winner="defender",
            claimed_points=25,
        ),
    ),
]


@pytest.mark.parametrize(("name", "raiser"), RAISERS, ids=[name for name, _ in RAISERS])
def test_raised_errors_use_marked_templates_that_reproduce_the_text(
    name: str, raiser: Callable[[], object]
) -> None:
    with pytest.raises(EngineError) as info:
        raiser()
    _check(info.value.message)


def test_nested_error_keeps_the_inner_template() -> None:
    with pytest.raises(MeldError) as info:
        score_hand(
            STANDARD, knocker_cards=KNOCKER, defender_cards=DEFENDER, knocker_melds="AS 2S 5H"
        )
    error = info.value
    assert error.template == "Knocker's melds: {reason}"
    reason = error.params["reason"]
    assert isinstance(reason, Message)
    assert (
        reason.template
        == "{cards} is not a meld: not a set ({set_reason}), not a run ({run_reason})"
    )
    assert str(error) == f"Knocker's melds: {reason}"
    assert str(error).startswith("Knocker's melds: AS 2S 5H is not a meld: not a set (")


def test_nested_game_error_and_the_outcome_words() -> None:
    with pytest.raises(ScoreError) as info:
        three_box_roles((0, 1, 2), [0, None, 1])
    error = info.value
    assert str(error) == "Hand 3: Player 1 is the sitter and cannot win the hand"
    assert error.template == "Hand {number}: {reason}"
    assert error.params["reason"].params == {"player": 1}
    for outcome in HandOutcome:
        assert str(outcome.label_message) == outcome.label
        assert str(outcome.capital_message) == outcome.label.capitalize()


def test_claimed_knocker_deadwood_by_counts_and_the_joined_problems() -> None:
    result = _knock(knocker_deadwood=7, defender_deadwood=22)
    with pytest.raises(ScoreError) as info:
        check_claim(result, claimed_knocker_deadwood=8, claimed_points=16)
    assert str(info.value) == (
        "The knocker's deadwood is 7, not 8; "
        "The knocker scores 15, not 16: defender 22 − knocker 7 = 15"
    )
    assert info.value.template == "{first}; {rest}"
    _check(info.value.message)
