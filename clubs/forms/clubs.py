"""Forms of the club director pages (club, players, roles, Gem deck) and of signing up."""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import ClubRole
from core.forms import ServiceErrorsMixin
from core.i18n import engine_message
from core.parsing import AsciiFormIntegerField
from engine.cards import format_card, parse_card
from engine.errors import EngineError
from engine.gem import DeckMap


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
    rating_period_days = AsciiFormIntegerField(
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
        # Whether the account exists is the service's answer (one message for every name
        # that cannot be granted: no account oracle).
        return self.cleaned_data["username"].strip()


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
