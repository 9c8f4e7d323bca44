"""``python -m stack`` (``make stack``): the reference stack in the foreground until Ctrl-C or
SIGTERM. ``STACK_WORKERS`` sets gunicorn's processes (default: (2 x cores) + 1)."""

from __future__ import annotations

import os
import signal
import sys
import threading
from types import FrameType

from stack.launch import stack_describe, stack_start


def main() -> int:
    stop = threading.Event()

    def _stop(signum: int, frame: FrameType | None) -> None:
        stop.set()

    def _interrupt(signum: int, frame: FrameType | None) -> None:
        raise KeyboardInterrupt

    # While it starts, Ctrl-C or SIGTERM interrupts the start, which stops what it started.
    signal.signal(signal.SIGTERM, _interrupt)
    try:
        running = stack_start(workers=int(os.environ.get("STACK_WORKERS", "0")))
    except KeyboardInterrupt:
        print("stack: interrupted while starting; stopped", flush=True)
        return 130
    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    dead: list[str] = []
    try:
        print(stack_describe(running), flush=True)
        while not stop.wait(1.0):
            dead = running.dead()
            if dead:
                print(f"stack: {', '.join(dead)} stopped; see {running.workdir / 'logs'}")
                break
    finally:
        print("stack: stopping", flush=True)
        running.stop()
        print("stack: stopped", flush=True)
    return 1 if dead else 0


if __name__ == "__main__":
    sys.exit(main())
