"""The REST API of clubs, players, events, registrations, rounds, standings, brackets and ratings.

One APIView per operation; input and output serializers live inside the view. Views only check
permissions, parse input, and call one service or selector; every error is an ApplicationError
turned into JSON by ``core.api.exception_handler``.

The package, one module per resource: :mod:`~tournaments.apis.clubs`,
:mod:`~tournaments.apis.players`, :mod:`~tournaments.apis.events`,
:mod:`~tournaments.apis.registrations`, :mod:`~tournaments.apis.rounds` and
:mod:`~tournaments.apis.standings` (standings and brackets); ``_common`` holds the base view,
pagination and event lookups they share.
"""

from tournaments.apis.clubs import (
    ClubDetailApi,
    ClubGemDeckApi,
    ClubListApi,
    ClubOutput,
    ClubRoleListApi,
    ClubRoleOutput,
    ClubRoleRevokeApi,
)
from tournaments.apis.console import EventConsoleApi
from tournaments.apis.events import (
    EventDetailApi,
    EventFinishApi,
    EventListApi,
    EventOutput,
    EventPlayoffCreateApi,
    RulePresetListApi,
)
from tournaments.apis.exports import (
    CheckinCodesApi,
    ResultsExportApi,
    RoundPrintApi,
    StandingsExportApi,
)
from tournaments.apis.me import MeApi
from tournaments.apis.players import (
    PlayerBulkCreateApi,
    PlayerDetailApi,
    PlayerListApi,
    PlayerOutput,
    PlayerRatingsApi,
)
from tournaments.apis.registrations import (
    ForbiddenPairingCreateApi,
    RegistrationBulkCreateApi,
    RegistrationCheckinAllApi,
    RegistrationCheckinApi,
    RegistrationDropApi,
    RegistrationListApi,
    RegistrationOutput,
    RegistrationPasteApi,
    RegistrationSelfCheckinApi,
    RegistrationWithTokenOutput,
)
from tournaments.apis.rounds import (
    MatchForfeitApi,
    MatchOutput,
    RoundDetailApi,
    RoundListApi,
    RoundOutput,
    RoundRepairApi,
    SeatOutput,
)
from tournaments.apis.standings import EventBracketApi, EventStandingsApi, StandingRowOutput

__all__ = [
    "CheckinCodesApi",
    "ClubDetailApi",
    "ClubGemDeckApi",
    "ClubListApi",
    "ClubOutput",
    "ClubRoleListApi",
    "ClubRoleOutput",
    "ClubRoleRevokeApi",
    "EventBracketApi",
    "EventConsoleApi",
    "EventDetailApi",
    "EventFinishApi",
    "EventListApi",
    "EventOutput",
    "EventPlayoffCreateApi",
    "EventStandingsApi",
    "ForbiddenPairingCreateApi",
    "MatchForfeitApi",
    "MatchOutput",
    "MeApi",
    "PlayerBulkCreateApi",
    "PlayerDetailApi",
    "PlayerListApi",
    "PlayerOutput",
    "PlayerRatingsApi",
    "RegistrationBulkCreateApi",
    "RegistrationCheckinAllApi",
    "RegistrationCheckinApi",
    "RegistrationDropApi",
    "RegistrationListApi",
    "RegistrationOutput",
    "RegistrationPasteApi",
    "RegistrationSelfCheckinApi",
    "RegistrationWithTokenOutput",
    "ResultsExportApi",
    "RoundDetailApi",
    "RoundListApi",
    "RoundOutput",
    "RoundPrintApi",
    "RoundRepairApi",
    "RulePresetListApi",
    "SeatOutput",
    "StandingRowOutput",
    "StandingsExportApi",
]
