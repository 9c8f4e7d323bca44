"""Forms of a director's actions on an event page: forbidden pairs, registrations, match start."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from clubs.models import Player
from core.parsing import AsciiFormIntegerField


class PlayerChoiceField(forms.ModelChoiceField):
    def label_from_instance(self, obj: Player) -> str:
        return obj.name


class BusyPlayerChoiceField(PlayerChoiceField):
    """A seat menu that says who is still at another table ("Ann · at table 1"): they can be
    seated (a last hand may only wait for its confirmation), but the director sees it."""

    playing: dict[int, int | None]

    def label_from_instance(self, obj: Player) -> str:
        if obj.pk not in getattr(self, "playing", {}):
            return obj.name
        table = self.playing[obj.pk]
        if table is None:
            return _("%(name)s · playing") % {"name": obj.name}
        return _("%(name)s · at table %(t)s") % {"name": obj.name, "t": table}


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


class PasteRegisterForm(forms.Form):
    """Names pasted on the event page, one a line: each is registered (new names join the club)."""

    names = forms.CharField(
        label=_("Paste names, one a line"),
        widget=forms.Textarea(attrs={"rows": 4}),
        max_length=20000,
        help_text=_("A name the club does not have yet is added to the club's players."),
    )
    checked_in = forms.BooleanField(required=False, initial=True, label=_("Check them in now"))

    def name_list(self) -> list[str]:
        return str(self.cleaned_data["names"]).splitlines()


class MatchStartForm(forms.Form):
    """A club-night table: players in seat order (in the box: box, captain, sitter) and a table."""

    SEATS = 4

    table_number = AsciiFormIntegerField(
        required=False,
        min_value=1,
        label=_("Table"),
        widget=forms.NumberInput(attrs={"inputmode": "numeric"}),
    )

    def __init__(
        self,
        *args: object,
        players: object,
        playing: dict[int, int | None] | None = None,
        **kwargs: object,
    ) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        for seat in range(1, self.SEATS + 1):
            field = BusyPlayerChoiceField(
                queryset=players,  # type: ignore[arg-type]
                required=seat <= 2,
                label=_("Seat %(seat)s") % {"seat": seat},
            )
            field.playing = playing or {}
            self.fields[f"seat_{seat}"] = field

    def seat_fields(self) -> list[forms.BoundField]:
        return [self[f"seat_{seat}"] for seat in range(1, self.SEATS + 1)]

    def player_ids(self) -> list[int]:
        seats = (self.cleaned_data.get(f"seat_{s}") for s in range(1, self.SEATS + 1))
        return [p.pk for p in seats if p is not None]
