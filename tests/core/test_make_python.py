"""make picks a supported Python, says which, and rebuilds a venv another Python made."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")


def make(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["make", "--no-print-directory", "-n", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "MAKEFLAGS": ""},
    )


def test_find_python_prints_a_supported_interpreter():
    found = subprocess.run(
        [str(ROOT / "scripts" / "find-python")], capture_output=True, text=True, check=True
    ).stdout.strip()
    version = subprocess.run(
        [found, "-c", "import sys; print(sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    assert version in {"(3, 11)", "(3, 12)", "(3, 13)"}


def test_make_refuses_a_python_out_of_range():
    result = make("install", "PYTHON=false")
    assert result.returncode != 0
    assert "false is not a supported Python: Knock needs Python 3.11, 3.12 or 3.13" in (
        result.stderr
    )


def test_a_venv_made_by_another_python_is_rebuilt_from_scratch(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / ".made-by-python-3.10.13").touch()  # made by a Python Knock does not support
    (venv / ".installed").touch()
    result = make("install", f"PYTHON={sys.executable}", f"VENV={venv}")
    assert result.returncode == 0, result.stderr
    assert f"using Python {platform.python_version()} {sys.executable}" in result.stdout
    plan = result.stdout.splitlines()
    assert plan.index(f"rm -rf {venv}") < plan.index(f"{sys.executable} -m venv {venv}")
    assert any(line.endswith("install --quiet -e .") for line in plan)


def test_a_venv_made_by_this_python_and_installed_is_kept(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / f".made-by-python-{platform.python_version()}").touch()
    time.sleep(0.01)
    (venv / ".installed").touch()
    os.utime(venv / ".installed", (time.time() + 5, time.time() + 5))
    result = make("install", f"PYTHON={sys.executable}", f"VENV={venv}")
    assert result.returncode == 0, result.stderr
    assert "rm -rf" not in result.stdout
    assert "-m venv" not in result.stdout


def test_a_failed_install_is_retried_not_trusted(tmp_path):
    venv = tmp_path / "venv"
    venv.mkdir()
    (venv / f".made-by-python-{platform.python_version()}").touch()  # venv made, no install stamp
    result = make("install", f"PYTHON={sys.executable}", f"VENV={venv}")
    assert result.returncode == 0, result.stderr
    assert "rm -rf" not in result.stdout
    assert any(line.endswith("install --quiet -e .") for line in result.stdout.splitlines())
