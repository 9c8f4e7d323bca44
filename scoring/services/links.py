"""A match's private links: issue them (once, then stable), reissue one or all (revoking the old).

Who may reissue is checked here (a director of the event); what a link is, is in
:mod:`scoring.links`.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from core.errors import ApplicationError
from core.live import live_changed
from scoring.links import digest_of, new_nonce, secret_of
from scoring.models import Match, MatchKey
from scoring.permissions import Actor, match_access, no_seat_message


def _create(match: Match, position: int | None) -> MatchKey:
    nonce = new_nonce()
    return MatchKey.objects.create(
        match=match, position=position, nonce=nonce, digest=digest_of(secret_of(nonce))
    )


def match_keys_ensure(*, match: Match) -> dict[int | None, MatchKey]:
    """The match's active keys by seat (None: the table link), issuing any that are missing."""
    positions: list[int | None] = [None, *match.seats.values_list("position", flat=True)]
    active = {k.position: k for k in MatchKey.objects.filter(match=match, revoked_at__isnull=True)}
    missing = [p for p in positions if p not in active]
    if missing:
        try:
            with transaction.atomic():
                for position in missing:
                    active[position] = _create(match, position)
        except IntegrityError:
            # Issued at the same moment by another request: theirs stand.
            active = {
                k.position: k for k in MatchKey.objects.filter(match=match, revoked_at__isnull=True)
            }
    return {p: active[p] for p in positions if p in active}


def match_link_token(*, match: Match, position: int | None = None) -> str:
    """The secret of ``match``'s table link (position None) or of the seat at ``position``."""
    keys = match_keys_ensure(match=match)
    if position not in keys:
        if position is None:  # match_keys_ensure always issues the table link
            raise ApplicationError(_("Not found."), status=404)
        raise ApplicationError(no_seat_message(position))
    return secret_of(keys[position].nonce)


def match_links_reissue(
    *, match: Match, actor: Actor, positions: list[int | None] | None = None
) -> dict[int | None, MatchKey]:
    """Revoke and reissue the links of ``positions`` (None in it: the table link; the list None:
    every link of the match). A director of the event only; the old links answer 404 from now."""
    access = match_access(actor=actor, match=match)
    if not access.neutral_director:
        if not access.can_view:
            raise ApplicationError(_("Not found."), status=404)
        raise ApplicationError(
            _("Only a director not playing at this table can reissue its links."), status=403
        )
    seats = set(match.seats.values_list("position", flat=True))
    wanted: list[int | None] = [None, *sorted(seats)] if positions is None else list(positions)
    for position in wanted:
        if position is not None and position not in seats:
            raise ApplicationError(
                no_seat_message(position),
                field="position",
            )
    now = timezone.now()
    with transaction.atomic():
        # Locks the match and moves its live version: a page open with a replaced link learns
        # on its next poll that the link is gone (it is not answered "nothing changed").
        Match.objects.filter(pk=match.pk).update(live_seq=F("live_seq") + 1)
        live_changed(page="match", pk=match.pk)
        for position in dict.fromkeys(wanted):
            old = MatchKey.objects.filter(match=match, revoked_at__isnull=True)
            old = (
                old.filter(position__isnull=True)
                if position is None
                else old.filter(position=position)
            )
            old.update(revoked_at=now, revoked_by=actor.user)
            _create(match, position)
    return match_keys_ensure(match=match)


def match_keys_rekey() -> int:
    """After the link key (or ``SECRET_KEY`` without ``KNOCK_LINK_KEY``) changed: recompute the
    stored digest of every active key, so links work again (with their new secrets). Returns how
    many keys were updated."""
    updated = 0
    with transaction.atomic():
        for key in MatchKey.objects.select_for_update().filter(revoked_at__isnull=True):
            digest = digest_of(secret_of(key.nonce))
            if digest != key.digest:
                key.digest = digest
                key.save(update_fields=["digest"])
                updated += 1
    return updated
