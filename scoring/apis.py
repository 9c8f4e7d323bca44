"""REST API of the scoring app: one view per operation (a URL serving two operations, such as
list and create, has one view whose methods call different services).

Views only parse input, build the :class:`~scoring.permissions.Actor`, call one service or
selector and shape the output. Players without an account authenticate with the match's private
link: ``?k=<token>`` or the ``X-Match-Key`` header. Every POST honours ``Idempotency-Key``.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import (
    OpenApiParameter,
    extend_schema,
    extend_schema_field,
    extend_schema_serializer,
    inline_serializer,
)
from rest_framework import serializers, status
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.errors import ApplicationError
from engine.scoring import HandOutcome
from scoring.idempotency import idempotent
from scoring.links import match_link_token
from scoring.models import HandSubmission, Match
from scoring.permissions import Actor, match_access, match_access_require
from scoring.selectors import (
    hand_history,
    match_detail,
    match_list_visible,
    match_prefetched,
    match_scoresheet,
    match_state,
    submission_get,
    submission_out,
)
from scoring.services import (
    CSV_COLUMNS,
    HandEntry,
    hand_confirm,
    hand_override,
    hand_submit,
    hand_withdraw,
    import_csv,
    match_start,
    scoresheet_submit,
)
from tournaments.models import Event

LINK_PARAMETERS = [
    OpenApiParameter(
        "k", OpenApiTypes.STR, OpenApiParameter.QUERY, description="The match's private link."
    ),
    OpenApiParameter(
        "X-Match-Key",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="The match's private link (instead of ?k=).",
    ),
]
POST_PARAMETERS = [
    *LINK_PARAMETERS,
    OpenApiParameter(
        "Idempotency-Key",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="Repeat-safe submit: the same key and body replays the first response; "
        "the same key with another body is 422.",
    ),
]

ERROR = inline_serializer(
    "Error",
    {
        "detail": serializers.CharField(),
        "field": serializers.CharField(required=False),
        "stored": serializers.JSONField(required=False),
    },
)


class _Base(APIView):
    permission_classes = [AllowAny]

    def actor(self, request: Request) -> Actor:
        return Actor.from_request(request)


def _match_or_404(match_id: int) -> Match:
    try:
        return match_prefetched(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None


def _submission_or_404(submission_id: int) -> HandSubmission:
    try:
        return submission_get(submission_id=submission_id)
    except HandSubmission.DoesNotExist:
        raise Http404 from None


# -- hand input (shared by hands, overrides and score sheets) -------------------------------------


@extend_schema_field(
    {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
)
class MeldsField(serializers.Field):
    """The knocker's melds: ``"AS 2S 3S | 7H 7D 7C"`` or a list of melds as strings."""

    def to_internal_value(self, data: Any) -> str | list[str]:
        if isinstance(data, str):
            return data
        if isinstance(data, list) and all(isinstance(item, str) for item in data):
            return data
        raise serializers.ValidationError(
            _('Give melds as "AS 2S 3S | 7H 7D 7C" or a list of strings.')
        )

    def to_representation(self, value: Any) -> Any:
        return value


class BoardInputSerializer(serializers.Serializer):
    knocker = serializers.IntegerField(min_value=0, required=False, help_text="Seat position.")
    defender = serializers.IntegerField(min_value=0, required=False, help_text="Seat position.")
    outcome = serializers.ChoiceField(choices=[o.value for o in HandOutcome], required=False)
    knocker_cards = serializers.CharField(required=False)
    defender_cards = serializers.CharField(required=False)
    knocker_melds = MeldsField(required=False)
    knocker_deadwood = serializers.IntegerField(required=False)
    defender_deadwood = serializers.IntegerField(required=False)
    defender_deadwood_before_layoffs = serializers.IntegerField(required=False)
    points = serializers.IntegerField(required=False)
    winner = serializers.IntegerField(min_value=0, required=False)
    upcard = serializers.CharField(required=False, max_length=4)


class HandInputSerializer(BoardInputSerializer):
    knock_limit = serializers.IntegerField(
        required=False, help_text="Gem Rummy: the knock-limit die (1-6)."
    )
    diamond_number = serializers.IntegerField(
        required=False, min_value=1, max_value=6, help_text="Gem Rummy: the diamond die."
    )
    knocker_gem_bonus = serializers.BooleanField(required=False)
    defender_gem_bonus = serializers.BooleanField(required=False)
    boards = BoardInputSerializer(
        many=True, required=False, help_text="Partnership: the two boards of the hand."
    )
    went_out = serializers.IntegerField(
        min_value=0, required=False, help_text="Basic Rummy: who went out."
    )
    rummy = serializers.BooleanField(required=False, help_text="Basic Rummy: went rummy.")
    leftovers = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text='Basic Rummy: seat → cards left ("KS 5H") or their count.',
    )

    def validate_leftovers(self, value: dict[str, Any]) -> dict[str, Any]:
        for key, item in value.items():
            if not key.isdigit():
                raise serializers.ValidationError(_("Keys are seat positions."))
            if isinstance(item, bool) or not isinstance(item, int | str):
                raise serializers.ValidationError(
                    _("Seat %(seat)s: give the cards left or their count.") % {"seat": key}
                )
        return value


def _entry(data: dict[str, Any]) -> HandEntry:
    data = {k: v for k, v in data.items() if k not in ("hand_number", "as_position", "reason")}
    return HandEntry.from_dict(data)


# -- matches --------------------------------------------------------------------------------------


class MatchListApi(_Base):
    """List the matches you can see, or start a match at a table."""

    @extend_schema_serializer(component_name="MatchListFilter")
    class FilterSerializer(serializers.Serializer):
        event = serializers.IntegerField(required=False)

    @extend_schema_serializer(component_name="MatchStartInput")
    class InputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        players = serializers.ListField(
            child=serializers.IntegerField(),
            min_length=2,
            max_length=6,
            help_text="Player ids in seat order (in the box: box, captain, sitter).",
        )
        teams = serializers.ListField(
            child=serializers.IntegerField(min_value=0, max_value=1),
            required=False,
            help_text="Partnership: each seat's team (default 0, 1, 0, 1).",
        )
        table_number = serializers.IntegerField(min_value=1, required=False)
        round = serializers.IntegerField(min_value=1, required=False)
        rules = serializers.CharField(
            required=False, help_text="A preset name; default: the event's rules."
        )
        rule_overrides = serializers.DictField(required=False)
        match_format = serializers.DictField(
            required=False,
            help_text='{"kind": "single_game" | "best_of" (games) | "hollywood" | '
            '"fixed_hands" (hands)}',
        )
        first_dealer = serializers.IntegerField(min_value=0, required=False, default=0)

    @extend_schema_serializer(component_name="MatchListOutput")
    class ListOutputSerializer(serializers.Serializer):
        id = serializers.IntegerField()
        event = serializers.IntegerField(source="event_id")
        table_number = serializers.IntegerField(allow_null=True)
        status = serializers.CharField()
        players = serializers.SerializerMethodField()
        winner = serializers.IntegerField(source="winner_id", allow_null=True)

        def get_players(self, obj: Match) -> list[str]:
            return [s.player.name for s in obj.seats.all()]

    @extend_schema(
        operation_id="matches_list",
        parameters=[FilterSerializer],
        responses={200: ListOutputSerializer(many=True)},
    )
    def get(self, request: Request) -> Response:
        actor = self.actor(request)
        filters = self.FilterSerializer(data=request.query_params)
        filters.is_valid(raise_exception=True)
        if actor.user is None:
            raise ApplicationError(_("Sign in to list matches."), status=403)
        matches = match_list_visible(user=actor.user, event_id=filters.validated_data.get("event"))
        return Response(self.ListOutputSerializer(matches, many=True).data)

    @extend_schema(
        operation_id="matches_start",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR},
        description="Start a match. The response is the match detail plus its private links "
        "(`links.table` and one per seat) for players without an account.",
    )
    def post(self, request: Request) -> Response:
        actor = self.actor(request)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            event = Event.objects.filter(pk=data["event"]).first()
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
            body = match_detail(state=state)
            body["links"] = _links(match)
            return Response(body, status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)


def _links(match: Match) -> dict[str, Any]:
    return {
        "table": match_link_token(match=match),
        "seats": {
            str(seat.position): match_link_token(match=match, position=seat.position)
            for seat in match.seats.all()
        },
    }


class MatchDetailApi(_Base):
    """A match: seats, games, totals, bonuses, next dealer, roles, and the entry waiting."""

    @extend_schema(
        operation_id="matches_detail",
        parameters=LINK_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT, 404: ERROR},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _match_or_404(match_id)
        match_access_require(actor=self.actor(request), match=match)
        return Response(match_detail(state=match_state(match=match)))


class MatchLinksApi(_Base):
    """A match's private links (directors only): the table link and one per seat."""

    @extend_schema(operation_id="matches_links", responses={200: OpenApiTypes.OBJECT, 403: ERROR})
    def get(self, request: Request, match_id: int) -> Response:
        match = _match_or_404(match_id)
        access = match_access_require(actor=self.actor(request), match=match)
        if not access.director:
            raise ApplicationError(_("Only a director can see the match's links."), status=403)
        return Response(_links(match))


class MatchHandsApi(_Base):
    """The hands of a match (confirmed and waiting), or enter the next hand."""

    @extend_schema_serializer(component_name="HandSubmitInput")
    class InputSerializer(HandInputSerializer):
        hand_number = serializers.IntegerField(
            min_value=1, required=False, help_text="Default: the next hand of the current game."
        )
        as_position = serializers.IntegerField(
            min_value=0,
            required=False,
            help_text="With the table link: the seat of the player entering the hand.",
        )

    @extend_schema(
        operation_id="matches_hands_list",
        parameters=LINK_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT},
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _match_or_404(match_id)
        match_access_require(actor=self.actor(request), match=match)
        state = match_state(match=match)
        hands = []
        for view in state.games:
            hands += [submission_out(s, game_number=view.game.number) for s in view.hands]
            if view.pending is not None:
                hands.append(submission_out(view.pending, game_number=view.game.number))
        return Response(hands)

    @extend_schema(
        operation_id="matches_hands_submit",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
        description="Enter a hand by cards (knocker_cards, defender_cards, optional "
        "knocker_melds; any counts, outcome, points or winner given are claims the engine "
        "checks), by counts (knocker, outcome, knocker_deadwood, defender_deadwood after "
        "lay-offs), or dead (outcome=dead). Oklahoma: upcard. Gem: knock_limit, "
        "diamond_number, gem bonus flags. Partnership: boards. Basic Rummy: went_out, rummy, "
        "leftovers. The response is the engine's verdict. A hand already entered is 409 with "
        "`stored`.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        actor = self.actor(request)
        match = _match_or_404(match_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            sub = hand_submit(
                match=match,
                actor=actor,
                entry=_entry(data),
                hand_number=data.get("hand_number"),
                as_position=data.get("as_position"),
            )
            return Response(submission_out(sub), status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)


class MatchScoresheetApi(_Base):
    """The score sheet of a match, or enter a whole paper score sheet of the current game."""

    @extend_schema_serializer(component_name="ScoresheetSubmitInput")
    class InputSerializer(serializers.Serializer):
        game = serializers.IntegerField(min_value=1, required=False)
        hands = HandInputSerializer(many=True)

    @extend_schema(
        operation_id="matches_scoresheet",
        parameters=LINK_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT},
        description="Hands in order with outcome, deadwood, points, running totals and the "
        "dealer; at the end of each game the bonuses itemised and the margin. Hollywood: each "
        "row carries its running totals in each of the three columns.",
    )
    def get(self, request: Request, match_id: int) -> Response:
        match = _match_or_404(match_id)
        match_access_require(actor=self.actor(request), match=match)
        return Response(match_scoresheet(state=match_state(match=match)))

    @extend_schema(
        operation_id="matches_scoresheet_submit",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 409: ERROR},
        description="All hands of the current (fresh) game in order, stored confirmed, all or "
        "nothing. Directors, or players at an event without confirmation.",
    )
    def post(self, request: Request, match_id: int) -> Response:
        actor = self.actor(request)
        match = _match_or_404(match_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            scoresheet_submit(
                match=match,
                actor=actor,
                hands=[_entry(h) for h in data["hands"]],
                game_number=data.get("game"),
            )
            state = match_state(match=match_prefetched(match_id=match.pk))
            return Response(match_scoresheet(state=state), status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)


# -- one hand -------------------------------------------------------------------------------------


@extend_schema_serializer(component_name="HandActionInput")
class _HandActionInput(serializers.Serializer):
    as_position = serializers.IntegerField(
        min_value=0,
        required=False,
        help_text="With the table link (a phone handed over): the seat of the player acting.",
    )


class HandConfirmApi(_Base):
    """Confirm an entry waiting for confirmation (the opponent, or a director)."""

    InputSerializer = _HandActionInput

    @extend_schema(
        operation_id="hands_confirm",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, submission_id: int) -> Response:
        actor = self.actor(request)
        sub = _submission_or_404(submission_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            done = hand_confirm(
                submission=sub,
                actor=actor,
                as_position=serializer.validated_data.get("as_position"),
            )
            return Response(submission_out(done))

        return idempotent(request, actor=actor, handler=run)


class HandWithdrawApi(_Base):
    """Withdraw one's own entry before it is confirmed."""

    InputSerializer = _HandActionInput

    @extend_schema(
        operation_id="hands_withdraw",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={200: OpenApiTypes.OBJECT, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, submission_id: int) -> Response:
        actor = self.actor(request)
        sub = _submission_or_404(submission_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            done = hand_withdraw(
                submission=sub,
                actor=actor,
                as_position=serializer.validated_data.get("as_position"),
            )
            return Response(submission_out(done))

        return idempotent(request, actor=actor, handler=run)


class HandOverrideApi(_Base):
    """A director's correction of a hand: a new confirmed version with a reason."""

    @extend_schema_serializer(component_name="HandOverrideInput")
    class InputSerializer(HandInputSerializer):
        reason = serializers.CharField(max_length=1000)

    @extend_schema(
        operation_id="hands_override",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={201: OpenApiTypes.OBJECT, 400: ERROR, 403: ERROR, 404: ERROR, 409: ERROR},
    )
    def post(self, request: Request, submission_id: int) -> Response:
        actor = self.actor(request)
        sub = _submission_or_404(submission_id)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            new = hand_override(
                submission=sub, actor=actor, entry=_entry(data), reason=data["reason"]
            )
            return Response(submission_out(new), status=status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)


class HandHistoryApi(_Base):
    """Every version of a hand and every change: who, when, from where, what (directors)."""

    @extend_schema(
        operation_id="hands_history", responses={200: OpenApiTypes.OBJECT, 403: ERROR, 404: ERROR}
    )
    def get(self, request: Request, submission_id: int) -> Response:
        sub = _submission_or_404(submission_id)
        access = match_access(actor=self.actor(request), match=sub.hand.game.match)
        if not access.can_view:
            raise Http404
        if not access.director:
            raise ApplicationError(_("Only a director can see a hand's history."), status=403)
        return Response(hand_history(submission=sub))


# -- imports --------------------------------------------------------------------------------------


class ImportApi(_Base):
    """Import past score sheets from CSV (directors)."""

    parser_classes = [JSONParser, MultiPartParser, FormParser]

    @extend_schema_serializer(component_name="ImportInput")
    class InputSerializer(serializers.Serializer):
        csv = serializers.CharField(required=False, trim_whitespace=False)
        file = serializers.FileField(required=False)
        dry_run = serializers.BooleanField(default=False)

    @extend_schema_serializer(component_name="ImportOutput")
    class OutputSerializer(serializers.Serializer):
        dry_run = serializers.BooleanField()
        rows = serializers.IntegerField()
        stored = serializers.IntegerField()
        problems = inline_serializer(
            "ImportProblem",
            {
                "row": serializers.IntegerField(),
                "field": serializers.CharField(allow_null=True),
                "message": serializers.CharField(),
            },
            many=True,
        )

    @extend_schema(
        operation_id="imports_csv",
        request=InputSerializer,
        parameters=POST_PARAMETERS,
        responses={200: OutputSerializer, 201: OutputSerializer, 400: OutputSerializer},
        description="CSV with a header row and one row per hand. Columns: "
        + ", ".join(CSV_COLUMNS)
        + ". `match` is the match id; `game` defaults to the game being played; `hand` is the "
        "hand number (each game's hands in order, from its next hand); `knocker`/`defender` a "
        "seat position or a player's name; then the hand by counts or by cards as in "
        "POST /api/matches/{id}/hands/ (`knocker_melds` separated by `|`). With dry_run every "
        "row is checked and every problem reported, nothing stored; without it, everything "
        "is stored confirmed or (any problem) nothing. Row numbers count the header as row 1.",
    )
    def post(self, request: Request) -> Response:
        actor = self.actor(request)
        if actor.user is None:
            raise ApplicationError(_("Sign in as a director to import results."), status=403)

        def run() -> Response:
            serializer = self.InputSerializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            data = serializer.validated_data
            text = data.get("csv")
            if data.get("file") is not None:
                try:
                    text = data["file"].read().decode("utf-8-sig")
                except UnicodeDecodeError:
                    raise ApplicationError(_("The file is not UTF-8 text."), field="file") from None
            if not text:
                raise ApplicationError(_("Give the CSV as csv or file."), field="csv")
            report = import_csv(actor=actor, text=text, dry_run=data["dry_run"])
            body = {
                "dry_run": report.dry_run,
                "rows": report.rows,
                "stored": report.stored,
                "problems": [
                    {"row": p.row, "field": p.field, "message": p.message} for p in report.problems
                ],
            }
            if report.problems:
                return Response(body, status=status.HTTP_400_BAD_REQUEST)
            return Response(body, status=200 if report.dry_run else status.HTTP_201_CREATED)

        return idempotent(request, actor=actor, handler=run)
