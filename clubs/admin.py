"""Django admin for clubs, club roles and players."""

from django.contrib import admin

from clubs.models import Club, ClubRole, Player, RoleInvitation


@admin.register(Club)
class ClubAdmin(admin.ModelAdmin):
    list_display = ["name", "slug", "rating_period_days"]
    prepopulated_fields = {"slug": ["name"]}


@admin.register(ClubRole)
class ClubRoleAdmin(admin.ModelAdmin):
    list_display = ["club", "user", "role"]
    list_filter = ["role"]


@admin.register(RoleInvitation)
class RoleInvitationAdmin(admin.ModelAdmin):
    """Invitations are answered by their holder on /me/: the admin shows them, and may delete
    one, but never accepts one for someone."""

    list_display = ["username", "club", "role", "created_at", "accepted_at"]
    list_filter = ["role", "club"]
    search_fields = ["username"]
    readonly_fields = ["created_at", "accepted_at", "accepted_by", "invited_by"]


@admin.register(Player)
class PlayerAdmin(admin.ModelAdmin):
    list_display = ["name", "club", "is_guest", "family"]
    list_filter = ["club", "is_guest"]
    search_fields = ["name"]
