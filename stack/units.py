"""What the deploy/ files say, read rather than repeated: a systemd unit's command line and the
environment example's variable names."""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
UNITS = ROOT / "deploy" / "systemd"
ENV_EXAMPLE = ROOT / "deploy" / "knock.env.example"
VENV_BIN = "/srv/knock/.venv/bin/"


def unit_command(unit: str, options: dict[str, str] | None = None) -> list[str]:
    """``ExecStart=`` of deploy/systemd/``unit`` as an argument list, its program taken from this
    Python's environment instead of /srv/knock/.venv, and each option named in ``options``
    (``{"--bind": "127.0.0.1:8123"}``) given that value instead of the unit's."""
    text = (UNITS / unit).read_text().replace("\\\n", " ")
    found = re.search(r"^ExecStart=(.+)$", text, re.MULTILINE)
    if found is None:
        raise RuntimeError(f"deploy/systemd/{unit} has no ExecStart=")
    argv = shlex.split(found[1])
    if argv[0].startswith(VENV_BIN):
        argv[0] = str(Path(sys.executable).parent / argv[0].removeprefix(VENV_BIN))
    for option, value in (options or {}).items():
        if option not in argv:
            raise RuntimeError(f"deploy/systemd/{unit}'s ExecStart= has no {option}")
        argv[argv.index(option) + 1] = value
    return argv


def env_example() -> tuple[dict[str, str], set[str]]:
    """deploy/knock.env.example: the values it sets, and every name it lists (set or commented
    out)."""
    values: dict[str, str] = {}
    names: set[str] = set()
    for line in ENV_EXAMPLE.read_text().splitlines():
        assignment = re.fullmatch(r"(#\s*)?([A-Z][A-Z0-9_]*)=(.*)", line.strip())
        if assignment is None:
            continue
        names.add(assignment[2])
        if not assignment[1]:
            values[assignment[2]] = assignment[3]
    return values, names
