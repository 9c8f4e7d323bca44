"""A match's hands: list them and enter the next one, and enter a whole paper score sheet."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiResponse,
    extend_schema,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.api import ErrorResponse
from core.pagination import Pagination, paginate
from core.parsing import AsciiIntegerField
from scoring.apis.common import (
    ERROR,
    LINK_PARAMETERS,
    POST_PARAMETERS,
    BaseApi,
    HandInputSerializer,
    hand_entry,
    match_or_404,
)
from scoring.apis.shapes import HandOutput
from scoring.idempotency import idempotent
from scoring.permissions import match_access, match_access_require
from scoring.selectors import match_prefetched, match_scoresheet, match_state, submission_out
from scoring.services import hand_submit, scoresheet_submit


class _AsIs(serializers.BaseSerializer):
    """Hands are shaped by the selector already: a page of them goes out as it is."""

    def to_representation(self, instance: Any) -> Any:
        return instance


HAND_CONFLICT = OpenApiResponse(
    inline_serializer(
        "HandConflict",
        {
            "detail": serializers.CharField(),
            "stored": HandOutput(
                required=False,
                help_text="The entry kept for this hand (waiting, disputed or confirmed): the "
                "one that won the race, to review, confirm or dispute. Absent when the match "
                "itself is over.",
            ),
        },
    ),
    description="Not stored: the hand already has an entry (two entries raced, or it is "
    "recorded; `stored` is the one kept), or the match is over.",
)


class MatchHandsApi(BaseApi):
    """The hands of a match (confirmed and waiting), or enter the next hand."""

    pagination_class = Pagination

    @extend_schema_serializer(component_name="HandSubmitInput")
    class InputSerializer(HandInputSerializer):
        hand_number = AsciiIntegerField(
            min_value=1, required=False, help_text="Default: the next hand of the current game."
        )
        as_position = AsciiIntegerField(
            min_value=0,
            required=False,
            help_text="With the table link: the seat of the player entering the hand.",
        )

    @extend_schema(
        operation_id="matches_hands_list",
        parameters=LINK_PARAMETERS,
        responses={200: HandOutput(many=True), 404: ERROR},
        description="Every hand of the match in order (game, then hand), confirmed ones and the "
        "one waiting. Paginated with limit and offset, like every list.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_404(match_id)
        match_access_require(actor=self.actor(request), match=match)
        state = match_state(match=match)
        hands = []
        for view in state.games:
            hands += [submission_out(s, game_number=view.game.number) for s in view.hands]
            if view.pending is not None:
                hands.append(submission_out(view.pending, game_number=view.game.number))
        return paginate(request, self, hands, _AsIs)

    @extend_schema(
        operation_id="matches_hands_submit",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: HandOutput, 400: ERROR, 403: ERROR, 404: ERROR, 409: HAND_CONFLICT},
        description="Enter a hand by cards (knocker_cards, defender_cards, optional "
        "knocker_melds; any counts, outcome, points or winner given are claims the engine "
        "checks), by counts (knocker, outcome, knocker_deadwood, defender_deadwood after "
        "lay-offs), or dead (outcome=dead). Oklahoma: upcard. Gem: knock_limit, "
        "diamond_number, gem bonus flags; three-player Gem: defenders (each non-knocker's outcome "
        "and deadwood, or cards). Partnership: boards. Basic Rummy: went_out, rummy, "
        "leftovers. The response is the engine's verdict. A hand already entered (by the other "
        "side a moment earlier, or recorded) is 409 with the entry kept in `stored`; send "
        "hand_number so that a late entry is never taken for the next hand.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        actor = self.actor(request)
        match = match_or_404(match_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            sub = hand_submit(
                match=match,
                actor=actor,
                entry=hand_entry(data, match),
                hand_number=data.get("hand_number"),
                as_position=data.get("as_position"),
            )
            return Response(submission_out(sub), status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)


SCORESHEET_ERROR = ErrorResponse(
    inline_serializer(
        "ScoresheetError",
        {
            "detail": serializers.CharField(),
            "field": serializers.CharField(required=False),
            "problems": inline_serializer(
                "ScoresheetProblem",
                {
                    "row": serializers.IntegerField(help_text="n of hands[n]."),
                    "field": serializers.CharField(allow_null=True),
                    "message": serializers.CharField(),
                },
                many=True,
                required=False,
            ),
        },
    ),
    name="ScoresheetRefused",
)


class MatchScoresheetApi(BaseApi):
    """The score sheet of a match, or enter a whole paper score sheet of the current game."""

    @extend_schema_serializer(component_name="ScoresheetSubmitInput")
    class InputSerializer(serializers.Serializer):
        game = AsciiIntegerField(min_value=1, required=False)
        hands = HandInputSerializer(many=True)

    @extend_schema(
        operation_id="matches_scoresheet",
        parameters=LINK_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT},
        description="Anyone may read it; the entry waiting for confirmation (`pending`) is shown "
        "only to the match's players and the event's directors (docs/security.md). "
        "Hands in order with outcome, deadwood, points, running totals and the "
        "dealer; at the end of each game the bonuses itemised and the margin. Hollywood: each "
        "row carries its running totals in each of the three columns.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_404(match_id)
        access = match_access(actor=self.actor(request), match=match)
        state = match_state(match=match)
        return Response(match_scoresheet(state=state, show_pending=access.sees_pending))

    @extend_schema(
        operation_id="matches_scoresheet_submit",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: OpenApiTypes.OBJECT, 400: SCORESHEET_ERROR, 403: ERROR, 409: ERROR},
        description="All hands of the current (fresh) game in order, stored confirmed, all or "
        "nothing. Directors, or players at an event without confirmation. Every hand is checked "
        "against the game as the hands before it leave it (a hand with a problem is left out "
        "and the check goes on); a sheet with problems is 400 with all of them in `problems` "
        "(`row` n and `field` `hands[n].…`), the first also as `detail` and `field`.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        actor = self.actor(request)
        match = match_or_404(match_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            scoresheet_submit(
                match=match,
                actor=actor,
                hands=[hand_entry(h, match, f"hands[{i}].") for i, h in enumerate(data["hands"])],
                game_number=data.get("game"),
            )
            state = match_state(match=match_prefetched(match_id=match.pk))
            return Response(match_scoresheet(state=state), status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)
