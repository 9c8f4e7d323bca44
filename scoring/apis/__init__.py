"""REST API of the scoring app: one view per operation (a URL serving two operations, such as
list and create, has one view whose methods call different services).

Views only parse input, build the :class:`~scoring.permissions.Actor`, call one service or
selector and shape the output. Players without an account authenticate with the match's private
link: the ``X-Match-Key`` header holds the link's secret. Every POST that stores honours
``Idempotency-Key`` (a hand's preview stores nothing).

The package, one module per resource: :mod:`~scoring.apis.matches`,
:mod:`~scoring.apis.match_hands` (a match's hands and score sheet), :mod:`~scoring.apis.hands`,
:mod:`~scoring.apis.preview` and :mod:`~scoring.apis.imports`; ``common`` holds the parameters,
error shape, base view and hand input they share.
"""

from scoring.apis.common import (
    ERROR,
    LINK_PARAMETERS,
    POST_PARAMETERS,
    BoardInputSerializer,
    HandInputSerializer,
    MeldsField,
)
from scoring.apis.disputes import EventDisputesApi
from scoring.apis.hands import (
    HandConfirmApi,
    HandDisputeApi,
    HandHistoryApi,
    HandOverrideApi,
    HandWithdrawApi,
)
from scoring.apis.imports import ImportApi
from scoring.apis.match_hands import MatchHandsApi, MatchScoresheetApi
from scoring.apis.matches import (
    MatchDetailApi,
    MatchLinksApi,
    MatchLinksReissueApi,
    MatchListApi,
)
from scoring.apis.preview import MatchHandPreviewApi

__all__ = [
    "ERROR",
    "LINK_PARAMETERS",
    "POST_PARAMETERS",
    "BoardInputSerializer",
    "EventDisputesApi",
    "HandConfirmApi",
    "HandDisputeApi",
    "HandHistoryApi",
    "HandInputSerializer",
    "HandOverrideApi",
    "HandWithdrawApi",
    "ImportApi",
    "MatchDetailApi",
    "MatchHandPreviewApi",
    "MatchHandsApi",
    "MatchLinksApi",
    "MatchLinksReissueApi",
    "MatchListApi",
    "MatchScoresheetApi",
    "MeldsField",
]
