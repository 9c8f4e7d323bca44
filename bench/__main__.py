"""``python -m bench`` (``make bench``): every benchmark, one after the other, in one run.

The engine is timed side by side with OpenSpiel and RLCard on the same hands; the tournament
benchmarks run on the database named by ``DATABASE_URL`` (``make bench`` points it at the local
PostgreSQL when one answers). Figures on a shared machine are noisy: read the ratios.
"""

from __future__ import annotations

import importlib
import sys
import time

SUITES = [
    "bench.engine_bench",
    "bench.pairing_bench",
    "bench.tournament_bench",
    "bench.national_bench",
    "bench.serve_bench",
]


def main(argv: list[str]) -> int:
    names = [f"bench.{a}" for a in argv] or SUITES
    failed = []
    for name in names:
        print(f"\n#### {name}", flush=True)
        started = time.perf_counter()
        module = importlib.import_module(name)
        code = module.main([])
        print(f"#### {name}: {time.perf_counter() - started:.1f} s", flush=True)
        if code:
            failed.append(name)
    if failed:
        print(f"targets missed in: {', '.join(failed)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
