"""The club night in docs/api.md, run as written against a live server, prints what the guide
says it prints (ids aside)."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.clubs.factories import UserFactory

ROOT = Path(__file__).resolve().parents[2]
GUIDE = ROOT / "docs" / "api.md"

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(
        not all(shutil.which(tool) for tool in ("bash", "curl", "jq")),
        reason="the guide's club night needs bash, curl and jq",
    ),
]


def _club_night() -> str:
    text = GUIDE.read_text(encoding="utf-8")
    section = text.split("## A club night, start to finish, in `curl`", 1)[1]
    return section.split("```sh\n", 1)[1].split("```", 1)[0]


def _ids(line: str) -> str:
    return re.sub(r'"id":\d+', '"id":N', line)


def test_the_guides_club_night_runs_as_written(live_server):
    UserFactory(username="director", password="knock-demo")
    script = _club_night()
    expected = [
        _ids(line[2:]) for line in script.splitlines() if re.fullmatch(r"# ([\[{].*|\d+)", line)
    ]
    assert len(expected) == 7
    script = script.replace("KNOCK=http://127.0.0.1:8000", f"KNOCK={live_server.url}", 1)
    run = subprocess.run(
        ["bash", "-euo", "pipefail", "-c", script],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    assert [_ids(line) for line in run.stdout.splitlines()] == expected


def test_the_guides_club_night_stops_loudly_at_a_refused_request(live_server):
    """A production server without the demo account (or a wrong password): the block stops at
    its first request, with curl's error, instead of going on and printing 403s."""
    UserFactory(username="director", password="not-the-demo-password")
    script = _club_night().replace("KNOCK=http://127.0.0.1:8000", f"KNOCK={live_server.url}", 1)
    run = subprocess.run(["bash", "-c", script], capture_output=True, text=True, timeout=120)
    assert run.returncode != 0
    assert "curl: (22)" in run.stderr, run.stderr
    assert "400" in run.stderr, run.stderr
    assert run.stdout == ""
