"""The event settings form: rules (a preset and its overrides), match format, tie-breaks and
options. One form, one page: its clean methods are the whole of what the page accepts, with
which settings apply to which kind of event, which is why it is over 400 lines (the vocabulary
it offers is in ``event_options``).
"""

from __future__ import annotations

import re
from decimal import Decimal
from typing import Any

from django import forms
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from clubs.models import Club
from core.errors import ApplicationError
from core.forms import ServiceErrorsMixin
from core.i18n import engine_message, knock_limit_input, knock_limit_key, rules_name
from core.parsing import AsciiFormIntegerField, parse_ascii_int
from engine.errors import EngineError
from engine.rules import (
    RULE_PRESETS,
    RuleSet,
    find_rules,
)
from scoring.formats import match_format_dict, match_format_read
from tournaments.forms.common import ascii_int
from tournaments.forms.event_options import (
    CHOICE_LABELS,
    FORM_OPTION_NAMES,
    FORM_OPTIONS,
    MATCH_FORMATS,
    NUMBER_KINDS,
    RULE_NAME,
    RULE_PARAMS,
    SETTING_KINDS,
    TIEBREAK_NAMES,
    RuleParam,
)
from tournaments.models import Event
from tournaments.options import OPTIONS_BY_NAME, Option, OptionError, OptionType, options_clean


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


def _preset_choices() -> list[tuple[str, str]]:
    return [(name, rules_name(name)) for name in RULE_PRESETS]


class EventSettingsForm(ServiceErrorsMixin, forms.Form):
    """Every setting of an event; ``clean`` builds the rule set, format, tie-breaks and options.

    Rule parameters are the fields ``r_<parameter>``, so an engine ``RuleError`` naming a
    parameter lands at its field. On creation the form also has ``kind`` and ``league``.
    """

    service_fields = {
        "rules": "preset",
        "match_format": "fmt_kind",
        "tiebreaks": None,
        "options": None,
    }

    name = forms.CharField(label=_("Name"), max_length=160)
    kind = forms.ChoiceField(label=_("Kind"), choices=Event.Kind.choices, initial=Event.Kind.SWISS)
    starts_on = forms.DateField(
        label=_("Date"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    league = forms.ModelChoiceField(
        label=_("League"),
        queryset=Event.objects.none(),
        required=False,
        empty_label=_("(none)"),
        help_text=_("A club night or tournament can count towards one of the club's leagues."),
    )
    preset = forms.ChoiceField(
        label=_("Rule set"),
        choices=_preset_choices,  # named in the reader's language on every render
        initial="standard",
        help_text=_("A starting point: every parameter below stays editable."),
    )
    fmt_kind = forms.ChoiceField(label=_("Match format"), choices=MATCH_FORMATS)
    fmt_games = AsciiFormIntegerField(
        label=_("Best of games"),
        required=False,
        min_value=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    fmt_hands = AsciiFormIntegerField(
        label=_("Fixed hands"),
        required=False,
        min_value=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    confirmation = forms.ChoiceField(
        label=_("Confirmation"),
        choices=Event.Confirmation.choices,
        initial=Event.Confirmation.OPPONENT,
    )
    rounds_planned = AsciiFormIntegerField(
        label=_("Rounds planned"),
        required=False,
        min_value=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(
        self,
        *args: Any,
        club: Club | None,
        event: Event | None = None,
        lock_rules: bool = False,
        **kwargs: Any,
    ) -> None:
        kwargs.setdefault("initial", self.initial_for(event) if event else self.initial_new())
        super().__init__(*args, **kwargs)
        self.event = event
        self.lock_rules = lock_rules
        # The kind decides which settings apply: fixed once the event exists, else the one
        # chosen (the script shows and hides the others as the choice changes).
        chosen = self.data.get("kind") if self.is_bound else self.initial.get("kind")
        self.chosen_kind = event.kind if event is not None else str(chosen or Event.Kind.SWISS)
        self.fields["preset"].widget.attrs.update(
            {
                "hx-get": reverse("event-rules-fields"),
                "hx-trigger": "change",
                "hx-target": "#rule-fields",
                "hx-swap": "outerHTML",
            }
        )
        if event is not None:
            del self.fields["kind"]
            del self.fields["league"]
        elif club is not None:
            self.fields["league"].queryset = Event.objects.filter(  # type: ignore[attr-defined]
                club=club, kind=Event.Kind.LEAGUE
            ).order_by("name")
            self.fields["league"].label_from_instance = lambda e: e.name  # type: ignore[attr-defined]
        for p in RULE_PARAMS:
            self.fields[f"r_{p.name}"] = self._rule_field(p)
        if lock_rules:
            for name in self.rules_and_format_names():
                self.fields[name].disabled = True
        for name in TIEBREAK_NAMES:
            self.fields[f"tb_{name}"] = forms.BooleanField(
                label=TIEBREAK_NAMES[name], required=False
            )
            self.fields[f"tbo_{name}"] = AsciiFormIntegerField(
                label=_("Order of %(name)s") % {"name": TIEBREAK_NAMES[name]},
                required=False,
                min_value=1,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "order"}),
            )
        for option in FORM_OPTIONS:
            self.fields[f"opt_{option.name}"] = self._option_field(option)
        if event is not None:
            # An event's kind never changes: what does not apply to it is not offered at all.
            for name in [*FORM_OPTION_NAMES, *SETTING_KINDS]:
                if not self.applies(name):
                    self.fields.pop(f"opt_{name}" if name in FORM_OPTION_NAMES else name, None)

    def applies(self, name: str) -> bool:
        """True when the option or setting ``name`` applies to the chosen kind."""
        if name in OPTIONS_BY_NAME:
            return OPTIONS_BY_NAME[name].applies(self.chosen_kind)
        kinds = SETTING_KINDS.get(name)
        return kinds is None or self.chosen_kind in kinds

    def kind_rows(self, types: tuple[OptionType, ...]) -> list[dict[str, Any]]:
        """Rows of the options of ``types`` with the kinds they apply to, for the page to show
        and hide."""
        return [
            {
                "field": self[f"opt_{o.name}"],
                "kinds": " ".join(o.kinds),
                "shown": o.applies(self.chosen_kind),
            }
            for o in FORM_OPTIONS
            if o.type in types and f"opt_{o.name}" in self.fields
        ]

    def rounds_row(self) -> dict[str, Any] | None:
        if "rounds_planned" not in self.fields:
            return None
        return {
            "field": self["rounds_planned"],
            "kinds": " ".join(SETTING_KINDS["rounds_planned"]),
            "shown": self.applies("rounds_planned"),
        }

    # -- initial values -------------------------------------------------------------------

    @staticmethod
    def rules_initial(rules: dict[str, Any]) -> dict[str, Any]:
        """Initial values of the rule and match-format fields for a stored rule set."""
        out: dict[str, Any] = {}
        for p in RULE_PARAMS:
            value = rules.get(p.name)
            if p.kind == "deal":
                value = " ".join(str(v) for v in value or ())
            elif p.kind == "limit":
                value = "" if value is None else knock_limit_input(value)
            elif value is None:
                value = ""
            out[f"r_{p.name}"] = value
        preset = rules.get("name")
        out["preset"] = preset if preset in RULE_PRESETS else "standard"
        return out

    @classmethod
    def preset_initial(cls, name: str) -> dict[str, Any]:
        rules = find_rules(name).to_dict()
        out = cls.rules_initial(rules)
        out["fmt_kind"] = "hollywood" if rules["hollywood_games"] else "single_game"
        return out

    @classmethod
    def initial_new(cls) -> dict[str, Any]:
        initial = cls.preset_initial("standard")
        initial.update(cls._tiebreak_initial([]))
        return initial

    @classmethod
    def initial_for(cls, event: Event) -> dict[str, Any]:
        initial: dict[str, Any] = {
            "name": event.name,
            "starts_on": event.starts_on,
            "confirmation": event.confirmation,
            "rounds_planned": event.rounds_planned,
            **cls.rules_initial(event.rules or {}),
        }
        fmt = event.match_format or {}
        initial["fmt_kind"] = fmt.get("kind", "single_game")
        initial["fmt_games"] = fmt.get("games")
        initial["fmt_hands"] = fmt.get("hands")
        initial.update(cls._tiebreak_initial(list(event.tiebreaks or [])))
        for name, value in (event.options or {}).items():
            if name in FORM_OPTION_NAMES:
                initial[f"opt_{name}"] = value
        return initial

    @staticmethod
    def _tiebreak_initial(order: list[str]) -> dict[str, Any]:
        chosen = [n for n in order if n in TIEBREAK_NAMES]
        out: dict[str, Any] = {}
        for position, name in enumerate(chosen, start=1):
            out[f"tb_{name}"] = True
            out[f"tbo_{name}"] = position
        return out

    def initial_from_data(self) -> dict[str, Any]:
        """The posted values as initial values (to redraw the form without errors)."""
        out: dict[str, Any] = {}
        for name, field in self.fields.items():
            if isinstance(field, forms.BooleanField):
                out[name] = name in self.data and self.data.get(name) not in ("", "false", "off")
            elif name in self.data:
                out[name] = self.data.get(name)
        return out

    # -- fields -----------------------------------------------------------------------------

    @staticmethod
    def _option_field(option: Option) -> forms.Field:
        """The field of an event option: its bounds, choices, label and help are the option's."""
        if option.type is OptionType.NUMBER:
            return forms.DecimalField(
                label=option.label,
                required=False,
                min_value=option.least,
                max_digits=6,
                decimal_places=2,
                help_text=option.help,
                widget=forms.NumberInput(
                    attrs={"inputmode": "decimal", "step": "0.5", "placeholder": option.default}
                ),
            )
        if option.type is OptionType.WHOLE:
            return AsciiFormIntegerField(
                label=option.label,
                required=False,
                min_value=option.least,
                help_text=option.help,
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "numeric",
                        "placeholder": "" if option.default is None else option.default,
                    }
                ),
            )
        if option.type is OptionType.CHOICE:
            return forms.ChoiceField(
                label=option.label,
                choices=option.choices,
                initial=option.default,
                help_text=option.help,
            )
        return forms.BooleanField(
            label=option.label, required=False, initial=option.default, help_text=option.help
        )

    @staticmethod
    def _rule_field(p: RuleParam) -> forms.Field:
        label = p.label
        # No title: the help under the field says what it is (a code name is no tooltip).
        attrs = {"data-param": p.name}
        if p.kind == "bool":
            return forms.BooleanField(
                label=label,
                required=False,
                help_text=p.help,
                widget=forms.CheckboxInput(attrs=attrs),
            )
        if p.kind == "choice":
            return forms.ChoiceField(
                label=label,
                choices=[(c, CHOICE_LABELS.get(c, c)) for c in p.choices],
                help_text=p.help,
                widget=forms.Select(attrs=attrs),
            )
        if p.kind in ("int", "int?"):
            return AsciiFormIntegerField(
                label=label,
                required=p.kind == "int",
                help_text=p.help,
                widget=forms.NumberInput(attrs={**attrs, "inputmode": "numeric"}),
            )
        return forms.CharField(
            label=label,
            required=False,
            help_text=p.help,
            widget=forms.TextInput(attrs={**attrs, "autocapitalize": "none"}),
        )

    @staticmethod
    def rules_and_format_names() -> list[str]:
        return [
            "preset",
            *(f"r_{p.name}" for p in RULE_PARAMS),
            "fmt_kind",
            "fmt_games",
            "fmt_hands",
        ]

    def _rule_rows(self, *, main: bool, kinds: tuple[str, ...]) -> list[dict[str, Any]]:
        return [
            {"field": self[f"r_{p.name}"], "param": p.name}
            for p in RULE_PARAMS
            if p.main == main and p.kind in kinds
        ]

    def main_rules(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=True, kinds=NUMBER_KINDS)

    def main_rule_choices(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=True, kinds=("choice",))

    def main_rule_flags(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=True, kinds=("bool",))

    def more_rules(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=False, kinds=NUMBER_KINDS)

    def more_rule_choices(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=False, kinds=("choice",))

    def more_rule_flags(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=False, kinds=("bool",))

    def more_rules_have_errors(self) -> bool:
        return self.is_bound and any(
            self.errors.get(f"r_{p.name}") for p in RULE_PARAMS if not p.main
        )

    def tiebreak_rows(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"tb_{n}"], self[f"tbo_{n}"]) for n in TIEBREAK_NAMES]

    def option_fields(self) -> list[dict[str, Any]]:
        return self.kind_rows((OptionType.NUMBER, OptionType.WHOLE))

    def choice_option_fields(self) -> list[dict[str, Any]]:
        return self.kind_rows((OptionType.CHOICE,))

    def flag_fields(self) -> list[dict[str, Any]]:
        return self.kind_rows((OptionType.FLAG,))

    # -- cleaning ---------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        rules = self._clean_rules(data)
        data["rules"] = rules
        if rules is not None:
            data["match_format"] = self._clean_format(data, rules)
        data["tiebreaks"] = self._clean_tiebreaks(data)
        try:
            data["options"] = options_clean(self._clean_options(data))
        except OptionError as exc:
            # The fields hold each option's bounds, so this is an option kept from the event.
            key = f"opt_{exc.name}"
            self.add_error(key if key in self.fields else None, exc.message)
        if not self.applies("rounds_planned"):
            data["rounds_planned"] = None
        return data

    def _clean_rules(self, data: dict[str, Any]) -> RuleSet | None:
        values: dict[str, Any] = {"name": data.get("preset") or "standard"}
        for p in RULE_PARAMS:
            key = f"r_{p.name}"
            if key in self.errors:
                return None
            value = data.get(key)
            if p.kind == "limit":
                text = str(value or "").strip().lower()
                number = parse_ascii_int(text, signed=True)
                value = number if number is not None else (knock_limit_key(text) or None)
            elif p.kind == "deal":
                try:
                    value = tuple(
                        ascii_int(v) for v in re.split(r"[,\s]+", str(value or "").strip()) if v
                    )
                except ValueError:
                    self.add_error(key, _("Five whole numbers, e.g. 10 7 7 6 6."))
                    return None
            values[p.name] = value
        try:
            return RuleSet.from_dict(values)
        except EngineError as exc:
            found = RULE_NAME.search(str(exc))
            self.add_error(f"r_{found[1]}" if found else "preset", engine_message(exc))
            return None

    def _clean_format(self, data: dict[str, Any], rules: RuleSet) -> dict[str, Any] | None:
        kind = data.get("fmt_kind") or "single_game"
        fmt: dict[str, Any] = {"kind": kind}
        if kind == "best_of":
            fmt["games"] = data.get("fmt_games") or 3
        if kind == "fixed_hands":
            if not data.get("fmt_hands"):
                self.add_error("fmt_hands", _("How many hands does a match last?"))
                return None
            fmt["hands"] = data["fmt_hands"]
        try:
            return match_format_dict(match_format_read(data=fmt, rules=rules))
        except ApplicationError as exc:
            # The message is in the user's language, so the field is told from the input.
            games = fmt.get("games", 1)
            bad_games = kind == "best_of" and (games < 1 or games % 2 == 0)
            self.add_error("fmt_games" if bad_games else "fmt_kind", exc.message)
            return None

    def _clean_tiebreaks(self, data: dict[str, Any]) -> list[str]:
        chosen = [
            (data.get(f"tbo_{name}") or 100 + position, position, name)
            for position, name in enumerate(TIEBREAK_NAMES)
            if data.get(f"tb_{name}")
        ]
        if not chosen:
            return []  # the usual order for the kind
        return [name for _order, _position, name in sorted(chosen)] + ["lots"]

    def _clean_options(self, data: dict[str, Any]) -> dict[str, Any]:
        """The options to store: the event's options the form does not offer, then each offered
        option that applies to the kind (a number or whole number when given, a choice or flag
        when it is not the default)."""
        options: dict[str, Any] = {}
        if self.event is not None:
            options.update(
                {k: v for k, v in (self.event.options or {}).items() if k not in FORM_OPTION_NAMES}
            )
        for option in FORM_OPTIONS:
            key = f"opt_{option.name}"
            if key not in data or not option.applies(self.chosen_kind):
                continue
            value = data[key]
            if option.type is OptionType.NUMBER:
                if value is not None:
                    options[option.name] = _number(value)
            elif option.type is OptionType.WHOLE:
                if value is not None:
                    options[option.name] = value
            elif value != option.default:
                options[option.name] = value
        return options
