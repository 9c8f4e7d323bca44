"""The passes' mails, sent by the worker so that a slow or failing mail server never holds up
(or breaks) a registration or a pairing."""

from __future__ import annotations

from celery import shared_task

from passes.models import PlayerPass
from passes.services import pass_mail, round_passes_mail


@shared_task(name="passes.pass_mail", ignore_result=True)
def pass_mail_task(pass_id: int) -> bool:
    """Mail a new pass to its holder (when their entry gave an email)."""
    player_pass = (
        PlayerPass.objects.select_related("registration__event", "registration__player")
        .filter(pk=pass_id, revoked_at__isnull=True)
        .first()
    )
    return player_pass is not None and pass_mail(player_pass=player_pass)


@shared_task(name="passes.round_mail", ignore_result=True)
def round_passes_mail_task(round_id: int, player_ids: list[int] | None = None) -> int:
    """Mail each pass holder of a paired round (or only ``player_ids``) where they sit."""
    return round_passes_mail(round_id=round_id, player_ids=player_ids)
