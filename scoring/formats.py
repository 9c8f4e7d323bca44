"""Match formats as stored in ``Event.match_format`` / ``Match.match_format``.

A format is a JSON object read into the engine's :class:`engine.game.MatchFormat`:

- ``{"kind": "single_game"}``: one game to the rule set's target (the default);
- ``{"kind": "best_of", "games": 3}``: the first to win a majority of ``games`` (odd) games;
- ``{"kind": "hollywood"}``: one stream of hands feeding the rule set's Hollywood games
  (the ``hollywood`` preset, or any rule set with ``hollywood_games``);
- ``{"kind": "fixed_hands", "hands": 8}``: a fixed number of (non-dead) hands, highest total wins.

This module only reads and checks formats; it must not score.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.i18n import error_message
from core.parsing import strict_int
from engine.errors import RuleError
from engine.game import MatchFormat
from engine.rules import RuleSet


def match_format_read(*, data: Mapping[str, Any] | None, rules: RuleSet) -> MatchFormat:
    """The engine's format for ``data``, checked against ``rules`` (Hollywood needs both)."""
    raw = dict(data or {})
    if not raw:
        raw = {"kind": "hollywood"} if rules.hollywood_games else {"kind": "single_game"}
    unknown = sorted(set(raw) - {"kind", "games", "hands"})
    if unknown:
        raise ApplicationError(
            _("Unknown match format field(s): %(names)s") % {"names": ", ".join(unknown)},
            field="match_format",
        )
    try:
        fmt = MatchFormat(
            kind=str(raw.get("kind", "single_game")),
            games=strict_int(raw.get("games", 1)),
            hands=None if raw.get("hands") is None else strict_int(raw["hands"]),
        )
    except (RuleError, TypeError, ValueError) as exc:
        raise ApplicationError(error_message(exc), field="match_format") from None
    if (fmt.kind == "hollywood") != bool(rules.hollywood_games):
        raise ApplicationError(
            _(
                "A Hollywood match needs a Hollywood rule set, and a Hollywood rule set needs the "
                "Hollywood match format."
            ),
            field="match_format",
        )
    if rules.table == "three_box" and fmt.kind == "best_of" and fmt.games > 1:
        raise ApplicationError(
            _("An in-the-box table plays one game (or a fixed number of hands), not best of."),
            field="match_format",
        )
    return fmt


def match_format_dict(fmt: MatchFormat) -> dict[str, Any]:
    """The stored JSON of a format."""
    out: dict[str, Any] = {"kind": fmt.kind}
    if fmt.kind == "best_of":
        out["games"] = fmt.games
    if fmt.hands is not None:
        out["hands"] = fmt.hands
    return out
