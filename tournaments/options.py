"""Event options: every option an event can set, declared once, with the one checker and the
one reader of ``Event.options``.

Each option is a field of :class:`EventOptions`: its Python type is the option's type, its
default the option's default, and ``_option()`` adds the rest (label and help through gettext,
least value or choices, the kinds of event it applies to, a kind's own default, whether the
settings form offers it). :data:`OPTIONS` is built from those fields, so the settings form, the
services, the selectors and the API all read one list and none keeps its own.

``Event.options`` stores what an event set, as it was sent (usually what differs from the
defaults); an option's effective value is the event's own, else its kind's default, else the
option's default. :func:`options_clean` checks a dict before it is stored and names the option at
fault; :func:`options_read` reads a stored dict as a typed :class:`EventOptions` and never
raises, because a row edited outside the services (the admin's JSON box) must not stop an event.

Every option lives in ``Event.options``. An event's other JSON columns have owners of their own:
``rules`` is an ``engine.rules.RuleSet``, ``match_format`` is ``scoring.formats``', ``tiebreaks``
is checked against ``competition.tiebreaks`` (``tournaments.selectors.options``), and ``draw`` is
the stored draw, not a setting. This module declares, checks and reads values; it queries and
writes nothing.
"""

from __future__ import annotations

import dataclasses
import json
import math
import typing
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Any

from django.utils import translation
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from core.i18n import with_particles
from tournaments.models import Event

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise as Text

Points = int | float
"""The type of an option counted in match points: whole or fractional (0.5 for a half point)."""


class OptionType(StrEnum):
    """What values an option takes; decided by the type of its :class:`EventOptions` field."""

    NUMBER = "number"  # int | float: points, at least ``least``
    WHOLE = "whole"  # int, at least ``least`` (``int | None``: also null)
    FLAG = "flag"  # bool
    CHOICE = "choice"  # str: one of ``choices``


_TYPES: dict[Any, tuple[OptionType, bool]] = {
    Points: (OptionType.NUMBER, False),
    int: (OptionType.WHOLE, False),
    int | None: (OptionType.WHOLE, True),
    bool: (OptionType.FLAG, False),
    str: (OptionType.CHOICE, False),
}

_SWISS, _RR = Event.Kind.SWISS.value, Event.Kind.ROUND_ROBIN.value
_SE, _DE = Event.Kind.SINGLE_ELIMINATION.value, Event.Kind.DOUBLE_ELIMINATION.value
_NIGHT, _LEAGUE = Event.Kind.CLUB_NIGHT.value, Event.Kind.LEAGUE.value
ALL_KINDS: tuple[str, ...] = tuple(Event.Kind.values)

CLUB_RULE_CHOICES: tuple[tuple[str, Text], ...] = (
    ("allow", gettext_lazy("allow")),
    ("soft", gettext_lazy("avoid if possible")),
    ("hard", gettext_lazy("never")),
)
"""How two players of one club (or one family) may meet in a Swiss."""

AT_TIME_CHOICES: tuple[tuple[str, Text], ...] = (
    ("play_on", gettext_lazy("played out")),
    ("as_it_stands", gettext_lazy("scored as it stands")),
)
"""What a match unfinished when the round's clock reaches time becomes (docs/rules.md)."""


@dataclass(frozen=True, slots=True)
class _Declared:
    """What ``_option()`` records on a field; :class:`Option` adds the name, type and default."""

    label: Text
    help: Text
    least: int | None
    choices: tuple[tuple[str, Text], ...]
    kinds: tuple[str, ...]
    kind_defaults: tuple[tuple[str, Any], ...]
    on_form: bool
    time_of_day: bool = False


def _option(
    *,
    label: Text,
    help: Text = "",
    least: int | None = None,
    choices: tuple[tuple[str, Text], ...] = (),
    kinds: tuple[str, ...] = ALL_KINDS,
    kind_defaults: Mapping[str, Any] | None = None,
    on_form: bool = True,
    time_of_day: bool = False,
) -> dict[str, _Declared]:
    """A field's metadata that declares it an option (its default is the field's own)."""
    return {
        "option": _Declared(
            label=label,
            help=help,
            least=least,
            choices=choices,
            kinds=kinds,
            kind_defaults=tuple((kind_defaults or {}).items()),
            on_form=on_form,
            time_of_day=time_of_day,
        )
    }


@dataclass(frozen=True, slots=True, kw_only=True)
class EventOptions:
    """An event's effective options: each field is one option, declared here and nowhere else.

    Read one with :func:`options_read` (or ``tournaments.selectors.event_options``). The order of
    the fields is the order the settings form and the API list them in.
    """

    win_points: Points = field(
        default=1,
        metadata=_option(
            label=gettext_lazy("Win points"), least=0, kinds=(_SWISS, _RR, _NIGHT, _LEAGUE)
        ),
    )
    bye_points: Points = field(
        default=1,
        metadata=_option(
            label=gettext_lazy("Bye points"),
            least=0,
            kinds=(_SWISS, _RR),
            kind_defaults={_RR: 0},
        ),
    )
    requested_bye_points: Points = field(
        default=0,
        metadata=_option(
            label=gettext_lazy("Requested bye"),
            help=gettext_lazy("Points for a bye a player asked for."),
            least=0,
            kinds=(_SWISS,),
        ),
    )
    late_entry_points: Points = field(
        default=0,
        metadata=_option(
            label=gettext_lazy("Late entry"),
            help=gettext_lazy("Points for each round missed."),
            least=0,
            kinds=(_SWISS,),
        ),
    )
    groups: int = field(
        default=1,
        metadata=_option(
            label=gettext_lazy("Groups"),
            help=gettext_lazy("Round robin in groups."),
            least=1,
            kinds=(_RR,),
        ),
    )
    playoff_cut: int | None = field(
        default=None,
        metadata=_option(
            label=gettext_lazy("Playoff cut"),
            help=gettext_lazy("The top N go to a playoff."),
            least=1,
            kinds=(_SWISS, _RR),
        ),
    )
    # An operator's setting, so the API's only: a test or a drill pairs a small field the way a
    # big one is paired.
    async_pairing_from: int = field(
        default=256,
        metadata=_option(
            label=gettext_lazy("Pair in the background from"),
            help=gettext_lazy(
                "A Swiss of at least this many players is paired by a background task."
            ),
            least=1,
            kinds=(_SWISS,),
            on_form=False,
        ),
    )
    pair_by: str = field(
        default="rating",
        metadata=_option(
            label=gettext_lazy("Order round 1 and score groups by"),
            choices=(("rating", gettext_lazy("rating")), ("seed", gettext_lazy("seed"))),
            kinds=(_SWISS,),
        ),
    )
    forbid_same_club: str = field(
        default="allow",
        metadata=_option(
            label=gettext_lazy("Two players of one club may meet"),
            choices=CLUB_RULE_CHOICES,
            kinds=(_SWISS,),
        ),
    )
    forbid_family: str = field(
        default="allow",
        metadata=_option(
            label=gettext_lazy("Two players of one family may meet"),
            choices=CLUB_RULE_CHOICES,
            kinds=(_SWISS,),
        ),
    )
    double_round_robin: bool = field(
        default=False, metadata=_option(label=gettext_lazy("Double round robin"), kinds=(_RR,))
    )
    avoid_same_table: bool = field(
        default=False,
        metadata=_option(
            label=gettext_lazy("Avoid the same table twice"), kinds=(_SWISS, _RR, _SE, _DE)
        ),
    )
    # A Swiss or round robin's third-place match is its playoff's (after ``playoff_cut``).
    third_place: bool = field(
        default=False,
        metadata=_option(label=gettext_lazy("Third-place match"), kinds=(_SE, _SWISS, _RR)),
    )
    grand_final_reset: bool = field(
        default=True,
        metadata=_option(
            label=gettext_lazy("Grand final reset (double elimination)"), kinds=(_DE,)
        ),
    )
    # Club nights and leagues: a match may seat only players already registered (else starting
    # a match registers its players, so everybody who plays counts in the standings).
    registered_only: bool = field(
        default=False,
        metadata=_option(
            label=gettext_lazy("Registered players only (club nights and leagues)"),
            kinds=(_NIGHT, _LEAGUE),
        ),
    )
    # Confirming or disputing an entry needs the other side's own seat link or account: the
    # table link (one shared phone) still enters and withdraws, but does not answer.
    confirm_by_seat_link: bool = field(
        default=False,
        metadata=_option(
            label=gettext_lazy("Confirm on the player's own link, not the table's phone"),
            help=gettext_lazy(
                "The other side confirms or disputes an entry on their own seat's link or "
                "signed in; the table link still enters hands."
            ),
        ),
    )

    # Online entry (``/events/<id>/enter/``, ``entries.services``); when entries
    # close is the event's ``entries_close_at``.
    entries_open: bool = field(
        default=False,
        metadata=_option(
            label=gettext_lazy("Take entries online"),
            help=gettext_lazy("Players enter themselves on the event's entry page."),
        ),
    )
    entries_cap: int | None = field(
        default=None,
        metadata=_option(
            label=gettext_lazy("Most players"),
            help=gettext_lazy("Entries past this many go to the waiting list."),
            least=1,
        ),
    )
    entries_approval: bool = field(
        default=False,
        metadata=_option(
            label=gettext_lazy("The director approves each entry"),
        ),
    )
    # The round's clock (``tournaments.services.clock``): what a match still playing when its
    # time is up becomes (docs/rules.md, *The round's clock*).
    at_time: str = field(
        default="play_on",
        metadata=_option(
            label=gettext_lazy("A match unfinished at time"),
            help=gettext_lazy(
                "When the round's clock reaches time, the hand being played is finished; then "
                "the match is played out, or the director closes it as it stands."
            ),
            choices=AT_TIME_CHOICES,
            kinds=(_SWISS, _RR, _SE, _DE),
        ),
    )
    # The player's pass (passes): self check-in opens at this time of the event's day, written
    # as HHMM on a 24-hour clock (930 = 09:30); none: as soon as the player holds the pass.
    pass_checkin_opens: int | None = field(
        default=None,
        metadata=_option(
            label=gettext_lazy("Self check-in with the pass opens at (HHMM)"),
            help=gettext_lazy(
                "On the event's date, 24-hour clock: 930 is 09:30. Empty: open at any time."
            ),
            least=0,
            time_of_day=True,
        ),
    )


@dataclass(frozen=True, slots=True)
class Option:
    """One event option as declared on :class:`EventOptions`."""

    name: str
    type: OptionType
    default: Any
    label: Text
    help: Text = ""
    least: int | None = None
    nullable: bool = False
    choices: tuple[tuple[str, Text], ...] = ()
    kinds: tuple[str, ...] = ALL_KINDS
    kind_defaults: tuple[tuple[str, Any], ...] = ()
    on_form: bool = True
    time_of_day: bool = False  # a whole number read as HHMM (930 is 09:30)

    @property
    def choice_values(self) -> tuple[str, ...]:
        return tuple(value for value, _label in self.choices)

    def applies(self, kind: str) -> bool:
        """True when the option means something to an event of ``kind``."""
        return kind in self.kinds

    def default_for(self, kind: str) -> Any:
        """The default for an event of ``kind``: the kind's own, else the option's."""
        for own_kind, value in self.kind_defaults:
            if own_kind == kind:
                return value
        return self.default

    def problem(self, value: Any) -> str | None:
        """Why ``value`` cannot be stored for this option (a message naming it), or None.

        bool is refused where a number is asked (JSON's true is no count), and a float where a
        whole number is, because the pairing and the brackets count with it.
        """
        ok: bool
        if self.type is OptionType.NUMBER:
            ok = _is_number(value) and (self.least is None or value >= self.least)
            message = _("The option %(name)s is a number of at least %(least)s.")
        elif self.type is OptionType.WHOLE:
            ok = (self.nullable and value is None) or (
                isinstance(value, int)
                and not isinstance(value, bool)
                and (self.least is None or value >= self.least)
            )
            message = _("The option %(name)s is a whole number of at least %(least)s.")
            if ok and self.time_of_day and value is not None and not _is_hhmm(value):
                ok = False
                message = _(
                    "The option %(name)s is a time of day written HHMM, from 0 to 2359 "
                    "(930 is 09:30)."
                )
        elif self.type is OptionType.FLAG:
            ok = isinstance(value, bool)
            message = _("The option %(name)s is true or false.")
        else:
            ok = isinstance(value, str) and value in self.choice_values
            message = _("The option %(name)s is one of %(choices)s.")
        if ok:
            return None
        return with_particles(
            message
            % {"name": self.name, "least": self.least, "choices": ", ".join(self.choice_values)}
        )

    def read(self, value: Any, *, kind: str) -> Any:
        """``value`` as stored, read as this option's type; the kind's default if unreadable.

        Flags read as Python truth and whole numbers through ``int()``, as the code that used
        them always did, so a row stored before the checks existed reads the same.
        """
        if self.type is OptionType.FLAG:
            return bool(value)
        if self.type is OptionType.NUMBER:
            return value if _is_number(value) else self.default_for(kind)
        if self.type is OptionType.WHOLE:
            if value is None and self.nullable:
                return None
            try:
                return int(value)
            except (TypeError, ValueError, OverflowError):
                return self.default_for(kind)
        return value if value in self.choice_values else self.default_for(kind)


def _is_hhmm(value: int) -> bool:
    """True for a time of day written HHMM on a 24-hour clock (0 to 2359, minutes below 60)."""
    return 0 <= value < 2400 and value % 100 < 60


def _is_number(value: Any) -> bool:
    """True for an int or a finite float (a bool is no number here; an int of any size is)."""
    if isinstance(value, bool):
        return False
    return isinstance(value, int) or (isinstance(value, float) and math.isfinite(value))


def _options() -> Iterator[Option]:
    hints = typing.get_type_hints(EventOptions)
    for f in dataclasses.fields(EventOptions):
        declared: _Declared = f.metadata["option"]
        try:
            option_type, nullable = _TYPES[hints[f.name]]
        except KeyError:
            raise TypeError(f"EventOptions.{f.name}: no option type for {hints[f.name]}") from None
        yield Option(
            name=f.name,
            type=option_type,
            default=f.default,
            label=declared.label,
            help=declared.help,
            least=declared.least,
            nullable=nullable,
            choices=declared.choices,
            kinds=declared.kinds,
            kind_defaults=declared.kind_defaults,
            on_form=declared.on_form,
            time_of_day=declared.time_of_day,
        )


OPTIONS: tuple[Option, ...] = tuple(_options())
"""Every event option, in the order of :class:`EventOptions`."""

OPTIONS_BY_NAME: Mapping[str, Option] = {o.name: o for o in OPTIONS}


class OptionError(ValueError):
    """Options that cannot be stored. ``name`` is the option at fault (None when the fault is
    unknown names or the whole value); ``message`` says what is wrong, in the user's language."""

    def __init__(self, message: str, *, name: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.name = name


def options_clean(options: Mapping[str, Any] | None) -> dict[str, Any]:
    """``options`` checked against every option's type and bounds, as the dict to store.

    The values are stored as given (a point stays 1, not 1.0), so what a client sent is what it
    reads back. Raises :class:`OptionError` naming the first option at fault.
    """
    if not options:
        return {}
    if not isinstance(options, Mapping):
        raise OptionError(_("The options are an object of option names and values."))
    data = dict(options)
    unknown = sorted(str(name) for name in set(data) - set(OPTIONS_BY_NAME))
    if unknown:
        raise OptionError(
            _("Unknown option(s): %(names)s. The options are: %(known)s.")
            % {"names": ", ".join(unknown), "known": ", ".join(OPTIONS_BY_NAME)}
        )
    for option in OPTIONS:
        if option.name in data:
            message = option.problem(data[option.name])
            if message is not None:
                raise OptionError(message, name=option.name)
    return data


def options_read(*, kind: str, stored: Mapping[str, Any] | None) -> EventOptions:
    """The effective options of an event of ``kind`` that stored ``stored``: never raises."""
    values = _stored(stored)
    return EventOptions(
        **{
            o.name: o.read(values[o.name], kind=kind) if o.name in values else o.default_for(kind)
            for o in OPTIONS
        }
    )


def option_read(*, option: Option, kind: str, stored: Mapping[str, Any] | None) -> Any:
    """One effective option (what :func:`options_read` puts in its field), without the others."""
    values = _stored(stored)
    if option.name in values:
        return option.read(values[option.name], kind=kind)
    return option.default_for(kind)


def _stored(stored: Any) -> Mapping[str, Any]:
    # A JSON column holds a dict; anything else (a list typed into the admin) is no options.
    if type(stored) is dict or isinstance(stored, Mapping):
        return stored
    return {}


def options_describe() -> list[dict[str, Any]]:
    """Every option as plain JSON-ready values, in the active language: what the API says."""
    return [
        {
            "name": o.name,
            "type": o.type.value,
            "default": o.default,
            "kind_defaults": dict(o.kind_defaults),
            "least": o.least,
            "nullable": o.nullable,
            "choices": list(o.choice_values),
            "kinds": list(o.kinds),
            "label": str(o.label),
            "help": str(o.help),
        }
        for o in OPTIONS
    ]


_TYPE_WORDS = {
    OptionType.NUMBER: "a number",
    OptionType.WHOLE: "a whole number",
    OptionType.FLAG: "true or false",
    OptionType.CHOICE: "one of",
}


def options_api_text() -> str:
    """The options as the API's documentation states them, in English like the rest of it: a
    Markdown list with each option's type, bounds, default (and a kind's own), the kinds it
    applies to, and its label and help."""
    with translation.override("en"):
        entries = []
        for d in options_describe():
            what = _TYPE_WORDS[OptionType(d["type"])]
            if d["least"] is not None:
                what += f" of at least {d['least']}"
            if d["nullable"]:
                what += " or null"
            if d["choices"]:
                what += " " + ", ".join(d["choices"])
            default = json.dumps(d["default"])
            for kind, value in d["kind_defaults"].items():
                default += f" ({json.dumps(value)} in {kind})"
            kinds = "every kind" if d["kinds"] == list(ALL_KINDS) else ", ".join(d["kinds"])
            text = f"- `{d['name']}`: {what}; default {default}; for {kinds}. {d['label']}."
            if d["help"]:
                text += f" {d['help']}"
            entries.append(text)
    return "\n".join(entries)
