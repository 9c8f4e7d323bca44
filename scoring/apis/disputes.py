"""An event's disputed hands (directors): the one list to settle them from."""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError
from scoring.apis.common import ERROR, BaseApi
from scoring.apis.shapes import DisputeOutput
from scoring.organiser import organiser
from scoring.selectors import dispute_out, disputes_open, event_is_director


class EventDisputesApi(BaseApi):
    """Every disputed hand of an event not settled yet (its directors only)."""

    @extend_schema(
        operation_id="events_disputes",
        responses={200: DisputeOutput(many=True), 403: ERROR, 404: ERROR},
        description="A short list, not paginated (the disputes still open). Settle each with "
        "`POST /api/hands/{id}/confirm/` or `POST /api/hands/{id}/override/` (with a reason).",
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = organiser().terms_for_event(event_id=event_id)
        if event is None:
            raise Http404
        actor = self.actor(request)
        if actor.user is None or not event_is_director(event=event, user=actor.user):
            raise ApplicationError(_("Only the event's directors see its disputes."), status=403)
        return Response([dispute_out(sub) for sub in disputes_open(event_id=event.event_id)])
