"""One hand: confirm, withdraw, a director's correction (override) and its history."""

from __future__ import annotations

from collections.abc import Callable

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema, extend_schema_serializer
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError
from core.parsing import AsciiIntegerField
from scoring.apis.common import (
    ERROR,
    POST_PARAMETERS,
    BaseApi,
    HandInputSerializer,
    hand_entry,
    submission_or_404,
)
from scoring.apis.shapes import HandOutput
from scoring.idempotency import idempotent
from scoring.models import HandSubmission
from scoring.permissions import match_access
from scoring.selectors import hand_history, submission_out
from scoring.services import hand_confirm, hand_dispute, hand_override, hand_withdraw


@extend_schema_serializer(component_name="HandActionInput")
class _HandActionInput(serializers.Serializer):
    as_position = AsciiIntegerField(
        min_value=0,
        required=False,
        help_text="With the table link (a phone handed over): the seat of the player acting.",
    )


def _pending_action(
    view: BaseApi,
    request: Request,
    submission_id: int,
    action: Callable[..., HandSubmission],
) -> Response:
    """Confirm or withdraw a pending entry (``action``) for the acting player."""
    actor = view.actor(request)
    sub = submission_or_404(submission_id)

    def run() -> Response:
        serializer = _HandActionInput(data=request.data)
        serializer.is_valid(raise_exception=True)
        done = action(
            submission=sub, actor=actor, as_position=serializer.validated_data.get("as_position")
        )
        return Response(submission_out(done))

    return idempotent(request, actor=actor, handler=run)


class HandConfirmApi(BaseApi):
    """Confirm an entry waiting for confirmation (the opponent, or a director)."""

    InputSerializer = _HandActionInput

    @extend_schema(
        operation_id="hands_confirm",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={200: HandOutput, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, submission_id: int) -> Response:
        return _pending_action(self, request, submission_id, hand_confirm)


class HandWithdrawApi(BaseApi):
    """Withdraw one's own entry before it is confirmed."""

    InputSerializer = _HandActionInput

    @extend_schema(
        operation_id="hands_withdraw",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={200: HandOutput, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, submission_id: int) -> Response:
        return _pending_action(self, request, submission_id, hand_withdraw)


class HandDisputeApi(BaseApi):
    """The other side does not agree with an entry: mark it disputed, with the reason."""

    @extend_schema_serializer(component_name="HandDisputeInput")
    class InputSerializer(_HandActionInput):
        reason = serializers.CharField(max_length=500, help_text="What is wrong with it.")

    @extend_schema(
        operation_id="hands_dispute",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
        description="A disputed entry is not counted. Its submitter sees the reason and can "
        "withdraw it and enter the hand again; a director not playing at the table settles it "
        "(confirm, or override with a reason).",
    )
    def post(self, request: Request, submission_id: int) -> Response:
        actor = self.actor(request)
        sub = submission_or_404(submission_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            done = hand_dispute(
                submission=sub,
                actor=actor,
                reason=data["reason"],
                as_position=data.get("as_position"),
            )
            return Response(submission_out(done))

        return idempotent(request, actor=actor, handler=run)


class HandOverrideApi(BaseApi):
    """A director's correction of a hand: a new confirmed version with a reason."""

    @extend_schema_serializer(component_name="HandOverrideInput")
    class InputSerializer(HandInputSerializer):
        reason = serializers.CharField(max_length=1000)

    @extend_schema(
        operation_id="hands_override",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: HandOutput, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, submission_id: int) -> Response:
        actor = self.actor(request)
        sub = submission_or_404(submission_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            new = hand_override(
                submission=sub,
                actor=actor,
                entry=hand_entry(data, sub.hand.game.match),
                reason=data["reason"],
            )
            return Response(submission_out(new), status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)


class HandHistoryApi(BaseApi):
    """Every version of a hand and every change: who, when, from where, what (directors)."""

    @extend_schema(
        operation_id="hands_history",
        responses={200: OpenApiTypes.OBJECT, 403: ERROR, 404: ERROR},
        description="`versions` (each as a hand, with its payload) and `changes`, oldest first: "
        "each change's status, time, account, player, reason and `via`, the credential it was "
        "made with (seat_link, table_link, session or token; null before it was recorded) with "
        "`via_key`, the link's key id.",
    )
    def get(self, request: Request, submission_id: int) -> Response:
        sub = submission_or_404(submission_id)
        access = match_access(actor=self.actor(request), match=sub.hand.game.match)
        if not access.can_view:
            raise Http404
        if not access.director:
            raise ApplicationError(_("Only a director can see a hand's history."), status=403)
        return Response(hand_history(submission=sub))
