"""Tournaments' signals, answered: a pass for each new registration (mailed after commit when
the entrant gave an email), the round's mails after pairing, the console's lines."""

from __future__ import annotations

import logging
from typing import Any

from django.db import transaction
from django.dispatch import receiver
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from passes.selectors import passes_mailable, passes_opened_count, passes_withdrawn
from passes.services import pass_email, pass_ensure
from tournaments.models import Registration, Round
from tournaments.signals import console_notes, registration_created, round_paired

logger = logging.getLogger(__name__)


def _mail_soon(task: Any, *args: Any, due: Any) -> None:
    """After commit, if ``due()`` (someone has an address), hand the mail to the worker; a
    broker that cannot take it is logged only."""

    def send() -> None:
        try:
            if due():
                task.delay(*args)
        except Exception:
            logger.warning("pass mail: the worker could not be told", exc_info=True)

    transaction.on_commit(send)


@receiver(registration_created, sender=Registration)
def pass_on_registration(sender: Any, registration: Registration, **kwargs: Any) -> None:
    from passes.tasks import pass_mail_task

    player_pass = pass_ensure(registration=registration)
    _mail_soon(
        pass_mail_task, player_pass.pk, due=lambda: bool(pass_email(registration=registration))
    )


@receiver(round_paired, sender=Round)
def passes_on_round(
    sender: Any, round: Round, players: list[int] | None = None, **kwargs: Any
) -> None:
    """Mail the round's table to its pass holders: all of them, or (a bracket seating a match)
    only the ``players`` just seated."""
    from passes.tasks import round_passes_mail_task

    event_id = round.event_id
    args = (round.pk,) if players is None else (round.pk, sorted(set(players)))
    _mail_soon(round_passes_mail_task, *args, due=lambda: passes_mailable(event_id=event_id))


@receiver(console_notes)
def passes_console(sender: Any, event: Any, **kwargs: Any) -> list[str]:
    opened, held = passes_opened_count(event=event)
    lines = []
    if held:
        lines.append(
            ngettext(
                "%(opened)s of %(held)s player has opened their pass.",
                "%(opened)s of %(held)s players have opened their pass.",
                held,
            )
            % {"opened": opened, "held": held}
        )
    for name, at in passes_withdrawn(event=event):
        lines.append(
            _("%(player)s dropped out with their pass (%(time)s).")
            % {"player": name, "time": date_format(localtime(at), "SHORT_DATETIME_FORMAT")}
        )
    return lines
