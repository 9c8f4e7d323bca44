"""Django admin for club ratings and their history (read-mostly)."""

from django.contrib import admin

from ratings.models import Rating, RatingHistory


@admin.register(Rating)
class RatingAdmin(admin.ModelAdmin):
    list_display = ["player", "club", "kind", "rating", "deviation", "games", "period_start"]
    list_filter = ["kind", "club"]


@admin.register(RatingHistory)
class RatingHistoryAdmin(admin.ModelAdmin):
    list_display = ["player", "kind", "rating", "deviation", "match", "created_at"]
    list_filter = ["kind"]
