"""Online entry: the public entry (no account), the director's list of entries and their
actions (approve, refuse, waiting list, withdraw, merge), and the entry settings."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import get_language
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from core.api import ERROR, FORBIDDEN, INVALID, NOT_FOUND, conflict
from core.net import client_ip
from core.pagination import Pagination
from core.parsing import AsciiIntegerField
from entries import services
from entries.models import Entry
from entries.selectors import entry_list
from tournaments.apis.common import BaseApi, event_or_404, managed_event, paginate_list
from tournaments.models import Event
from tournaments.selectors import event_options

TOO_MANY = OpenApiResponse(
    ERROR, description="Too many entries from this address; `Retry-After` says when to retry."
)


class EntryPublicOutput(serializers.ModelSerializer):
    """What the entrant reads back: nothing of anyone else."""

    class Meta:
        model = Entry
        fields = ["id", "name", "status", "waiting_position", "created_at"]


class EntryOutput(serializers.ModelSerializer):
    """An entry as the event's directors see it."""

    class Meta:
        model = Entry
        fields = [
            "id",
            "name",
            "email",
            "note",
            "language",
            "status",
            "waiting_position",
            "player",
            "registration",
            "merged_into",
            "created_at",
            "updated_at",
        ]


class EntrySettingsOutput(serializers.Serializer):
    entries_open = serializers.BooleanField()
    entries_cap = serializers.IntegerField(allow_null=True)
    entries_approval = serializers.BooleanField()
    entries_close_at = serializers.DateTimeField(allow_null=True)


def _settings(event: Event) -> dict[str, Any]:
    options = event_options(event=event)
    return {
        "entries_open": options.entries_open,
        "entries_cap": options.entries_cap,
        "entries_approval": options.entries_approval,
        "entries_close_at": event.entries_close_at,
    }


class EntryListApi(BaseApi):
    pagination_class = Pagination

    @extend_schema(
        operation_id="events_entries_list",
        summary="The event's online entries",
        description="Every entry, oldest first, with its status (`pending` awaiting approval, "
        "`accepted`, `waiting` with its `waiting_position`, `refused`, `withdrawn`), the club "
        "player it was matched to and the registration it became. Only the event's directors "
        "and the club's admins and directors (entries hold emails).",
        responses={200: EntryOutput(many=True), 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def get(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        return paginate_list(request, self, entry_list(event=event), EntryOutput)


class EntryEnterApi(APIView):
    """``POST /api/events/<id>/enter/``: a player enters, no account needed."""

    permission_classes = [AllowAny]
    authentication_classes: list[type] = []

    class EntryEnterInputSerializer(serializers.Serializer):
        name = serializers.CharField(max_length=120, help_text="The entrant's name.")
        email = serializers.EmailField(
            required=False, allow_blank=True, default="", help_text="To be told by mail."
        )
        note = serializers.CharField(required=False, allow_blank=True, default="", max_length=500)
        waiting_list = serializers.BooleanField(
            required=False,
            default=False,
            help_text="Join the waiting list if the event is full (else a full event is a 409 "
            "with `code` `full`).",
        )
        website = serializers.CharField(
            required=False,
            allow_blank=True,
            default="",
            max_length=200,
            help_text="Leave empty (a field only bots fill).",
        )

    @extend_schema(
        operation_id="events_enter",
        summary="Enter an event online",
        description="The entry page's submission. The name is matched to a player of the "
        "event's club (case-insensitively) or becomes one when the entry is accepted. The "
        "entry is `accepted` (registered), `pending` (the event's director approves entries) or "
        "`waiting` (the event is full and `waiting_list` was asked). Refused, storing nothing: "
        "a duplicate (409, `code` `duplicate`), entries not open or closed (409, `code` "
        "`closed`), a full event without `waiting_list` (409, `code` `full`), a filled "
        "`website` (400), too many entries from one address (429). The entrant's mails are "
        "written in the request's language (`Accept-Language`, or the language cookie).",
        request=EntryEnterInputSerializer,
        responses={
            201: EntryPublicOutput,
            400: INVALID,
            404: NOT_FOUND,
            409: conflict("A duplicate entry, entries closed, or the event full (`code`)."),
            429: TOO_MANY,
        },
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = event_or_404(event_id)
        data = self.EntryEnterInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        entry = services.entry_submit(
            event=event,
            name=v["name"],
            email=v["email"],
            note=v["note"],
            waiting_list=v["waiting_list"],
            honeypot=v["website"],
            ip=client_ip(request),
            language=get_language(),
        )
        return Response(EntryPublicOutput(entry).data, status=status.HTTP_201_CREATED)


class EntrySettingsApi(BaseApi):
    class EntrySettingsInputSerializer(serializers.Serializer):
        entries_open = serializers.BooleanField()
        entries_cap = AsciiIntegerField(required=False, allow_null=True, default=None, min_value=1)
        entries_approval = serializers.BooleanField(required=False, default=False)
        entries_close_at = serializers.DateTimeField(required=False, allow_null=True, default=None)

    @extend_schema(
        operation_id="events_entries_settings_retrieve",
        summary="The event's entry settings",
        responses={200: EntrySettingsOutput, 404: NOT_FOUND},
    )
    def get(self, request: Request, event_id: int) -> Response:
        return Response(EntrySettingsOutput(_settings(event_or_404(event_id))).data)

    @extend_schema(
        operation_id="events_entries_settings_update",
        summary="Open or close entries, set the cap, approval and closing time",
        description="The options `entries_open`, `entries_cap` and `entries_approval` and the "
        "event's `entries_close_at`. A raised cap fills its new places from the waiting list. "
        "Only the event's directors and the club's admins and directors.",
        request=EntrySettingsInputSerializer,
        responses={200: EntrySettingsOutput, 400: INVALID, 403: FORBIDDEN, 404: NOT_FOUND},
    )
    def post(self, request: Request, event_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.EntrySettingsInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        v = data.validated_data
        event = services.event_entries_configure(
            event=event,
            entries_open=v["entries_open"],
            cap=v["entries_cap"],
            approval=v["entries_approval"],
            close_at=v["entries_close_at"],
        )
        return Response(EntrySettingsOutput(_settings(event)).data)


def _entry(event: Event, entry_id: int) -> Entry:
    return get_object_or_404(Entry.objects.select_related("event"), pk=entry_id, event=event)


ACTION_CONFLICT = conflict("The entry's status does not allow this (the message says why).")


class EntryApproveApi(BaseApi):
    @extend_schema(
        operation_id="events_entries_approve",
        summary="Approve an entry (or move it from the waiting list)",
        description="A pending entry is registered if the event has room, else it goes to "
        "the end of the waiting list; a waiting entry is registered even past the cap.",
        request=None,
        responses={200: EntryOutput, 403: FORBIDDEN, 404: NOT_FOUND, 409: ACTION_CONFLICT},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = managed_event(request, event_id)
        return Response(EntryOutput(services.entry_approve(entry=_entry(event, entry_id))).data)


class EntryRefuseApi(BaseApi):
    @extend_schema(
        operation_id="events_entries_refuse",
        summary="Refuse an entry awaiting approval or waiting",
        request=None,
        responses={200: EntryOutput, 403: FORBIDDEN, 404: NOT_FOUND, 409: ACTION_CONFLICT},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = managed_event(request, event_id)
        return Response(EntryOutput(services.entry_refuse(entry=_entry(event, entry_id))).data)


class EntryWaitlistApi(BaseApi):
    @extend_schema(
        operation_id="events_entries_waitlist",
        summary="Move an entry to the waiting list",
        description="A pending entry, or an accepted one before the first round (its "
        "registration is removed), goes to the end of the waiting list.",
        request=None,
        responses={200: EntryOutput, 403: FORBIDDEN, 404: NOT_FOUND, 409: ACTION_CONFLICT},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = managed_event(request, event_id)
        return Response(EntryOutput(services.entry_waitlist(entry=_entry(event, entry_id))).data)


class EntryWithdrawApi(BaseApi):
    @extend_schema(
        operation_id="events_entries_withdraw",
        summary="Withdraw an entry",
        description="An accepted entrant drops out like any registered player (before the "
        "first round the waiting list moves up and the promoted entrant is told).",
        request=None,
        responses={200: EntryOutput, 403: FORBIDDEN, 404: NOT_FOUND, 409: ACTION_CONFLICT},
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = managed_event(request, event_id)
        return Response(EntryOutput(services.entry_withdraw(entry=_entry(event, entry_id))).data)


class EntryMergeApi(BaseApi):
    class EntryMergeInputSerializer(serializers.Serializer):
        into = AsciiIntegerField(help_text="The entry to keep (of the same event).")

    @extend_schema(
        operation_id="events_entries_merge",
        summary="Merge a duplicate entry into another",
        description="The entry in the path is withdrawn and points at `into`, which keeps its "
        "status and takes the duplicate's email and note where it has none (and its "
        "registration, when only the duplicate was registered).",
        request=EntryMergeInputSerializer,
        responses={
            200: EntryOutput,
            400: INVALID,
            403: FORBIDDEN,
            404: NOT_FOUND,
            409: ACTION_CONFLICT,
        },
    )
    def post(self, request: Request, event_id: int, entry_id: int) -> Response:
        event = managed_event(request, event_id)
        data = self.EntryMergeInputSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        into = _entry(event, data.validated_data["into"])
        kept = services.entry_merge(entry=_entry(event, entry_id), into=into)
        return Response(EntryOutput(kept).data)
