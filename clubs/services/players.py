"""Writes for a club's players: add one, paste many, edit one. No account is needed to be a
player (guests are common)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from clubs.models import Club, Player
from core.errors import ApplicationError
from core.names import name_clean

if TYPE_CHECKING:
    from django.contrib.auth.models import User


def player_create(
    *,
    club: Club,
    name: str,
    user: User | None = None,
    is_guest: bool = False,
    family: str = "",
) -> Player:
    """Add a player to a club's list; no account is needed (guests are common)."""
    name = name_clean(name, empty_message=_("A player needs a name."))
    try:
        with transaction.atomic():
            return Player.objects.create(
                club=club, name=name, user=user, is_guest=is_guest, family=family.strip()
            )
    except IntegrityError as exc:
        raise ApplicationError(
            _("%(club)s already has a player called %(name)s.") % {"club": club.name, "name": name},
            status=409,
            field="name",
        ) from exc


def players_create_many(
    *, club: Club, names: Iterable[str], is_guest: bool = False
) -> tuple[list[Player], list[str]]:
    """Add a pasted list of players; names the club already has are skipped and returned.

    All or nothing: either every new name is added or none is.
    """
    wanted = player_names_clean(names)
    existing = {
        n.casefold() for n in Player.objects.filter(club=club).values_list("name", flat=True)
    }
    skipped = [n for n in wanted if n.casefold() in existing]
    with transaction.atomic():
        created = [
            player_create(club=club, name=n, is_guest=is_guest)
            for n in wanted
            if n.casefold() not in existing
        ]
    return created, skipped


def player_names_clean(names: Iterable[str]) -> list[str]:
    """The pasted names (a club's paste box, or an event's), trimmed, without blanks and repeats
    (compared case-insensitively)."""
    wanted: list[str] = []
    seen: set[str] = set()
    for raw in names:
        if not raw.strip():
            continue
        name = name_clean(raw, empty_message=_("Paste at least one name."), field="names")
        if name.casefold() not in seen:
            seen.add(name.casefold())
            wanted.append(name)
    if not wanted:
        raise ApplicationError(_("Paste at least one name."), field="names")
    return wanted


def player_update(*, player: Player, name: str, is_guest: bool, family: str = "") -> Player:
    """Rename a player (or change the guest flag or family); names stay unique in the club."""
    name = name_clean(name, empty_message=_("A player needs a name."))
    player.name, player.is_guest, player.family = name, is_guest, family.strip()
    try:
        with transaction.atomic():
            player.save(update_fields=["name", "is_guest", "family"])
    except IntegrityError as exc:
        raise ApplicationError(
            _("%(club)s already has a player called %(name)s.")
            % {"club": player.club.name, "name": name},
            status=409,
            field="name",
        ) from exc
    return player
