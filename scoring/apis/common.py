"""What every scoring API shares: the link and POST parameters, the error shape, the base view,
the 404 lookups, and the hand input (shared by hands, overrides and score sheets).
"""

from __future__ import annotations

from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema_field
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.views import APIView

from core.api import ERROR as ERROR  # the error shape every app documents, re-exported here
from core.parsing import AsciiIntegerField, parse_ascii_int
from engine.rules import RuleSet
from engine.scoring import HandOutcome
from scoring.models import HandSubmission, Match
from scoring.permissions import Actor
from scoring.selectors import match_prefetched, submission_get
from scoring.services import HandEntry, entry_family, entry_from_dict

LINK_PARAMETERS = [
    OpenApiParameter(
        "X-Match-Key",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="The secret of a private link of the match (the last part of its URL).",
    ),
]
POST_PARAMETERS = [
    *LINK_PARAMETERS,
    OpenApiParameter(
        "Idempotency-Key",
        OpenApiTypes.STR,
        OpenApiParameter.HEADER,
        description="Repeat-safe submit: the same key and body replays the first response; "
        "the same key with another body is 422.",
    ),
]


class BaseApi(APIView):
    permission_classes = [AllowAny]

    def actor(self, request: Request) -> Actor:
        return Actor.from_request(request)


def match_or_404(match_id: int) -> Match:
    try:
        return match_prefetched(match_id=match_id)
    except Match.DoesNotExist:
        raise Http404 from None


def submission_or_404(submission_id: int) -> HandSubmission:
    try:
        return submission_get(submission_id=submission_id)
    except HandSubmission.DoesNotExist:
        raise Http404 from None


# -- hand input (shared by hands, overrides and score sheets) -------------------------------------


@extend_schema_field(
    {"oneOf": [{"type": "string"}, {"type": "array", "items": {"type": "string"}}]}
)
class MeldsField(serializers.Field):
    """The knocker's melds: ``"AS 2S 3S | 7H 7D 7C"`` or a list of melds as strings."""

    def to_internal_value(self, data: Any) -> str | list[str]:
        if isinstance(data, str):
            return data
        if isinstance(data, list) and all(isinstance(item, str) for item in data):
            return data
        raise serializers.ValidationError(
            _('Give melds as "AS 2S 3S | 7H 7D 7C" or a list of strings.')
        )

    def to_representation(self, value: Any) -> Any:
        return value


class BoardInputSerializer(serializers.Serializer):
    knocker = AsciiIntegerField(min_value=0, required=False, help_text="Seat position.")
    defender = AsciiIntegerField(min_value=0, required=False, help_text="Seat position.")
    outcome = serializers.ChoiceField(choices=[o.value for o in HandOutcome], required=False)
    knocker_cards = serializers.CharField(required=False)
    defender_cards = serializers.CharField(required=False)
    knocker_melds = MeldsField(required=False)
    knocker_deadwood = AsciiIntegerField(required=False)
    defender_deadwood = AsciiIntegerField(required=False)
    defender_deadwood_before_layoffs = AsciiIntegerField(required=False)
    points = AsciiIntegerField(required=False)
    winner = AsciiIntegerField(min_value=0, required=False)
    upcard = serializers.CharField(required=False, max_length=4)
    taken_from_discard = serializers.CharField(
        required=False,
        max_length=4,
        help_text=(
            "By cards, optional: the card the knocker took from the discard pile on the knocking"
            " turn. It may not be the knock discard, so it must be among knocker_cards."
        ),
    )


class DefenderInputSerializer(serializers.Serializer):
    """One non-knocker of a three-player Gem hand, scored against the knocker on its own."""

    defender = AsciiIntegerField(
        min_value=0, required=False, help_text="Seat position; default: the other seats in order."
    )
    outcome = serializers.ChoiceField(
        choices=[o.value for o in HandOutcome],
        required=False,
        help_text="By counts: knock, undercut, gin or big_gin against this defender.",
    )
    defender_cards = serializers.CharField(required=False)
    defender_deadwood = AsciiIntegerField(
        required=False, help_text="After lay-offs (a claim the engine checks, by cards)."
    )
    defender_deadwood_before_layoffs = AsciiIntegerField(required=False)
    defender_gem_bonus = serializers.BooleanField(required=False)
    points = AsciiIntegerField(
        required=False, help_text="Optional: this pairing's points, checked."
    )


class HandInputSerializer(BoardInputSerializer):
    knock_limit = AsciiIntegerField(
        required=False, help_text="Gem Rummy: the knock-limit die (1-6)."
    )
    diamond_number = AsciiIntegerField(
        required=False, min_value=1, max_value=6, help_text="Gem Rummy: the diamond die."
    )
    knocker_gem_bonus = serializers.BooleanField(required=False)
    defender_gem_bonus = serializers.BooleanField(required=False)
    boards = BoardInputSerializer(
        many=True, required=False, help_text="Partnership: the two boards of the hand."
    )
    defenders = DefenderInputSerializer(
        many=True,
        required=False,
        help_text="Three-player Gem Rummy: each non-knocker against the knocker (two entries).",
    )
    went_out = AsciiIntegerField(
        min_value=0, required=False, help_text="Basic Rummy: who went out."
    )
    rummy = serializers.BooleanField(required=False, help_text="Basic Rummy: went rummy.")
    leftovers = serializers.DictField(
        child=serializers.JSONField(),
        required=False,
        help_text='Basic Rummy: seat → cards left ("KS 5H") or their count.',
    )

    def validate_leftovers(self, value: dict[str, Any]) -> dict[str, Any]:
        for key, item in value.items():
            if parse_ascii_int(key) is None:
                raise serializers.ValidationError(_("Keys are seat positions."))
            if isinstance(item, bool) or not isinstance(item, int | str):
                raise serializers.ValidationError(
                    _("Seat %(seat)s: give the cards left or their count.") % {"seat": key}
                )
        return value


def hand_entry(data: dict[str, Any], match: Match, prefix: str = "") -> HandEntry:
    """The hand in ``data`` as the kind of entry ``match``'s family takes (a field of another
    family is a 400 naming it)."""
    data = {k: v for k, v in data.items() if k not in ("hand_number", "as_position", "reason")}
    family = entry_family(rules=RuleSet.from_dict(match.rules), seats=len(match.seats.all()))
    return entry_from_dict(data, family=family, prefix=prefix)
