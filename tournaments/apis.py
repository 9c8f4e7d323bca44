"""The REST API of clubs, players, events, registrations, rounds, standings, brackets and ratings.

One APIView per operation; input and output serializers live inside the view. Views only check
permissions, parse input, and call one service or selector; every error is an ApplicationError
turned into JSON by ``core.api.exception_handler``.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring.models import Match
from tournaments import selectors, services
from tournaments.models import Club, Event, Player, Registration, Round
from tournaments.permissions import (
    ReadOnlyOrAuthenticated,
    require,
    user_can_direct_club,
    user_can_manage_club,
    user_can_manage_event,
)


def _paginate(request: Request, view: APIView, queryset: Any, serializer: type) -> Response:
    paginator: LimitOffsetPagination = LimitOffsetPagination()
    page: Any = paginator.paginate_queryset(queryset, request, view=view)
    return paginator.get_paginated_response(serializer(page, many=True).data)


def _user(request: Request) -> User | None:
    user = request.user
    return user if isinstance(user, User) else None


class _Api(APIView):
    permission_classes = [ReadOnlyOrAuthenticated]


# --- Clubs ----------------------------------------------------------------------------------


class ClubOutput(serializers.ModelSerializer):
    class Meta:
        model = Club
        fields = ["id", "name", "slug", "description", "rating_period_days", "created_at"]


class ClubListApi(_Api):
    class ClubListInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        slug = serializers.CharField(max_length=80, required=False, allow_blank=True)
        description = serializers.CharField(required=False, allow_blank=True)
        rating_period_days = serializers.IntegerField(required=False, min_value=1)

    @extend_schema(responses=ClubOutput(many=True))
    def get(self, request: Request) -> Response:
        return _paginate(request, self, selectors.club_list(), ClubOutput)

    @extend_schema(request=ClubListInputSerializer, responses={201: ClubOutput})
    def post(self, request: Request) -> Response:
        data = self.ClubListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        club = services.club_create(user=_user(request), **data.validated_data)
        return Response(ClubOutput(club).data, status=status.HTTP_201_CREATED)


class ClubDetailApi(_Api):
    class ClubDetailOutputSerializer(ClubOutput):
        events = serializers.SerializerMethodField()
        players = serializers.SerializerMethodField()
        can_manage = serializers.SerializerMethodField()

        class Meta(ClubOutput.Meta):
            fields = [*ClubOutput.Meta.fields, "events", "players", "can_manage"]

        def get_events(self, club: Club) -> list[dict[str, Any]]:
            return [
                {
                    "id": e.pk,
                    "name": e.name,
                    "kind": e.kind,
                    "status": e.status,
                    "starts_on": e.starts_on,
                }
                for e in selectors.event_list(club_id=club.pk)[:50]
            ]

        def get_players(self, club: Club) -> int:
            return club.players.count()

        def get_can_manage(self, club: Club) -> bool:
            return user_can_manage_club(user=self.context["request"].user, club=club)

    @extend_schema(responses=ClubDetailOutputSerializer)
    def get(self, request: Request, club_id: int) -> Response:
        club = get_object_or_404(Club, pk=club_id)
        return Response(self.ClubDetailOutputSerializer(club, context={"request": request}).data)


class ClubRoleGrantApi(_Api):
    class ClubRoleGrantInputSerializer(serializers.Serializer):
        username = serializers.CharField()
        role = serializers.ChoiceField(choices=["admin", "director"])

    @extend_schema(
        request=ClubRoleGrantInputSerializer,
        responses={
            201: inline_serializer(
                "ClubRole", {"username": serializers.CharField(), "role": serializers.CharField()}
            )
        },
    )
    def post(self, request: Request, club_id: int) -> Response:
        club = get_object_or_404(Club, pk=club_id)
        require(user_can_manage_club(user=request.user, club=club), "only club admins grant roles")
        data = self.ClubRoleGrantInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        user = get_object_or_404(get_user_model(), username=data.validated_data["username"])
        role = services.club_role_grant(club=club, user=user, role=data.validated_data["role"])
        return Response(
            {"username": user.get_username(), "role": role.role}, status=status.HTTP_201_CREATED
        )


# --- Players --------------------------------------------------------------------------------


class PlayerOutput(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "club", "name", "is_guest", "family", "created_at"]


class PlayerListApi(_Api):
    class PlayerListInputSerializer(serializers.Serializer):
        club = serializers.IntegerField()
        name = serializers.CharField(max_length=120)
        is_guest = serializers.BooleanField(required=False, default=False)
        family = serializers.CharField(required=False, allow_blank=True, default="")

    @extend_schema(responses=PlayerOutput(many=True))
    def get(self, request: Request) -> Response:
        club = request.query_params.get("club")
        qs = selectors.player_list(club_id=int(club) if club and club.isdigit() else None)
        return _paginate(request, self, qs, PlayerOutput)

    @extend_schema(request=PlayerListInputSerializer, responses={201: PlayerOutput})
    def post(self, request: Request) -> Response:
        data = self.PlayerListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        club = get_object_or_404(Club, pk=v.pop("club"))
        require(
            user_can_direct_club(user=request.user, club=club),
            "only the club's admins and directors add players",
        )
        player = services.player_create(club=club, **v)
        return Response(PlayerOutput(player).data, status=status.HTTP_201_CREATED)


class PlayerDetailApi(_Api):
    @extend_schema(responses=PlayerOutput)
    def get(self, request: Request, player_id: int) -> Response:
        return Response(PlayerOutput(get_object_or_404(Player, pk=player_id)).data)


class PlayerRatingsApi(_Api):
    class RatingOutput(serializers.Serializer):
        kind = serializers.CharField()
        club = serializers.IntegerField(source="club_id")
        rating = serializers.FloatField()
        deviation = serializers.FloatField()
        volatility = serializers.FloatField(allow_null=True)
        games = serializers.IntegerField()
        period_start = serializers.DateField(allow_null=True)

    class HistoryOutput(serializers.Serializer):
        kind = serializers.CharField()
        rating = serializers.FloatField()
        deviation = serializers.FloatField()
        match = serializers.IntegerField(source="match_id", allow_null=True)
        period_start = serializers.DateField(allow_null=True)
        created_at = serializers.DateTimeField()

    class PlayerRatingsOutputSerializer(serializers.Serializer):
        player = PlayerOutput()
        current = serializers.SerializerMethodField()
        history = serializers.SerializerMethodField()

        def get_current(self, data: dict[str, Any]) -> Any:
            return PlayerRatingsApi.RatingOutput(data["current"], many=True).data

        def get_history(self, data: dict[str, Any]) -> Any:
            return PlayerRatingsApi.HistoryOutput(data["history"], many=True).data

    @extend_schema(responses=PlayerRatingsOutputSerializer)
    def get(self, request: Request, player_id: int) -> Response:
        player = get_object_or_404(Player, pk=player_id)
        return Response(
            self.PlayerRatingsOutputSerializer(selectors.player_ratings(player=player)).data
        )


# --- Events ---------------------------------------------------------------------------------


class EventOutput(serializers.ModelSerializer):
    standings_stale = serializers.BooleanField(read_only=True)

    class Meta:
        model = Event
        fields = [
            "id",
            "club",
            "league",
            "name",
            "kind",
            "status",
            "starts_on",
            "rules",
            "match_format",
            "confirmation",
            "rounds_planned",
            "options",
            "tiebreaks",
            "lots_seed",
            "results_seq",
            "standings_seq",
            "standings_stale",
            "created_at",
        ]


class EventListApi(_Api):
    class EventListInputSerializer(serializers.Serializer):
        club = serializers.IntegerField()
        name = serializers.CharField(max_length=160)
        kind = serializers.ChoiceField(choices=Event.Kind.choices)
        rules = serializers.JSONField(required=False)
        match_format = serializers.JSONField(required=False, default=None)
        confirmation = serializers.ChoiceField(
            choices=Event.Confirmation.choices, required=False, default="opponent"
        )
        rounds_planned = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        options = serializers.JSONField(required=False, default=dict)
        tiebreaks = serializers.ListField(child=serializers.CharField(), required=False)
        league = serializers.IntegerField(required=False, allow_null=True)
        starts_on = serializers.DateField(required=False, allow_null=True)

    @extend_schema(responses=EventOutput(many=True))
    def get(self, request: Request) -> Response:
        club, kind = request.query_params.get("club"), request.query_params.get("kind")
        qs = selectors.event_list(club_id=int(club) if club and club.isdigit() else None, kind=kind)
        return _paginate(request, self, qs, EventOutput)

    @extend_schema(request=EventListInputSerializer, responses={201: EventOutput})
    def post(self, request: Request) -> Response:
        data = self.EventListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        club = get_object_or_404(Club, pk=v.pop("club"))
        require(
            user_can_direct_club(user=request.user, club=club),
            "only the club's admins and directors create events",
        )
        league_id = v.pop("league", None)
        league = get_object_or_404(Event, pk=league_id) if league_id else None
        event = services.event_create(club_id=club.pk, league=league, user=_user(request), **v)
        return Response(EventOutput(event).data, status=status.HTTP_201_CREATED)


def _event(event_id: int) -> Event:
    return get_object_or_404(Event.objects.select_related("club"), pk=event_id)


def _managed_event(request: Request, event_id: int) -> Event:
    event = _event(event_id)
    require(
        user_can_manage_event(user=request.user, event=event),
        "only this event's directors and the club's admins and directors may do this",
    )
    return event


class EventDetailApi(_Api):
    @extend_schema(responses=EventOutput)
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EventOutput(_event(event_id)).data)


class EventFinishApi(_Api):
    @extend_schema(request=None, responses=EventOutput)
    def post(self, request: Request, event_id: int) -> Response:
        event = services.event_finish(event=_managed_event(request, event_id))
        return Response(EventOutput(event).data)


class EventPlayoffCreateApi(_Api):
    @extend_schema(request=None, responses={201: EventOutput})
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
        playoff = services.event_playoff_create(event=event, user=_user(request))
        return Response(EventOutput(playoff).data, status=status.HTTP_201_CREATED)


# --- Registrations --------------------------------------------------------------------------


class RegistrationOutput(serializers.ModelSerializer):
    player = PlayerOutput()

    class Meta:
        model = Registration
        fields = [
            "id",
            "player",
            "status",
            "seed",
            "joined_round",
            "dropped_after_round",
            "requested_byes",
            "created_at",
        ]


class RegistrationWithTokenOutput(RegistrationOutput):
    class Meta(RegistrationOutput.Meta):
        fields = [*RegistrationOutput.Meta.fields, "checkin_token"]


class RegistrationListApi(_Api):
    class RegistrationListInputSerializer(serializers.Serializer):
        player = serializers.IntegerField()
        seed = serializers.IntegerField(required=False, allow_null=True, min_value=1)
        requested_byes = serializers.ListField(
            child=serializers.IntegerField(min_value=1), required=False, default=list
        )
        checked_in = serializers.BooleanField(required=False, default=False)

    @extend_schema(responses=RegistrationOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        manager = user_can_manage_event(user=request.user, event=event)
        output = RegistrationWithTokenOutput if manager else RegistrationOutput
        return _paginate(request, self, selectors.registration_list(event=event), output)

    @extend_schema(
        request=RegistrationListInputSerializer, responses={201: RegistrationWithTokenOutput}
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
        data = self.RegistrationListInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = dict(data.validated_data)
        player = get_object_or_404(Player, pk=v.pop("player"))
        registration = services.registration_create(event=event, player=player, **v)
        return Response(
            RegistrationWithTokenOutput(registration).data, status=status.HTTP_201_CREATED
        )


def _registration(event: Event, registration_id: int) -> Registration:
    return get_object_or_404(
        Registration.objects.select_related("event__club", "player"),
        pk=registration_id,
        event=event,
    )


class RegistrationCheckinApi(_Api):
    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = _managed_event(request, event_id)
        registration = services.registration_checkin(
            registration=_registration(event, registration_id)
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationDropApi(_Api):
    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, event_id: int, registration_id: int) -> Response:
        event = _managed_event(request, event_id)
        registration = services.registration_drop(
            registration=_registration(event, registration_id)
        )
        return Response(RegistrationOutput(registration).data)


class RegistrationSelfCheckinApi(APIView):
    """The player's own link: ``POST /api/checkin/<token>/``, no account needed."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    @extend_schema(request=None, responses=RegistrationOutput)
    def post(self, request: Request, token: str) -> Response:
        registration = services.registration_checkin_by_token(token=token)
        return Response(RegistrationOutput(registration).data)


class ForbiddenPairingCreateApi(_Api):
    class ForbiddenPairingCreateInputSerializer(serializers.Serializer):
        player_a = serializers.IntegerField()
        player_b = serializers.IntegerField()
        hard = serializers.BooleanField(required=False, default=True)

    @extend_schema(
        request=ForbiddenPairingCreateInputSerializer,
        responses={
            201: inline_serializer(
                "ForbiddenPairing",
                {
                    "id": serializers.IntegerField(),
                    "player_a": serializers.IntegerField(),
                    "player_b": serializers.IntegerField(),
                    "hard": serializers.BooleanField(),
                },
            )
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
        data = self.ForbiddenPairingCreateInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        pairing = services.forbidden_pairing_create(
            event=event,
            player_a=get_object_or_404(Player, pk=v["player_a"]),
            player_b=get_object_or_404(Player, pk=v["player_b"]),
            hard=v["hard"],
        )
        return Response(
            {
                "id": pairing.pk,
                "player_a": pairing.player_a_id,
                "player_b": pairing.player_b_id,
                "hard": pairing.hard,
            },
            status=status.HTTP_201_CREATED,
        )


# --- Rounds ---------------------------------------------------------------------------------


class SeatOutput(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    position = serializers.IntegerField()


class MatchOutput(serializers.ModelSerializer):
    seats = SeatOutput(many=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "table_number",
            "bracket_key",
            "status",
            "decision",
            "winner",
            "seats",
            "summary",
        ]


class RoundOutput(serializers.ModelSerializer):
    matches = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["id", "number", "status", "error", "created_at", "matches"]

    def get_matches(self, rnd: Round) -> Any:
        return MatchOutput(selectors.round_matches(rnd=rnd), many=True).data


class RoundListApi(_Api):
    @extend_schema(responses=RoundOutput(many=True))
    def get(self, request: Request, event_id: int) -> Response:
        rounds = selectors.event_rounds(event=_event(event_id))
        return Response(RoundOutput(rounds, many=True).data)

    @extend_schema(
        request=None,
        responses={201: RoundOutput, 202: RoundOutput},
        description="Pair the next round (or draw the bracket). A big Swiss field answers 202 "
        "with a queued round: poll GET /api/events/{id}/rounds/{number}/ until its status is "
        "'paired' or 'failed'.",
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = _managed_event(request, event_id)
        rnd = services.round_pair(event=event, user=_user(request))
        code = status.HTTP_202_ACCEPTED if rnd.status == Round.Status.QUEUED else 201
        return Response(RoundOutput(rnd).data, status=code)


class RoundDetailApi(_Api):
    @extend_schema(responses=RoundOutput)
    def get(self, request: Request, event_id: int, number: int) -> Response:
        rnd = get_object_or_404(Round, event_id=event_id, number=number)
        return Response(RoundOutput(rnd).data)


class RoundRepairApi(_Api):
    @extend_schema(request=None, responses=RoundOutput)
    def post(self, request: Request, event_id: int, number: int) -> Response:
        event = _managed_event(request, event_id)
        rnd = get_object_or_404(Round, event=event, number=number)
        return Response(RoundOutput(services.round_repair(rnd=rnd, user=_user(request))).data)


class MatchForfeitApi(_Api):
    class MatchForfeitInputSerializer(serializers.Serializer):
        players = serializers.ListField(child=serializers.IntegerField(), min_length=1)

    @extend_schema(request=MatchForfeitInputSerializer, responses=MatchOutput)
    def post(self, request: Request, event_id: int, match_id: int) -> Response:
        event = _managed_event(request, event_id)
        match = get_object_or_404(Match, pk=match_id, event=event)
        data = self.MatchForfeitInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        players = list(Player.objects.filter(pk__in=data.validated_data["players"]))
        match = services.match_forfeit(match=match, players=players)
        return Response(
            MatchOutput(Match.objects.prefetch_related("seats__player").get(pk=match.pk)).data
        )


# --- Standings, bracket ---------------------------------------------------------------------


class StandingRowOutput(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    values = serializers.DictField()


class EventStandingsApi(_Api):
    class EventStandingsOutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        as_of = serializers.IntegerField(help_text="The results sequence the rows reflect.")
        results_seq = serializers.IntegerField()
        stale = serializers.BooleanField(help_text="True while newer results are being counted.")
        updated_at = serializers.DateTimeField(allow_null=True)
        tiebreaks = serializers.ListField(child=serializers.CharField())
        rows = StandingRowOutput(many=True)

    @extend_schema(responses=EventStandingsOutputSerializer)
    def get(self, request: Request, event_id: int) -> Response:
        event = _event(event_id)
        order = ["match_points", *(tb.value for tb in selectors.event_tiebreak_order(event=event))]
        if event.kind == Event.Kind.LEAGUE:
            lines = selectors.league_table(league=event)
            names = dict(
                Player.objects.filter(pk__in=[ln.player for ln in lines]).values_list("pk", "name")
            )
            seq = selectors.league_results_seq(league=event)
            body = {
                "event": event.pk,
                "as_of": seq,
                "results_seq": seq,
                "stale": False,
                "updated_at": None,
                "tiebreaks": order,
                "rows": [
                    {
                        "rank": ln.rank,
                        "player": ln.player,
                        "name": names[ln.player],
                        "values": ln.values,
                    }
                    for ln in lines
                ],
            }
        else:
            st = selectors.event_standings(event=event)
            body = {
                "event": event.pk,
                "as_of": st.as_of,
                "results_seq": st.results_seq,
                "stale": st.stale,
                "updated_at": st.updated_at,
                "tiebreaks": order,
                "rows": [
                    {
                        "rank": r.rank,
                        "player": r.player_id,
                        "name": r.player.name,
                        "values": r.values,
                    }
                    for r in st.rows
                ],
            }
        return Response(self.EventStandingsOutputSerializer(body).data)


class EventBracketApi(_Api):
    @extend_schema(
        responses=inline_serializer(
            "Bracket",
            {
                "kind": serializers.CharField(),
                "entrants": serializers.ListField(child=serializers.DictField()),
                "matches": serializers.ListField(child=serializers.DictField()),
                "champion": serializers.DictField(allow_null=True),
                "ready": serializers.ListField(child=serializers.IntegerField()),
            },
        )
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(selectors.event_bracket(event=_event(event_id)))
