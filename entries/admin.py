from django.contrib import admin

from entries.models import Entry


@admin.register(Entry)
class EntryAdmin(admin.ModelAdmin):
    list_display = ("name", "event", "status", "waiting_position", "language", "created_at")
    list_filter = ("status", "language")
    search_fields = ("name", "email")
    raw_id_fields = ("event", "player", "registration", "merged_into")
