"""What tournaments tells the apps above it (entries, passes), which it does not import.

* ``registration_created`` (``registration``): a player was registered, inside the
  registration's transaction (a receiver writing rows is part of it; mail goes after commit).
* ``registration_dropped`` (``registration``): a player dropped out, inside the drop's
  transaction, after their open matches were decided (the waiting list moves up).
* ``round_paired`` (``round``, ``players``): a round's matches are stored, inside the pairing's
  transaction. ``players`` is None when the whole round was paired (Swiss, round robin), else the
  ids of the players just seated in it (a bracket seats a match once both players are known).
* ``console_notes`` (``event``): each receiver returns lines (``list[str]``) for the director's
  console; read them with :func:`console_notes_for`.
* ``event_page_extras`` (``event``, ``page``): each receiver returns names (a ``dict``) for the
  template of an event's ``page`` (``"console"``, ``"event-detail"``); read them with
  :func:`event_page_extras_for`.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import Signal

registration_created = Signal()
registration_dropped = Signal()
round_paired = Signal()
console_notes = Signal()
event_page_extras = Signal()


def console_notes_for(*, event: Any) -> list[str]:
    """The lines the apps above tournaments add to ``event``'s console."""
    lines: list[str] = []
    for _receiver, response in console_notes.send(sender=type(event), event=event):
        if isinstance(response, list):
            lines.extend(str(line) for line in response)
    return lines


def event_page_extras_for(*, event: Any, page: str) -> dict[str, Any]:
    """What the apps above tournaments add to the context of ``event``'s ``page``."""
    extras: dict[str, Any] = {}
    for _receiver, response in event_page_extras.send(sender=type(event), event=event, page=page):
        if isinstance(response, dict):
            extras.update(response)
    return extras
