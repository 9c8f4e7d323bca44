"""The club night in docs/api.md, run as written against a live server, prints what the guide
says it prints (ids aside)."""

from __future__ import annotations

import os
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
    blocks = [block.split("```", 1)[0] for block in section.split("```sh\n")[1:]]
    return next(block for block in blocks if block.startswith("set -euo pipefail"))


def _run(folder: Path, script: str, **env: str) -> subprocess.CompletedProcess[str]:
    """The block saved as club-night.sh and run as the guide says: `bash club-night.sh` with the
    site and the account in the environment."""
    path = folder / "club-night.sh"
    path.write_text(script, encoding="utf-8")
    environ = {k: v for k, v in os.environ.items() if not k.startswith("KNOCK")}
    return subprocess.run(
        ["bash", str(path)], capture_output=True, text=True, timeout=120, env=environ | env
    )


def _ids(line: str) -> str:
    return re.sub(r'"id":\d+', '"id":N', line)


def test_the_guides_club_night_runs_as_written(live_server, tmp_path):
    """On a production server: the site and the director's own account from the environment."""
    UserFactory(username="ines", password="a-production-password")
    script = _club_night()
    expected = [
        _ids(line[2:]) for line in script.splitlines() if re.fullmatch(r"# ([\[{].*|\d+)", line)
    ]
    assert len(expected) == 7
    run = _run(
        tmp_path,
        script,
        KNOCK=live_server.url,
        KNOCK_USER="ines",
        KNOCK_PASSWORD="a-production-password",
    )
    assert run.returncode == 0, run.stderr
    assert [_ids(line) for line in run.stdout.splitlines()] == expected


def test_the_guides_club_night_defaults_to_make_runs_demo_director(live_server, tmp_path):
    """Without an account in the environment it signs in as make run's demo director."""
    UserFactory(username="director", password="knock-demo")
    run = _run(tmp_path, _club_night(), KNOCK=live_server.url)
    assert run.returncode == 0, run.stderr
    assert run.stdout.splitlines()[-1] == "204"


def test_the_guides_club_night_stops_loudly_at_a_refused_request(live_server, tmp_path):
    """A production server without the demo account (or a wrong password): the block stops at
    its first request, with curl's error, instead of going on and printing 403s."""
    UserFactory(username="director", password="not-the-demo-password")
    run = _run(tmp_path, _club_night(), KNOCK=live_server.url)
    assert run.returncode != 0
    assert "curl: (22)" in run.stderr, run.stderr
    assert "400" in run.stderr, run.stderr
    assert run.stdout == ""
