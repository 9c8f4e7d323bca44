"""``make loadtest``: a club night of 50 tables and 200 spectators against a real ``serve``.

See :mod:`loadtest.__main__` for the driver and docs/live.md for what it measures and why.
"""
