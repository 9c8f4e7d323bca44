"""An event's standings (with their freshness, or a league's table) and its bracket."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response

from clubs.models import Player
from core.parsing import AsciiIntegerField
from tournaments import selectors
from tournaments.apis.common import BaseApi, event_or_404
from tournaments.models import Event


class StandingRowOutput(serializers.Serializer):
    rank = AsciiIntegerField()
    player = AsciiIntegerField()
    name = serializers.CharField()
    values = serializers.DictField()


class EventStandingsApi(BaseApi):
    class EventStandingsOutputSerializer(serializers.Serializer):
        event = serializers.IntegerField()
        as_of = serializers.IntegerField(help_text="The results sequence the rows reflect.")
        results_seq = serializers.IntegerField()
        stale = serializers.BooleanField(help_text="True while newer results are not counted yet.")
        state = serializers.ChoiceField(
            choices=["current", "updating", "error"],
            help_text="current; updating (newer results are being counted); error (they could "
            "not be: see error).",
        )
        error = serializers.CharField(
            allow_null=True, help_text="Why the latest results could not be counted."
        )
        updated_at = serializers.DateTimeField(allow_null=True)
        tiebreaks = serializers.ListField(child=serializers.CharField())
        rows = StandingRowOutput(many=True)

    @extend_schema(responses=EventStandingsOutputSerializer)
    def get(self, request: Request, event_id: int) -> Response:
        event = event_or_404(event_id)
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
                "state": "current",
                "error": None,
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
                "state": st.state,
                "error": st.error or None,
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


class EventBracketApi(BaseApi):
    @extend_schema(
        responses=inline_serializer(
            "Bracket",
            {
                "kind": serializers.CharField(),
                "entrants": serializers.ListField(child=serializers.DictField()),
                "matches": serializers.ListField(child=serializers.DictField()),
                "champion": serializers.DictField(allow_null=True),
                "ready": serializers.ListField(child=AsciiIntegerField()),
            },
        )
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(selectors.event_bracket(event=event_or_404(event_id)))
