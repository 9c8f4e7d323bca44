"""Forms of online entry: the entrant's (with its honeypot) and the director's entry settings."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from core.parsing import AsciiFormIntegerField


class EntryForm(forms.Form):
    name = forms.CharField(
        label=_("Your name"),
        max_length=120,
        widget=forms.TextInput(attrs={"autocomplete": "name", "autofocus": True}),
    )
    email = forms.EmailField(
        label=_("Email (optional)"),
        required=False,
        help_text=_("To be told when a place comes free."),
        widget=forms.EmailInput(attrs={"autocomplete": "email"}),
    )
    note = forms.CharField(
        label=_("Note to the director (optional)"),
        required=False,
        max_length=500,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
    # Hidden from people (and screen readers); a bot fills every field it finds.
    website = forms.CharField(
        label=_("Leave this empty"),
        required=False,
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )
    waiting_list = forms.BooleanField(required=False, widget=forms.HiddenInput)


class EntrySettingsForm(forms.Form):
    entries_open = forms.BooleanField(label=_("Take entries online"), required=False)
    entries_cap = AsciiFormIntegerField(
        label=_("Most players"),
        required=False,
        min_value=1,
        help_text=_("Entries past this many go to the waiting list. Empty: no limit."),
    )
    entries_approval = forms.BooleanField(
        label=_("The director approves each entry"), required=False
    )
    entries_close_at = forms.DateTimeField(
        label=_("Entries close"),
        required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )


class EntryMergeForm(forms.Form):
    into = AsciiFormIntegerField(min_value=1)
