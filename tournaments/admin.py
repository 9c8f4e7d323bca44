"""Django admin for the tournament models (a director's back office, read-mostly).

Clubs, club roles and players are in ``clubs.admin``.
"""

from django.contrib import admin

from tournaments.models import (
    Event,
    ForbiddenPairing,
    Registration,
    Round,
    Standing,
)


class RegistrationInline(admin.TabularInline):
    model = Registration
    extra = 0
    raw_id_fields = ["player"]
    readonly_fields = ["checkin_token"]


@admin.register(Event)
class EventAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "kind", "status", "starts_on", "results_seq", "standings_seq"]
    list_filter = ["kind", "status", "club"]
    readonly_fields = [
        "results_seq",
        "standings_seq",
        "standings_updated_at",
        "ratings_seq",
        "draw",
    ]
    filter_horizontal = ["directors"]
    inlines = [RegistrationInline]


@admin.register(Round)
class RoundAdmin(admin.ModelAdmin):
    list_display = ["event", "number", "status"]
    list_filter = ["status"]


@admin.register(ForbiddenPairing)
class ForbiddenPairingAdmin(admin.ModelAdmin):
    list_display = ["event", "player_a", "player_b", "hard"]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["event", "rank", "player", "seq"]
    list_filter = ["event"]
