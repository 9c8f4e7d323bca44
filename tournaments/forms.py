"""Page forms for clubs and events: they only read and type the input; services decide."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.errors import ApplicationError
from core.i18n import engine_message
from engine.cards import format_card, parse_card
from engine.errors import EngineError
from engine.gem import DeckMap
from engine.rules import (
    FAMILIES,
    NEXT_DEALER_RULES,
    RULE_PRESETS,
    SHUTOUT_RULES,
    TABLES,
    RuleSet,
    find_rules,
)
from scoring.formats import match_format_dict, match_format_read
from tournaments.models import Club, ClubRole, Event, Player
from tournaments.selectors import OPTION_DEFAULTS


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.name


class ForbiddenPairingForm(forms.Form):
    player_a = PlayerChoiceField(queryset=Player.objects.none(), label=_("Player"))
    player_b = PlayerChoiceField(queryset=Player.objects.none(), label=_("and player"))
    hard = forms.BooleanField(
        required=False, initial=True, label=_("Never (otherwise only if nothing else works)")
    )

    def __init__(self, *args: object, players: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player_a"].queryset = players  # type: ignore[attr-defined]
        self.fields["player_b"].queryset = players  # type: ignore[attr-defined]


class RegisterForm(forms.Form):
    player = PlayerChoiceField(queryset=Player.objects.none(), label=_("Player"))
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Checked in"))

    def __init__(self, *args: object, players: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["player"].queryset = players  # type: ignore[attr-defined]


class PlayerChecklistField(forms.ModelMultipleChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.name


class BulkRegisterForm(forms.Form):
    """The event page's checklist: the club's players not yet registered, ticked to register."""

    players = PlayerChecklistField(
        queryset=Player.objects.none(),
        label=_("Players"),
        widget=forms.CheckboxSelectMultiple,
        error_messages={"required": _("Tick at least one player.")},
    )
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Check them in now"))

    def __init__(self, *args: object, players: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        self.fields["players"].queryset = players  # type: ignore[attr-defined]


class MatchStartForm(forms.Form):
    """A club-night table: players in seat order (in the box: box, captain, sitter) and a table."""

    SEATS = 4

    table_number = forms.IntegerField(
        required=False,
        min_value=1,
        label=_("Table"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(self, *args: object, players: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for seat in range(1, self.SEATS + 1):
            self.fields[f"seat_{seat}"] = PlayerChoiceField(
                queryset=players,  # type: ignore[arg-type]
                required=seat <= 2,
                label=_("Seat %(seat)s") % {"seat": seat},
            )

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, self.SEATS + 1)]

    def player_ids(self) -> list[int]:
        seats = (self.cleaned_data.get(f"seat_{s}") for s in range(1, self.SEATS + 1))
        return [p.pk for p in seats if p is not None]


# -- director pages: clubs, players, roles, events ---------------------------------------------

"""Club addresses that page routes already use (``/clubs/new/``)."""


class ServiceErrorsMixin:
    """Put a service's ``ApplicationError`` at the form field it names."""

    service_fields: dict[str, str | None] = {}

    def add_service_error(self, exc: ApplicationError) -> None:
        form: forms.Form = self  # type: ignore[assignment]
        name = self.service_fields.get(exc.field or "", exc.field)
        if name not in form.fields:
            name = None
        form.add_error(name, exc.message)


class ClubForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    slug = forms.SlugField(
        label=_("Address"),
        max_length=80,
        required=False,
        help_text=_(
            "Letters, digits and hyphens, used in the club's link. Blank: made from the name."
        ),
        widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}),
    )
    description = forms.CharField(
        label=_("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    rating_period_days = forms.IntegerField(
        label=_("Rating period (days)"),
        min_value=1,
        initial=30,
        help_text=_("Glicko-2 rates the games of one period together; 7 is weekly."),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )


class PlayerAddForm(ServiceErrorsMixin, forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    is_guest = forms.BooleanField(label=_("Guest"), required=False)
    family = forms.CharField(
        label=_("Family"),
        max_length=60,
        required=False,
        help_text=_("Players of one family can be kept apart in pairings."),
    )


class PlayerEditForm(PlayerAddForm):
    """Rename a player (one small form per row of the players page)."""


class PlayerListForm(ServiceErrorsMixin, forms.Form):
    service_fields = {"name": "names"}

    names = forms.CharField(
        label=_("Players, one name per line"),
        widget=forms.Textarea(attrs={"rows": 6, "autocapitalize": "words"}),
    )
    is_guest = forms.BooleanField(label=_("They are guests"), required=False)

    def name_list(self) -> list[str]:
        return [line for line in self.cleaned_data["names"].splitlines() if line.strip()]


class SignUpForm(ServiceErrorsMixin, forms.Form):
    """A new account: the service checks the username is free and the password is strong."""

    service_fields = {"password": "password1"}

    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        help_text=_("Letters, digits and @ . + - _ only."),
        widget=forms.TextInput(
            attrs={"autocapitalize": "none", "spellcheck": "false", "autocomplete": "username"}
        ),
    )
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    password1 = forms.CharField(
        label=_("Password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )
    password2 = forms.CharField(
        label=_("Password again"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "new-password"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        first, second = data.get("password1"), data.get("password2")
        if first and second and first != second:
            self.add_error("password2", _("The two passwords differ."))
        return data


class RoleGrantForm(ServiceErrorsMixin, forms.Form):
    username = forms.CharField(
        label=_("Username"),
        max_length=150,
        widget=forms.TextInput(attrs={"autocapitalize": "none", "spellcheck": "false"}),
    )
    role = forms.ChoiceField(label=_("Role"), choices=ClubRole.Role.choices)

    def clean_username(self) -> Any:
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise forms.ValidationError(
                _("Nobody has the username %(name)s; they need an account first."),
                params={"name": username},
            )
        self.cleaned_data["user"] = user
        return username


_DECK_LINE = re.compile(r"^\s*(\S+?)\s*[:=\s]\s*(.+?)\s*$")


class GemDeckMapForm(ServiceErrorsMixin, forms.Form):
    """The Gem Rummy deck map pasted as text, a card a line: ``AS ruby``, ``KS ruby,emerald``."""

    service_fields = {"gem_deck_map": "deck_map"}

    deck_map = forms.CharField(
        label=_("Deck map"),
        required=False,
        widget=forms.Textarea(
            attrs={"rows": 10, "autocapitalize": "none", "spellcheck": "false", "class": "mono"}
        ),
        help_text=_(
            "52 lines, one card each: the card, then its gem (a king: two gems with a comma), "
            "e.g. AS ruby or KS ruby,emerald. Leave empty to remove the map."
        ),
    )

    @staticmethod
    def as_text(mapping: dict[str, Any]) -> str:
        lines = []
        for card, gems in mapping.items():
            lines.append(f"{card} {gems if isinstance(gems, str) else ','.join(gems)}")
        return "\n".join(lines)

    def clean_deck_map(self) -> dict[str, Any]:
        mapping: dict[str, Any] = {}
        errors = []
        for number, line in enumerate(self.cleaned_data["deck_map"].splitlines(), start=1):
            if not line.strip() or line.lstrip().startswith("#"):
                continue
            found = _DECK_LINE.match(line)
            if not found:
                errors.append(_("Line %(n)s: a card and its gem, e.g. AS ruby.") % {"n": number})
                continue
            try:
                card = format_card(parse_card(found[1]))
            except EngineError as exc:
                errors.append(
                    _("Line %(n)s: %(error)s") % {"n": number, "error": engine_message(exc)}
                )
                continue
            gems = [g for g in re.split(r"[,/\s]+", found[2]) if g]
            if card in mapping:
                errors.append(
                    _("Line %(n)s: %(card)s is given twice.") % {"n": number, "card": card}
                )
                continue
            mapping[card] = gems[0] if len(gems) == 1 else gems
        if errors:
            raise forms.ValidationError(errors)
        if mapping:
            try:
                DeckMap.from_mapping(mapping)
            except EngineError as exc:
                raise forms.ValidationError(engine_message(exc)) from exc
        return mapping


# -- event settings ----------------------------------------------------------------------------


CHOICE_LABELS: dict[str, Any] = {
    "gin": _("gin rummy"),
    "gem": _("Gem Rummy"),
    "rummy": _("Basic Rummy"),
    "two": _("two players"),
    "three_box": _("three, in the box"),
    "three_dealer_out": _("three, dealer sits out"),
    "partnership": _("partnership (four)"),
    "open": _("open table (2-6)"),
    "add_game_bonus": _("adds the game bonus again"),
    "double_total": _("doubles the total"),
    "none": _("nothing extra"),
    "loser": _("the loser"),
    "winner": _("the winner"),
    "rotate": _("the next seat"),
}
"""Readable names of the rule parameters' choices (the stored value is the engine's word)."""


@dataclass(frozen=True)
class RuleParam:
    """How one ``engine.rules.RuleSet`` parameter is edited on the event form."""

    name: str
    label: Any
    kind: str  # int, int?, bool, choice, limit, deal
    main: bool = True
    help: Any = ""
    choices: tuple[str, ...] = ()


RULE_PARAMS: tuple[RuleParam, ...] = (
    RuleParam(
        "knock_limit",
        _("Knock limit"),
        "limit",
        help=_("Points of deadwood a knocker may hold (0-100), or upcard (Oklahoma), dice (Gem)."),
    ),
    RuleParam("gin_bonus", _("Gin bonus"), "int"),
    RuleParam("big_gin_bonus", _("Big gin bonus"), "int?", help=_("Blank: no big gin.")),
    RuleParam("undercut_bonus", _("Undercut bonus"), "int"),
    RuleParam("undercut_scores_difference", _("Undercut also scores the difference"), "bool"),
    RuleParam(
        "undercut_on_tie", _("A tie is an undercut"), "bool", help=_("Off: the knocker wins a tie.")
    ),
    RuleParam("target", _("Target"), "int?", help=_("Points that win a game. Blank: one hand.")),
    RuleParam("game_bonus", _("Game bonus"), "int"),
    RuleParam("box_bonus", _("Box bonus"), "int", help=_("Points for each hand won.")),
    RuleParam("shutout", _("Shutout"), "choice", choices=SHUTOUT_RULES),
    RuleParam("family", _("Game family"), "choice", main=False, choices=FAMILIES),
    RuleParam("table", _("Table"), "choice", main=False, choices=TABLES),
    RuleParam("hand_size", _("Cards a hand"), "int", main=False),
    RuleParam("ace_upcard_gin_only", _("Ace upcard: gin only"), "bool", main=False),
    RuleParam("spade_doubles", _("Spade upcard doubles"), "bool", main=False),
    RuleParam("knocker_min_points", _("Knocker's least points"), "int", main=False),
    RuleParam("dead_hand_stock", _("Dead hand at stock of"), "int", main=False),
    RuleParam("max_hands", _("Most hands"), "int?", main=False, help=_("Blank: no limit.")),
    RuleParam("last_hand_tiebreak", _("Last hand breaks a tie"), "bool", main=False),
    RuleParam(
        "hollywood_games",
        _("Hollywood games"),
        "int",
        main=False,
        help=_("0: no Hollywood; 3 in the usual game."),
    ),
    RuleParam("next_dealer", _("Next dealer"), "choice", main=False, choices=NEXT_DEALER_RULES),
    RuleParam("gem_bonus_knocker", _("Gem bonus (knocker)"), "int", main=False),
    RuleParam("gem_bonus_other", _("Gem bonus (other)"), "int", main=False),
    RuleParam("rummy_doubles", _("Rummy doubles"), "bool", main=False),
    RuleParam("ace_high", _("Ace high"), "bool", main=False),
    RuleParam(
        "rummy_deal",
        _("Rummy deal (2-6 players)"),
        "deal",
        main=False,
        help=_("Cards dealt for 2, 3, 4, 5 and 6 players."),
    ),
)

MATCH_FORMATS = (
    ("single_game", _("Single game")),
    ("best_of", _("Best of")),
    ("hollywood", _("Hollywood")),
    ("fixed_hands", _("Fixed number of hands")),
)

TIEBREAK_NAMES: dict[str, Any] = {
    "game_points": _("Game points"),
    "head_to_head": _("Head to head"),
    "buchholz": _("Buchholz"),
    "buchholz_cut1": _("Buchholz cut 1"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "hands_won": _("Hands won"),
    "gins": _("Gins"),
    "opponents_match_win": _("Opponents' match-win %"),
}
"""Tie-breaks a director orders; match points always come first and lots always last."""

CLUB_RULE_CHOICES = (
    ("allow", _("allow")),
    ("soft", _("avoid if possible")),
    ("hard", _("never")),
)

NUMBER_OPTIONS: dict[str, Any] = {
    "win_points": _("Win points"),
    "bye_points": _("Bye points"),
    "requested_bye_points": _("Requested bye"),
    "late_entry_points": _("Late entry"),
}
NUMBER_OPTION_HELP: dict[str, Any] = {
    "requested_bye_points": _("Points for a bye a player asked for."),
    "late_entry_points": _("Points for each round missed."),
}
WHOLE_OPTIONS: dict[str, Any] = {
    "groups": _("Groups"),
    "playoff_cut": _("Playoff cut"),
}
WHOLE_OPTION_HELP: dict[str, Any] = {
    "groups": _("Round robin in groups."),
    "playoff_cut": _("The top N go to a playoff."),
}
FLAG_OPTIONS: dict[str, Any] = {
    "double_round_robin": _("Double round robin"),
    "avoid_same_table": _("Avoid the same table twice"),
    "third_place": _("Third-place match"),
    "grand_final_reset": _("Grand final reset (double elimination)"),
    "registered_only": _("Registered players only (club nights and leagues)"),
}
CHOICE_OPTIONS: dict[str, tuple[Any, tuple[tuple[str, Any], ...]]] = {
    "pair_by": (
        _("Order round 1 and score groups by"),
        (("rating", _("rating")), ("seed", _("seed"))),
    ),
    "forbid_same_club": (_("Two players of one club may meet"), CLUB_RULE_CHOICES),
    "forbid_family": (_("Two players of one family may meet"), CLUB_RULE_CHOICES),
}
FORM_OPTIONS = frozenset({*NUMBER_OPTIONS, *WHOLE_OPTIONS, *FLAG_OPTIONS, *CHOICE_OPTIONS})


def _param_pattern(names: Any) -> re.Pattern[str]:
    return re.compile(r"(?<![\w])(" + "|".join(sorted(names, key=len, reverse=True)) + r")(?![\w])")


_RULE_NAME = _param_pattern(p.name for p in RULE_PARAMS)
_OPTION_NAME = _param_pattern(FORM_OPTIONS)


_NUMBER_KINDS = ("int", "int?", "limit", "deal")


def _number(value: Decimal) -> int | float:
    return int(value) if value == value.to_integral_value() else float(value)


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
        choices=[(name, name) for name in RULE_PRESETS],
        initial="standard",
        help_text=_("A starting point: every parameter below stays editable."),
    )
    fmt_kind = forms.ChoiceField(label=_("Match format"), choices=MATCH_FORMATS)
    fmt_games = forms.IntegerField(
        label=_("Best of games"),
        required=False,
        min_value=1,
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )
    fmt_hands = forms.IntegerField(
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
    rounds_planned = forms.IntegerField(
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
            self.fields[f"tbo_{name}"] = forms.IntegerField(
                label=_("Order of %(name)s") % {"name": TIEBREAK_NAMES[name]},
                required=False,
                min_value=1,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "class": "order"}),
            )
        for name, label in NUMBER_OPTIONS.items():
            self.fields[f"opt_{name}"] = forms.DecimalField(
                label=label,
                required=False,
                min_value=0,
                max_digits=6,
                decimal_places=2,
                help_text=NUMBER_OPTION_HELP.get(name, ""),
                widget=forms.NumberInput(
                    attrs={
                        "inputmode": "decimal",
                        "step": "0.5",
                        "placeholder": OPTION_DEFAULTS[name],
                    }
                ),
            )
        for name, label in WHOLE_OPTIONS.items():
            self.fields[f"opt_{name}"] = forms.IntegerField(
                label=label,
                required=False,
                min_value=1,
                help_text=WHOLE_OPTION_HELP[name],
                widget=forms.NumberInput(
                    attrs={"inputmode": "numeric", "placeholder": OPTION_DEFAULTS[name] or ""}
                ),
            )
        for name, (label, choices) in CHOICE_OPTIONS.items():
            self.fields[f"opt_{name}"] = forms.ChoiceField(
                label=label, choices=choices, initial=OPTION_DEFAULTS[name]
            )
        for name, label in FLAG_OPTIONS.items():
            self.fields[f"opt_{name}"] = forms.BooleanField(
                label=label, required=False, initial=OPTION_DEFAULTS[name]
            )

    # -- initial values -------------------------------------------------------------------

    @staticmethod
    def rules_initial(rules: dict[str, Any]) -> dict[str, Any]:
        """Initial values of the rule and match-format fields for a stored rule set."""
        out: dict[str, Any] = {}
        for p in RULE_PARAMS:
            value = rules.get(p.name)
            if p.kind == "deal":
                value = " ".join(str(v) for v in value or ())
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
            if name in FORM_OPTIONS:
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
    def _rule_field(p: RuleParam) -> forms.Field:
        label = p.label
        attrs = {"data-param": p.name, "title": p.name}
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
            return forms.IntegerField(
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
        return self._rule_rows(main=True, kinds=_NUMBER_KINDS)

    def main_rule_choices(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=True, kinds=("choice",))

    def main_rule_flags(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=True, kinds=("bool",))

    def more_rules(self) -> list[dict[str, Any]]:
        return self._rule_rows(main=False, kinds=_NUMBER_KINDS)

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

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in (*NUMBER_OPTIONS, *WHOLE_OPTIONS)]

    def choice_option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in CHOICE_OPTIONS]

    def flag_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{n}"] for n in FLAG_OPTIONS]

    # -- cleaning ---------------------------------------------------------------------------

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        rules = self._clean_rules(data)
        data["rules"] = rules
        if rules is not None:
            data["match_format"] = self._clean_format(data, rules)
        data["tiebreaks"] = self._clean_tiebreaks(data)
        data["options"] = self._clean_options(data)
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
                value = int(text) if text.lstrip("-").isdigit() else (text or None)
            elif p.kind == "deal":
                try:
                    value = tuple(
                        int(v) for v in re.split(r"[,\s]+", str(value or "").strip()) if v
                    )
                except ValueError:
                    self.add_error(key, _("Five whole numbers, e.g. 10 7 7 6 6."))
                    return None
            values[p.name] = value
        try:
            return RuleSet.from_dict(values)
        except EngineError as exc:
            found = _RULE_NAME.search(str(exc))
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
        options: dict[str, Any] = {}
        if self.event is not None:
            options.update(
                {k: v for k, v in (self.event.options or {}).items() if k not in FORM_OPTIONS}
            )
        for name in NUMBER_OPTIONS:
            value = data.get(f"opt_{name}")
            if value is not None:
                options[name] = _number(value)
        for name in WHOLE_OPTIONS:
            value = data.get(f"opt_{name}")
            if value is not None:
                options[name] = value
        for name in (*CHOICE_OPTIONS, *FLAG_OPTIONS):
            key = f"opt_{name}"
            if key in data and data[key] != OPTION_DEFAULTS[name]:
                options[name] = data[key]
        return options

    def add_service_error(self, exc: ApplicationError) -> None:
        if exc.field == "options":
            found = _OPTION_NAME.search(exc.message)
            if found:
                self.add_error(f"opt_{found[1]}", exc.message)
                return
        super().add_service_error(exc)
