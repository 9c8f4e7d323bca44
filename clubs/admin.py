"""Django admin for clubs, club roles and players."""

from django.contrib import admin

from clubs.models import Club, ClubRole, Player


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "rating_period_days"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role"]
    list_filter = ["role"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "is_guest", "family"]
    list_filter = ["club", "is_guest"]
    search_fields = ["name"]
