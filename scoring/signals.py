"""Audit only: copy who acted and from where onto each history row of a submission.

Services set ``_history_origin`` (player, IP address, user agent, the credential used: a
``scoring.permissions.ActedBy``) on a submission before saving it; django-simple-history
builds the history row and this receiver fills the extra columns of
:class:`scoring.models.SubmissionHistoryOrigin`. No business rule lives here.
"""

from __future__ import annotations

from typing import Any

from django.dispatch import receiver
from simple_history.signals import pre_create_historical_record


@receiver(pre_create_historical_record)
def _submission_history_origin(sender: Any, instance: Any, history_instance: Any, **_: Any) -> None:
    origin = getattr(instance, "_history_origin", None)
    if origin is None or not hasattr(history_instance, "history_ip"):
        return
    player, ip, user_agent, via = origin
    history_instance.history_player = player
    history_instance.history_ip = ip
    history_instance.history_user_agent = user_agent or ""
    history_instance.history_via = via.kind
    history_instance.history_via_key = via.key_id
