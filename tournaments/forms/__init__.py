"""Page forms for events: they only read and type the input; services decide (a club's forms are
``clubs.forms``; a service's message goes on a form through ``core.forms.ServiceErrorsMixin``).

One module per page family; this package re-exports the forms (and the tables the pages show).
"""

from tournaments.forms.event_director import (
    BulkRegisterForm,
    ForbiddenPairingForm,
    MatchStartForm,
    PasteRegisterForm,
    PlayerChecklistField,
    PlayerChoiceField,
    RegisterForm,
)
from tournaments.forms.event_options import (
    CHOICE_LABELS,
    CHOICE_OPTIONS,
    CLUB_RULE_CHOICES,
    FLAG_OPTIONS,
    FORM_OPTIONS,
    MATCH_FORMATS,
    NUMBER_OPTION_HELP,
    NUMBER_OPTIONS,
    RULE_PARAMS,
    TIEBREAK_NAMES,
    WHOLE_OPTION_HELP,
    WHOLE_OPTIONS,
    RuleParam,
)
from tournaments.forms.event_settings import EventSettingsForm

__all__ = [
    "CHOICE_LABELS",
    "CHOICE_OPTIONS",
    "CLUB_RULE_CHOICES",
    "FLAG_OPTIONS",
    "FORM_OPTIONS",
    "MATCH_FORMATS",
    "NUMBER_OPTIONS",
    "NUMBER_OPTION_HELP",
    "RULE_PARAMS",
    "TIEBREAK_NAMES",
    "WHOLE_OPTIONS",
    "WHOLE_OPTION_HELP",
    "BulkRegisterForm",
    "EventSettingsForm",
    "ForbiddenPairingForm",
    "MatchStartForm",
    "PasteRegisterForm",
    "PlayerChecklistField",
    "PlayerChoiceField",
    "RegisterForm",
    "RuleParam",
]
