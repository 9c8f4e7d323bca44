"""Matches: list and start, detail, private links.

A match's hands and its whole score sheet are in :mod:`scoring.apis.match_hands`; their views are
importable from here too, as before.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import (
    extend_schema,
    extend_schema_serializer,
)
from rest_framework import serializers, status
from rest_framework.request import Request
from rest_framework.response import Response

from core.errors import ApplicationError
from core.pagination import Pagination, paginate
from core.parsing import AsciiIntegerField
from scoring.apis.common import (
    ERROR,
    LINK_PARAMETERS,
    POST_PARAMETERS,
    BaseApi,
    match_or_404,
)
from scoring.apis.match_hands import MatchHandsApi, MatchScoresheetApi
from scoring.apis.shapes import MatchDetailOutput, MatchLinksOutput, MatchStartedOutput
from scoring.idempotency import idempotent
from scoring.links import link_url
from scoring.models import Match
from scoring.organiser import organiser
from scoring.permissions import Actor, match_access, match_access_require
from scoring.selectors import (
    match_detail,
    match_list_visible,
    match_prefetched,
    match_state,
    seating_warnings,
)
from scoring.services import (
    match_keys_ensure,
    match_links_reissue,
    match_start,
)

__all__ = [
    "MatchDetailApi",
    "MatchHandsApi",
    "MatchLinksApi",
    "MatchLinksReissueApi",
    "MatchListApi",
    "MatchScoresheetApi",
]


class MatchListApi(BaseApi):
    """List the matches you can see, or start a match at a table."""

    pagination_class = Pagination

    @extend_schema_serializer(component_name="MatchListFilter")
    class FilterSerializer(serializers.Serializer):
        event = AsciiIntegerField(required=False)

    @extend_schema_serializer(component_name="MatchStartInput")
    class InputSerializer(serializers.Serializer):
        event = AsciiIntegerField()
        players = serializers.ListField(
            child=AsciiIntegerField(),
            min_length=2,
            max_length=6,
            help_text="Player ids in seat order (in the box: box, captain, sitter).",
        )
        teams = serializers.ListField(
            child=AsciiIntegerField(min_value=0, max_value=1),
            required=False,
            help_text="Partnership: each seat's team (default 0, 1, 0, 1).",
        )
        table_number = AsciiIntegerField(min_value=1, required=False)
        round = AsciiIntegerField(min_value=1, required=False)
        rules = serializers.CharField(
            required=False, help_text="A preset name; default: the event's rules."
        )
        rule_overrides = serializers.DictField(required=False)
        match_format = serializers.DictField(
            required=False,
            help_text='{"kind": "single_game" | "best_of" (games) | "hollywood" | '
            '"fixed_hands" (hands)}',
        )
        first_dealer = AsciiIntegerField(min_value=0, required=False, default=0)

    @extend_schema_serializer(component_name="MatchListOutput")
    class ListOutputSerializer(serializers.Serializer):
        id = AsciiIntegerField()
        event = AsciiIntegerField(source="event_id")
        table_number = AsciiIntegerField(allow_null=True)
        status = serializers.CharField()
        players = serializers.SerializerMethodField()
        winner = AsciiIntegerField(source="winner_id", allow_null=True)

        def get_players(self, obj: Match) -> list[str]:
            return [s.player.name for s in obj.seats.all()]

    @extend_schema(
        operation_id="matches_list",
        parameters=[FilterSerializer],
        responses={200: ListOutputSerializer(many=True), 403: ERROR},
        description="The matches you may see (signed in): those of the clubs you direct and "
        "those you play in. Paginated with limit and offset.",
    )
    def get(self, request: Request) -> Response:
        actor = self.actor(request)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        if actor.user is None:
            raise ApplicationError(_("Sign in to list matches."), status=403)
        matches = match_list_visible(user=actor.user, event_id=filters.validated_data.get("event"))
        return paginate(request, self, matches, self.ListOutputSerializer)

    @extend_schema(
        operation_id="matches_start",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: MatchStartedOutput, 400: ERROR, 403: ERROR},
        description="Start a match. The response is the match detail plus its private links "
        "(`links.table` and one per seat) for players without an account.",
    )
    def post(self, request: Request) -> Response:
        actor = self.actor(request)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            event = organiser().terms_for_event(event_id=data["event"])
            if event is None:
                raise ApplicationError(_("There is no such event."), field="event")
            match = match_start(
                actor=actor,
                event=event,
                players=data["players"],
                teams=data.get("teams"),
                table_number=data.get("table_number"),
                round_number=data.get("round"),
                rules_preset=data.get("rules"),
                rule_overrides=data.get("rule_overrides"),
                match_format=data.get("match_format"),
                first_dealer=data["first_dealer"],
            )
            state = match_state(match=match_prefetched(match_id=match.pk))
            warnings = seating_warnings(
                event_id=event.pk,
                players=data["players"],
                table_number=match.table_number,
                exclude=match.pk,
            )
            return Response(
                {**match_detail(state=state), "warnings": warnings},
                status=status.HTTP_201_CREATED,
            )

        response = idempotent(request, actor=actor, handler=run)
        # The links are added after the idempotency record is stored (a replay adds them again):
        # link secrets are never kept in the database in the clear.
        match = Match.objects.filter(pk=response.data.get("id")).first()
        if match is not None:
            response.data["links"] = _links_for(request, actor, match)
        return response


def _links_for(request: Request, actor: Actor, match: Match) -> dict[str, Any]:
    """The links the actor who started ``match`` is given: all of them for a director not seated
    at it, only their own seat's for a seated director."""
    access = match_access(actor=actor, match=match)
    if access.neutral_director:
        return _links(request, match)
    keys = match_keys_ensure(match=match)
    return {
        "table": None,
        "seats": {str(p): link_url(request, keys[p]) for p in access.identities},
    }


def _links(request: Request, match: Match) -> dict[str, Any]:
    """Every private link of ``match`` as absolute URLs (directors only): stable until reissued."""
    keys = match_keys_ensure(match=match)
    return {
        "table": link_url(request, keys[None]),
        "seats": {
            str(position): link_url(request, key)
            for position, key in keys.items()
            if position is not None
        },
    }


class MatchDetailApi(BaseApi):
    """A match: seats, games, totals, bonuses, next dealer, roles, and the entry waiting (the
    last only for its players and the event's directors: anyone reads the rest)."""

    @extend_schema(
        operation_id="matches_detail",
        parameters=LINK_PARAMETERS,
        responses={200: MatchDetailOutput, 404: ERROR},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_404(match_id)
        access = match_access(actor=self.actor(request), match=match)
        state = match_state(match=match)
        return Response(match_detail(state=state, show_pending=access.sees_pending))


class MatchLinksApi(BaseApi):
    """A match's private links (directors only): the table link and one per seat."""

    @extend_schema(
        operation_id="matches_links", responses={200: MatchLinksOutput, 403: ERROR, 404: ERROR}
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = match_or_404(match_id)
        access = match_access_require(actor=self.actor(request), match=match)
        if not access.neutral_director:
            raise ApplicationError(
                _("Only a director not playing at this table can see its links."), status=403
            )
        return Response(_links(request, match))


class MatchLinksReissueApi(BaseApi):
    """Revoke and reissue private links (directors): one seat's, the table link, or all."""

    @extend_schema_serializer(component_name="MatchLinksReissueInput")
    class InputSerializer(serializers.Serializer):
        seat = AsciiIntegerField(
            min_value=0, required=False, help_text="Reissue this seat's link only."
        )
        table = serializers.BooleanField(
            required=False, default=False, help_text="Reissue the table link only."
        )

    @extend_schema(
        operation_id="matches_links_reissue",
        request=InputSerializer,
        responses={200: MatchLinksOutput, 400: ERROR, 403: ERROR, 404: ERROR},
        description="With neither `seat` nor `table`: every link of the match. The old links "
        "answer 404 from now on; the response holds all the match's current links.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        actor = self.actor(request)
        match = match_or_404(match_id)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        positions: list[int | None] | None = None
        if "seat" in data and data["table"]:
            raise ApplicationError(_("Give a seat or the table, not both."), field="table")
        if "seat" in data:
            positions = [data["seat"]]
        elif data["table"]:
            positions = [None]
        match_links_reissue(match=match, actor=actor, positions=positions)
        return Response(_links(request, match))
