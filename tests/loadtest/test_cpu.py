"""The load test's CPU accounting: the CPU seconds each kind of process under the roots used."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from loadtest.__main__ import CpuSampler

pytestmark = pytest.mark.skipif(not Path("/proc").is_dir(), reason="reads processes from /proc")

BURN = (
    "import sys, time\n"
    "sys.stdin.readline()\n"
    "t = time.process_time()\n"
    "while time.process_time() - t < 0.6: pass\n"
    "print('burnt', flush=True)\n"
    "sys.stdin.readline()\n"
)


def _measure_a_burn(name: str, *, rooted: bool) -> dict[str, float]:
    """What ``CpuSampler`` counts while a child named ``name`` burns 0.6 CPU seconds; the child is
    one of the run's roots (as the server is) or not (as a database server on the machine)."""
    cpu = CpuSampler()
    # It burns once the start is sampled, and stays until the end is (as the server does).
    child = subprocess.Popen(
        [sys.executable, "-c", BURN, name],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert child.stdin is not None
    assert child.stdout is not None
    try:
        cpu.begin(*([child.pid] if rooted else []))
        child.stdin.write("go\n")
        child.stdin.flush()
        assert child.stdout.readline().strip() == "burnt"
        return cpu.end()
    finally:
        child.stdin.write("done\n")
        child.stdin.close()
        child.wait(timeout=30)


def test_the_cpu_a_child_burns_is_counted_under_its_kind_and_none_before_the_start():
    # Named like the web server's command line.
    used = _measure_a_burn("gunicorn", rooted=True)
    assert set(used) <= {"web", "other"}
    assert 0.5 <= used["web"] < 5.0, used
    cpu = CpuSampler()
    assert cpu._kind("python -m celery -A config worker") == "worker"
    assert cpu._kind("python -m celery -A config beat") == "beat"
    assert cpu._kind("python -m locust -f loadtest/locustfile.py") == "locust"
    assert cpu._kind("python manage.py serve") == "serve"


def test_cpu_burnt_outside_the_roots_is_the_machines_other_time():
    """A process the run did not start (a database server on the same machine) counts as other."""
    used = _measure_a_burn("postgres", rooted=False)
    assert set(used) == {"other"}
    assert used["other"] >= 0.5, used
