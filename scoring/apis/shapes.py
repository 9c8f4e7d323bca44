"""What the scoring API answers, as serializers for the OpenAPI schema.

The selectors in :mod:`scoring.selectors.shapes` build these bodies; the classes here only
describe them, so that every documented response is the one sent (the contract test in
``tests/contract`` checks it against the live app).
"""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from scoring.models import Credential, HandSubmission, Match
from scoring.selectors.status import STATUS_LABELS


@extend_schema_serializer(component_name="HandAuthor")
class WhoOutput(serializers.Serializer):
    user = serializers.CharField(allow_null=True, help_text="The account's username, if any.")
    player = serializers.CharField(allow_null=True, help_text="The player's name, if any.")


@extend_schema_serializer(component_name="Hand")
class HandOutput(serializers.Serializer):
    """One version of a hand as entered, with the engine's verdict.

    Besides the fields listed, the body carries the engine's verdict for the game family:
    ``outcome``, ``winner``, ``points``, deadwood counts, the arrangement and lay-offs it used
    (by cards), bonuses.
    """

    id = serializers.IntegerField(help_text="The submission: confirm, withdraw, override it.")
    game = serializers.IntegerField()
    hand_number = serializers.IntegerField()
    version = serializers.IntegerField(help_text="1, then one more for each override.")
    status = serializers.ChoiceField(choices=HandSubmission.Status.choices)
    entry = serializers.ChoiceField(choices=HandSubmission.Entry.choices)
    submitted_by = WhoOutput(allow_null=True)
    confirmed_by = WhoOutput(allow_null=True)
    disputed_by = WhoOutput(allow_null=True)
    submitted_via = serializers.ChoiceField(
        choices=Credential.choices,
        allow_null=True,
        help_text="The credential that entered it: a seat's link, the table link (one shared "
        "phone), a signed-in session or an API token (null: entered before it was recorded).",
    )
    confirmed_via = serializers.ChoiceField(
        choices=Credential.choices, allow_null=True, help_text="The credential that confirmed it."
    )
    disputed_via = serializers.ChoiceField(
        choices=Credential.choices, allow_null=True, help_text="The credential that disputed it."
    )
    on_table_phone = serializers.BooleanField(
        help_text="One table link both entered and confirmed it: one phone at the table did "
        "both sides."
    )
    dispute_reason = serializers.CharField(allow_blank=True)
    override_reason = serializers.CharField(allow_blank=True)
    created_at = serializers.DateTimeField()
    confirmed_at = serializers.DateTimeField(allow_null=True)


@extend_schema_serializer(component_name="DisputedHand")
class DisputeOutput(HandOutput):
    """A disputed entry as the director's list shows it: where it is, and who said what."""

    match = serializers.IntegerField()
    table_number = serializers.IntegerField(allow_null=True)
    players = serializers.ListField(child=serializers.CharField())
    disputed_at = serializers.DateTimeField(allow_null=True)


@extend_schema_serializer(component_name="MatchSeat")
class SeatOutput(serializers.Serializer):
    position = serializers.IntegerField()
    player = serializers.IntegerField()
    name = serializers.CharField()
    team = serializers.IntegerField(allow_null=True)


@extend_schema_serializer(component_name="MatchSide")
class SideOutput(serializers.Serializer):
    index = serializers.IntegerField()
    name = serializers.CharField(allow_null=True)
    positions = serializers.ListField(child=serializers.IntegerField())


@extend_schema_serializer(component_name="MatchDetail")
class MatchDetailOutput(serializers.Serializer):
    """A match: seats, games with totals and bonuses, who deals next, the entry waiting."""

    id = serializers.IntegerField()
    event = serializers.IntegerField()
    event_name = serializers.CharField()
    round = serializers.IntegerField(allow_null=True)
    table_number = serializers.IntegerField(allow_null=True)
    status = serializers.ChoiceField(
        choices=Match.Status.choices,
        help_text="The stored status: it moves when a confirmed hand is scored.",
    )
    play_status = serializers.ChoiceField(
        choices=list(STATUS_LABELS),
        help_text="What the match is doing now, as its page says: scheduled, playing, waiting "
        "(an entry waits for confirmation), disputed, finished, or the decision (bye, walkover, "
        "forfeit). Spectators see playing while an entry waits.",
    )
    play_status_label = serializers.CharField(help_text="play_status in the reader's language.")
    decision = serializers.ChoiceField(choices=Match.Decision.choices)
    rules = serializers.DictField(help_text="Every rule parameter in force.")
    match_format = serializers.DictField()
    confirmation = serializers.CharField()
    seats = SeatOutput(many=True)
    sides = SideOutput(many=True, help_text="The engine's players: seats, or two teams.")
    games = serializers.ListField(
        child=serializers.DictField(),
        help_text="Each game: number, status, hands, totals, bonuses, margin, next dealer.",
    )
    games_won = serializers.ListField(child=serializers.IntegerField())
    finished = serializers.BooleanField()
    winner = serializers.IntegerField(allow_null=True)
    winner_name = serializers.CharField(allow_null=True)
    next = serializers.DictField(
        allow_null=True, help_text="The next hand: game, hand_number, dealer, roles."
    )
    pending = HandOutput(allow_null=True, help_text="The entry waiting for confirmation.")
    summary = serializers.DictField()


@extend_schema_field(
    {
        "type": "object",
        "description": "Seat position to that seat's private link.",
        "additionalProperties": {"type": "string", "format": "uri"},
    }
)
class _SeatLinksField(serializers.DictField):
    pass


@extend_schema_serializer(component_name="MatchLinks")
class MatchLinksOutput(serializers.Serializer):
    """A match's private links: whoever holds one may read the match and act for its seat."""

    table = serializers.URLField(
        allow_null=True,
        help_text="The table's link: any seat, on one shared phone (null for a seated director).",
    )
    seats = _SeatLinksField()


@extend_schema_serializer(component_name="MatchStarted")
class MatchStartedOutput(MatchDetailOutput):
    links = MatchLinksOutput()
    warnings = serializers.ListField(
        child=serializers.CharField(),
        help_text="Started, but worth a look: a player still at another table that has not "
        "finished, or a table number another open match holds.",
    )
