"""A hand's preview: what the engine would answer if the hand were entered now, stored nowhere.

The card picker of the match page asks it as cards are picked; an API client may ask it before
it submits. It reads the match and scores the entry for the hand the match is at, exactly as
``POST /api/matches/{id}/hands/`` would (same input, same checks, same verdict), but writes
nothing: no submission, no history, no idempotency record. Input that cannot be read (a card
that is no card, a card twice or in both hands, a field of another family) is a 400; a hand that
reads but that the engine refuses as it stands (too few cards yet, a knock over the limit) is a
200 whose ``verdict`` is null and whose ``problem`` says why, with each hand's best arrangement
so far, so that the picker can show melds forming before the hand is complete.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, extend_schema_serializer, inline_serializer
from rest_framework import serializers
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle

from core.errors import ApplicationError
from core.i18n import engine_message
from core.parsing import AsciiIntegerField
from engine.errors import EngineError
from scoring.apis.common import (
    ERROR,
    LINK_PARAMETERS,
    BaseApi,
    HandInputSerializer,
    hand_entry,
    match_or_404,
)
from scoring.models import Match
from scoring.permissions import match_access_require
from scoring.selectors import match_state
from scoring.selectors.preview import PartialHands, partial_hands
from scoring.services import hand_prepare


class PreviewThrottle(SimpleRateThrottle):
    """Previews cost an engine run each: at most ``preview`` per minute per person.

    A person is the signed-in user, else the private link or seat session they act with, else
    the address: a club's phones share one address behind the Wi-Fi, and must not share one
    budget.
    """

    scope = "preview"

    def get_cache_key(self, request: Any, view: Any) -> str | None:
        user = getattr(request, "user", None)
        if user is not None and user.is_authenticated:
            ident = f"user:{user.pk}"
        else:
            link = request.headers.get("X-Match-Key") or ""
            session = getattr(request, "session", None)
            session_key = getattr(session, "session_key", None) or ""
            raw = link or session_key
            if raw:
                ident = "who:" + hashlib.sha256(raw.encode()).hexdigest()[:32]
            else:
                ident = f"ip:{self.get_ident(request)}"
        return self.cache_format % {"scope": self.scope, "ident": ident}


_ARRANGEMENT = inline_serializer(
    "PreviewArrangement",
    {
        "cards": serializers.IntegerField(help_text="How many cards were given."),
        "melds": serializers.ListField(child=serializers.CharField()),
        "deadwood_cards": serializers.CharField(),
        "deadwood": serializers.IntegerField(),
    },
    allow_null=True,
)

PREVIEW_OUTPUT = inline_serializer(
    "HandPreview",
    {
        "hand_number": serializers.IntegerField(),
        "entry": serializers.CharField(
            allow_null=True, help_text="cards, counts, dead or rummy: how the hand would be kept."
        ),
        "verdict": serializers.JSONField(
            allow_null=True,
            help_text="The engine's verdict, as a submitted hand shows it (null when refused).",
        ),
        "problem": inline_serializer(
            "PreviewProblem",
            {
                "detail": serializers.CharField(),
                "field": serializers.CharField(allow_null=True),
            },
            allow_null=True,
            help_text="Why the engine refuses the hand as it stands (null when it scores it).",
        ),
        "knocker": _ARRANGEMENT,
        "defender": _ARRANGEMENT,
    },
)


def _arrangement_out(partial: PartialHands, which: str) -> dict[str, Any] | None:
    arrangement = getattr(partial, which)
    if arrangement is None:
        return None
    return {
        "cards": arrangement.cards,
        "melds": list(arrangement.melds),
        "deadwood_cards": arrangement.deadwood_cards,
        "deadwood": arrangement.deadwood,
    }


class MatchHandPreviewApi(BaseApi):
    """Score the next hand without entering it: the engine's answer, nothing stored."""

    throttle_classes = [PreviewThrottle]

    @extend_schema_serializer(component_name="HandPreviewInput")
    class InputSerializer(HandInputSerializer):
        # A hand being picked may still be empty: the engine then says how many cards it needs.
        knocker_cards = serializers.CharField(required=False, allow_blank=True)
        defender_cards = serializers.CharField(required=False, allow_blank=True)
        as_position = AsciiIntegerField(
            min_value=0,
            required=False,
            help_text="Ignored (a preview is nobody's entry); accepted so that the submit's "
            "body can be sent as it is.",
        )

    @extend_schema(
        operation_id="matches_hands_preview",
        request=InputSerializer,
        parameters=LINK_PARAMETERS,
        responses={200: PREVIEW_OUTPUT, 400: ERROR, 404: ERROR, 409: ERROR, 429: ERROR},
        description="The same body as entering a hand; nothing is stored, so no "
        "`Idempotency-Key` is needed. 200 with the engine's `verdict`, or with `problem` when the "
        "engine refuses the hand as it stands (too few cards yet, a knock over the limit), and "
        "each hand's best arrangement of the cards given so far (`knocker`, `defender`). Input "
        "that cannot be read (a card that is no card, a card twice or in both hands) is 400. "
        "Players of the match and directors; rate-limited per person (429).",
    )
    def post(self, request: Request, match_id: int) -> Response:
        match = match_or_404(match_id)
        match_access_require(actor=self.actor(request), match=match)
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        entry = hand_entry(data, match)
        state = match_state(match=match)
        view = state.current
        if view is None or match.decision != Match.Decision.PLAYED:
            raise ApplicationError(_("This match is over."), status=409)
        partial = partial_hands(
            rules=state.rules,
            knocker_cards=data.get("knocker_cards"),
            defender_cards=data.get("defender_cards"),
        )
        out: dict[str, Any] = {
            "hand_number": view.next_number,
            "entry": None,
            "verdict": None,
            "problem": None,
            "knocker": _arrangement_out(partial, "knocker"),
            "defender": _arrangement_out(partial, "defender"),
        }
        try:
            prepared = hand_prepare(state=state, context=view.next_context, entry=entry)
        except ApplicationError as exc:
            if exc.status not in (400, 409):
                raise
            out["problem"] = {"detail": exc.message, "field": exc.field}
        except EngineError as exc:
            out["problem"] = {"detail": engine_message(exc), "field": None}
        else:
            verdict = dict(prepared.result)
            verdict.pop("scored", None)
            out["entry"] = prepared.entry
            out["verdict"] = verdict
        return Response(out)
