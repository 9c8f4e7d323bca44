"""Filters of a countdown: seconds as a clock reads them ("1:05:09", "4:07") and as minutes."""

from __future__ import annotations

from django import template

register = template.Library()


@register.filter(name="clock_time")
def clock_time(seconds: object) -> str:
    """Seconds left as h:mm:ss, or m:ss under an hour; nothing readable reads 0:00.

    static/js/clock.js writes the same form each second.
    """
    try:
        total = max(0, int(seconds))  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        total = 0
    hours, rest = divmod(total, 3600)
    minutes, secs = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{secs:02d}"
    return f"{minutes}:{secs:02d}"


@register.filter(name="minutes")
def minutes(seconds: object) -> int:
    """Whole minutes in ``seconds`` (rounded up: 90 s is 2 minutes), 0 if unreadable."""
    try:
        total = max(0, int(seconds))  # type: ignore[call-overload]
    except (TypeError, ValueError, OverflowError):
        return 0
    return -(-total // 60)
