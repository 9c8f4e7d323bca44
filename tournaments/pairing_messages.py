"""The words for a round that cannot be paired, from the reason stored as data.

Pure wording (no database, no model): ``Round.error_message()`` and the round services give it
the blocked player's name, so that each reader sees a stored failure in their own language.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from core.i18n import with_particles


def pairing_error_text(
    *, number: int, code: str, params: Mapping[str, Any], player_name: str | None
) -> str:
    """Why round ``number`` cannot be paired (``code`` and ``params`` of a ``PairingError``);
    ``player_name`` names the blocked player, when there is one."""
    if code == "player_blocked":
        return with_particles(
            _(
                "Round %(number)s cannot be paired: %(player)s has already played, or may not "
                "play, every other player present. Allow a rematch, lift a forbidden pair or give "
                "them a bye."
            )
            % {
                "number": number,
                "player": player_name if player_name is not None else params.get("player"),
            }
        )
    if code == "no_pairing":
        return _(
            "Round %(number)s cannot be paired: no pairing of the %(count)s players avoids "
            "every rematch and hard-forbidden pair. Allow a rematch, lift a forbidden pair or "
            "give a bye."
        ) % {"number": number, "count": params.get("players")}
    return _("Round %(number)s cannot be paired.") % {"number": number}
