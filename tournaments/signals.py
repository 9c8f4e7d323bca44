"""What tournaments tells the apps above it (passes), which it does not import.

* ``registration_created`` (``registration``): a player was registered, inside the
  registration's transaction (a receiver writing rows is part of it; mail goes after commit).
* ``round_paired`` (``round``): a round's matches are stored, inside the pairing's transaction.
* ``console_notes`` (``event``): each receiver returns lines (``list[str]``) for the director's
  console; read them with :func:`console_notes_for`.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal

registration_created = Signal()
round_paired = Signal()
console_notes = Signal()


def console_notes_for(*, event: Any) -> list[str]:
    """The lines the apps above tournaments add to ``event``'s console."""
    lines: list[str] = []
    for _receiver, response in console_notes.send(sender=type(event), event=event):
        if isinstance(response, list):
            lines.extend(str(line) for line in response)
    return lines
