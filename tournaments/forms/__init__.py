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
    FORM_OPTIONS,
    MATCH_FORMATS,
    RULE_PARAMS,
    TIEBREAK_NAMES,
    RuleParam,
)
from tournaments.forms.event_settings import EventSettingsForm

__all__ = [
    "CHOICE_LABELS",
    "FORM_OPTIONS",
    "MATCH_FORMATS",
    "RULE_PARAMS",
    "TIEBREAK_NAMES",
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
