"""The REST API of events, registrations, rounds, standings and brackets (and a club's detail,
which lists its events; the rest of clubs and players is ``clubs.apis``).

One APIView per operation; input and output serializers live inside the view. Views only check
permissions, parse input, and call one service or selector; every error is an ApplicationError
turned into JSON by ``core.api.exception_handler``.

The package, one module per resource: :mod:`~tournaments.apis.clubs`,
:mod:`~tournaments.apis.events`,
:mod:`~tournaments.apis.registrations`, :mod:`~tournaments.apis.rounds` and
:mod:`~tournaments.apis.standings` (standings and brackets); ``common`` holds the base view,
pagination and event lookups they share.
"""

from tournaments.apis.clubs import ClubDetailApi
from tournaments.apis.console import EventConsoleApi
from tournaments.apis.events import (
    EventDetailApi,
    EventFinishApi,
    EventListApi,
    EventOutput,
    EventPlayoffCreateApi,
    RulePresetListApi,
)
from tournaments.apis.me import MeApi
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
    MatchCloseAsItStandsApi,
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
    "ClubDetailApi",
    "EventBracketApi",
    "EventConsoleApi",
    "EventDetailApi",
    "EventFinishApi",
    "EventListApi",
    "EventOutput",
    "EventPlayoffCreateApi",
    "EventStandingsApi",
    "ForbiddenPairingCreateApi",
    "MatchCloseAsItStandsApi",
    "MatchForfeitApi",
    "MatchOutput",
    "MeApi",
    "RegistrationBulkCreateApi",
    "RegistrationCheckinAllApi",
    "RegistrationCheckinApi",
    "RegistrationDropApi",
    "RegistrationListApi",
    "RegistrationOutput",
    "RegistrationPasteApi",
    "RegistrationSelfCheckinApi",
    "RegistrationWithTokenOutput",
    "RoundDetailApi",
    "RoundListApi",
    "RoundOutput",
    "RoundRepairApi",
    "RulePresetListApi",
    "SeatOutput",
    "StandingRowOutput",
]
