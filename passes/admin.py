from django.contrib import admin

from passes.models import PlayerPass


@admin.register(PlayerPass)
class PlayerPassAdmin(admin.ModelAdmin):
    list_display = ("registration", "created_at", "opened_at", "revoked_at", "withdrew_at")
    readonly_fields = ("nonce", "digest")
