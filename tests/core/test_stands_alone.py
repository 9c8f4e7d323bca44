"""A fresh clone works anywhere: nothing in the repository reads or links outside it."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# engine/ is checked by its own tests (its docstrings point at docs/rules.md).
CHECKED = ["README.md", "Makefile", "pyproject.toml", ".ci", "docs", "tests", "config", "core"]
CHECKED += ["clubs", "scoring", "tournaments", "bench", "templates", "scripts"]
OUTSIDE = re.compile(r"\.\./shared|/work/|shared/(vectors|seeds|RULES)")


def test_nothing_reads_or_links_outside_the_repository():
    listed = subprocess.run(
        ["git", "ls-files", "--", *CHECKED], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    assert listed
    offenders = []
    for name in listed:
        path = ROOT / name
        if path.suffix in {".png", ".mo", ".sqlite3"} or not path.is_file():
            continue
        text = path.read_text(encoding="utf-8", errors="replace")
        if path.name != "test_stands_alone.py" and OUTSIDE.search(text):
            offenders.append(name)
    assert not offenders, offenders


def test_every_link_between_the_docs_resolves_or_names_a_guide():
    guides = {p.name for p in (ROOT / "docs").glob("*.md")}
    # Guides written alongside this one (rules, security, operations) may land separately.
    expected = guides | {"rules.md", "security.md", "operations.md"}
    for doc in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        for target in re.findall(r"\]\(([^)#]+)\)", doc.read_text(encoding="utf-8")):
            if target.startswith(("http://", "https://")):
                continue
            resolved = (doc.parent / target).resolve()
            assert resolved.exists() or resolved.name in expected, (doc.name, target)
            assert ROOT in resolved.parents, (doc.name, target)
