"""The card picker's preview words its formula in the reader's language, as the entry reads once
submitted ("수비자 46 − 노커 4 = 42", never "defender 46 − knocker 4 = 42" on a Korean page)."""

from __future__ import annotations

import ast
import html
import inspect
import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import cache
from django.test import Client
from rest_framework.test import APIClient

from engine.rules import find_rules
from engine.scoring import outcome
from engine.scoring.outcome import FORMULA_TEMPLATES
from scoring.services import match_link_token
from tests.clubs.factories import PlayerFactory
from tests.scoring.factories import MatchFactory
from tests.support import requires
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

KNOCKER = "AS 2S 3S 5H 6H 7H 9S 9D 9C KC"
DEFENDER = "8H 9H KS KH KD 2C 3C QS JD 5C"
PICKER_JS = Path(settings.BASE_DIR) / "static" / "js" / "picker.js"


@pytest.fixture(autouse=True)
def _fresh_throttle() -> None:
    cache.clear()


def _match() -> Any:
    event = EventFactory(rules=find_rules("standard").to_dict(), confirmation="opponent")
    players = [PlayerFactory(club=event.club, name=n) for n in ("Alice", "Bob")]
    return MatchFactory(event=event, players=players, table_number=3)


def _picker_texts(match: Any, language: str) -> dict[str, Any]:
    token = match_link_token(match=match, position=0)
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    page = client.get(f"/matches/{match.pk}/?k={token}", follow=True).content.decode()
    found = re.search(r'<script id="picker-texts" type="application/json">(.*?)</script>', page)
    assert found is not None, "the page offers the card picker"
    return json.loads(html.unescape(found.group(1)))


def _preview(match: Any) -> dict[str, Any]:
    client = APIClient()
    client.credentials(HTTP_X_MATCH_KEY=match_link_token(match=match, position=0))
    body = {"knocker": 0, "knocker_cards": KNOCKER, "defender_cards": DEFENDER}
    response = client.post(f"/api/matches/{match.pk}/hands/preview/", body, format="json")
    assert response.status_code == 200, response.content
    return response.json()["verdict"]


def test_every_template_a_formula_is_built_of_is_given_to_the_page() -> None:
    source = inspect.getsource(outcome.formula_text)
    used = {
        node.args[0].value
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "gettext_noop"
    }
    assert used
    assert used <= set(FORMULA_TEMPLATES)


def test_the_korean_page_gives_the_picker_the_formulas_words() -> None:
    match = _match()
    korean = _picker_texts(match, "ko")["formulas"]
    assert korean["defender {defender} − knocker {knocker}"] == "수비자 {defender} − 노커 {knocker}"
    assert korean["gin"] == "진"
    english = _picker_texts(match, "en")["formulas"]
    assert english["defender {defender} − knocker {knocker}"].startswith("defender")


@requires(shutil.which("node"), "Node.js")
def test_the_picker_words_the_previews_formula_in_korean() -> None:
    match = _match()
    verdict = _preview(match)
    assert verdict["formula"].startswith("defender ")  # the API's English text
    script = PICKER_JS.read_text(encoding="utf-8")
    found = re.search(r"  function wordMessage\(message, words\) \{.*?\n  \}\n", script, re.S)
    assert found is not None, "picker.js words a formula message"
    words = _picker_texts(match, "ko")["formulas"]
    program = (
        found.group(0)
        + f"process.stdout.write(wordMessage({json.dumps(verdict['formula_message'])}, "
        + f"{json.dumps(words)}));"
    )
    run = subprocess.run(["node", "-e", program], capture_output=True, text=True, check=True)
    assert run.stdout.startswith("수비자 ")
    assert " − 노커 " in run.stdout
    assert "defender" not in run.stdout
    assert "knocker" not in run.stdout
