"""Admin: matches with their seats, games, hands, and submissions with their full history."""

from django.contrib import admin
from simple_history.admin import SimpleHistoryAdmin

from scoring.models import Game, Hand, HandSubmission, IdempotencyRecord, Match, MatchKey, Seat


class SeatInline(admin.TabularInline):
    model = Seat
    extra = 0


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ("id", "event", "table_number", "status", "winner", "created_at")
    list_filter = ("status", "event")
    inlines = [SeatInline]


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "match", "number", "status", "winner_position", "margin")
    list_filter = ("status",)


@admin.register(Hand)
class HandAdmin(admin.ModelAdmin):
    list_display = ("id", "game", "number", "created_at")


@admin.register(HandSubmission)
class HandSubmissionAdmin(SimpleHistoryAdmin):
    list_display = ("id", "hand", "version", "entry", "status", "created_at", "confirmed_at")
    list_filter = ("status", "entry")
    # What was entered and who acted with which credential is the audit trail: never edited.
    readonly_fields = (
        "payload",
        "result",
        "ip_address",
        "user_agent",
        "created_at",
        "submitted_via",
        "submitted_via_key",
        "confirmed_via",
        "confirmed_via_key",
        "disputed_via",
        "disputed_via_key",
    )


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ("scope", "key", "method", "path", "status_code", "created_at")


@admin.register(MatchKey)
class MatchKeyAdmin(admin.ModelAdmin):
    """Private links: which exist and which were revoked (the secrets are not stored)."""

    list_display = ("id", "match", "position", "created_at", "revoked_at")
    readonly_fields = ("match", "position", "nonce", "digest", "created_at", "revoked_at")
