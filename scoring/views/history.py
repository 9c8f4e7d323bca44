"""A hand's history as sentences in the reader's language ("Bao entered: Bao knocked with 5,
Cleo 20 — 15 points"), and the stored entry as the override form's starting values.

Each change says which credential made it: a change made with the table link reads "on the
table's phone" (one phone entering and confirming for both sides shows as such), the others
carry the credential's name (seat link, signed in, API token).

Reads what :func:`scoring.selectors.hand_history` returns; it never shows the IP address or user
agent a change came from (those stay in the admin).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from scoring.models import Credential, HandSubmission
from scoring.views.match_context import explanation_text


def _name(names: Mapping[int, str], position: object) -> str:
    if isinstance(position, int) and position in names:
        return names[position]
    return _("a player")


def verdict_sentence(result: Mapping[str, Any], names: Mapping[int, str]) -> str:
    """What the engine made of an entry, as one sentence: who knocked or went gin with how
    much, the other side's count, and the points."""
    outcome = result.get("outcome")
    points = result.get("points")
    if outcome == "dead":
        return _("Dead hand: no score")
    knocker = result.get("knocker")
    defender = result.get("defender")
    if defender is None and knocker is not None and len(names) == 2:
        defender = next(p for p in names if p != knocker)
    values = {
        "knocker": _name(names, knocker),
        "defender": _name(names, defender),
        "kd": result.get("knocker_deadwood"),
        "dd": result.get("defender_deadwood"),
        "points": points,
        "winner": _name(names, result.get("winner")),
    }
    two_sided = knocker is not None and defender is not None and values["kd"] is not None
    if two_sided and outcome == "knock":
        return (
            _("%(knocker)s knocked with %(kd)s, %(defender)s %(dd)s — %(points)s points") % values
        )
    if two_sided and outcome == "undercut":
        return (
            _(
                "%(knocker)s knocked with %(kd)s, %(defender)s undercut with %(dd)s — "
                "%(points)s points to %(defender)s"
            )
            % values
        )
    if two_sided and outcome == "gin":
        return _("%(knocker)s went gin, %(defender)s %(dd)s — %(points)s points") % values
    if two_sided and outcome == "big_gin":
        return _("%(knocker)s went big gin, %(defender)s %(dd)s — %(points)s points") % values
    if result.get("winner") is None:
        return _("No winner — %(points)s points") % values
    return _("%(winner)s won the hand — %(points)s points") % values


def _who(change: Mapping[str, Any]) -> str:
    return change.get("player") or change.get("user") or _("Someone")


def history_lines(history: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Every change of the hand as a sentence, oldest first: ``when``, ``version``, ``text``."""
    versions = {v["version"]: v for v in history["versions"]}
    lines = []
    for change in history["changes"]:
        version = versions.get(change["version"], {})
        verdict = verdict_sentence(version, names) if version else ""
        who = _who(change)
        status = change["status"]
        reason = str(change.get("reason") or "")
        values = {"who": who, "verdict": verdict, "n": change["version"]}
        via = change.get("via") or ""
        phone = via == Credential.TABLE_LINK
        if change["change"] == "created" and reason == "override":
            text = _("%(who)s corrected it (version %(n)s): %(verdict)s") % values
        elif change["change"] == "created" and status == HandSubmission.Status.CONFIRMED:
            text = (
                _("%(who)s entered on the table's phone (counted at once): %(verdict)s")
                if phone
                else _("%(who)s entered (counted at once): %(verdict)s")
            ) % values
        elif change["change"] == "created":
            text = (
                _("%(who)s entered on the table's phone: %(verdict)s")
                if phone
                else _("%(who)s entered: %(verdict)s")
            ) % values
        elif status == HandSubmission.Status.CONFIRMED and reason.startswith("dispute settled"):
            text = _("%(who)s settled the dispute: confirmed.") % values
        elif status == HandSubmission.Status.CONFIRMED:
            text = (
                _("%(who)s confirmed it on the table's phone.")
                if phone
                else _("%(who)s confirmed it.")
            ) % values
        elif status == HandSubmission.Status.DISPUTED:
            text = (
                _("%(who)s disputed it on the table's phone: “%(reason)s”")
                if phone
                else _("%(who)s disputed it: “%(reason)s”")
            ) % {**values, "reason": version.get("dispute_reason") or ""}
        elif status == HandSubmission.Status.WITHDRAWN:
            text = (
                _("%(who)s withdrew it on the table's phone.")
                if phone
                else _("%(who)s withdrew it.")
            ) % values
        elif status == HandSubmission.Status.SUPERSEDED:
            text = _("%(who)s replaced version %(n)s with a correction.") % values
        else:
            text = _("%(who)s changed it.") % values
        lines.append(
            {
                "when": change["when"],
                "version": change["version"],
                "text": text,
                # The credential by name where the sentence does not already say it.
                "via": "" if phone or via not in Credential.values else Credential(via).label,
                "reason": version.get("override_reason")
                if change["change"] == "created" and reason == "override"
                else "",
            }
        )
    return lines


def version_rows(history: Mapping[str, Any], names: Mapping[int, str]) -> list[dict[str, Any]]:
    """Each version of the hand: its status in words, its verdict as a sentence, its reasons."""
    rows = []
    for v in history["versions"]:
        disputed_by = v.get("disputed_by") or {}
        rows.append(
            {
                "version": v["version"],
                "status": v["status"],
                "status_label": HandSubmission.Status(v["status"]).label,
                "entry_label": HandSubmission.Entry(v["entry"]).label,
                "verdict": verdict_sentence(v, names),
                "override_reason": v.get("override_reason") or "",
                "dispute_reason": v.get("dispute_reason") or "",
                "disputed_by": disputed_by.get("player") or disputed_by.get("user") or "",
                "on_table_phone": bool(v.get("on_table_phone")),
                "explanation": explanation_text(v),
            }
        )
    return rows


_TEXT_FIELDS = (
    "knocker_cards",
    "defender_cards",
    "taken_from_discard",
    "upcard",
)
_NUMBER_FIELDS = (
    "knocker",
    "knocker_deadwood",
    "defender_deadwood",
    "knock_limit",
    "diamond_number",
    "went_out",
)
_FLAGS = ("knocker_gem_bonus", "defender_gem_bonus", "rummy")
_FROM_VERDICT = {
    "counts": ("knocker", "knocker_deadwood", "defender_deadwood"),
    "cards": ("knocker",),
    "rummy": ("went_out",),
}


def stored_entry(sub: HandSubmission) -> tuple[str, dict[str, Any]]:
    """The tab and the form values that show ``sub`` as it was entered (the override form's
    starting point), in the names the entry form posts."""
    payload = sub.payload or {}
    if sub.entry == HandSubmission.Entry.DEAD or payload.get("outcome") == "dead":
        return "dead", {}
    if payload.get("boards"):
        return "partnership", {}
    tab = "rummy" if sub.entry == HandSubmission.Entry.RUMMY else str(sub.entry)
    posted: dict[str, Any] = {}
    for name in _TEXT_FIELDS:
        if payload.get(name):
            posted[name] = str(payload[name])
    # A payload leaves out zeros (seat 0, a gin's 0 deadwood): the verdict has them.
    verdict = sub.result or {}
    for name in _NUMBER_FIELDS:
        value = payload.get(name)
        if value is None and name in _FROM_VERDICT.get(tab, ()):
            value = verdict.get(name)
        if value is not None:
            posted[name] = str(value)
    for name in _FLAGS:
        if payload.get(name):
            posted[name] = "on"
    if payload.get("outcome"):
        posted["outcome"] = str(payload["outcome"])
    melds = payload.get("knocker_melds")
    if melds:
        posted["knocker_melds"] = " | ".join(melds) if isinstance(melds, list) else str(melds)
    for index, defender in enumerate(payload.get("defenders") or []):
        for name in ("defender", "outcome", "defender_deadwood", "defender_cards", "points"):
            if defender.get(name) is not None:
                posted[f"d{index}_{name}"] = str(defender[name])
        if defender.get("defender_gem_bonus"):
            posted[f"d{index}_defender_gem_bonus"] = "on"
    return tab, posted
