"""What the card picker of the entry form needs: the deck in picking order, each card's name, the
preview address, the words its script shows, and the knocker the form starts with.

The picker (static/js/picker.js) only fills in the typed fields of the "by cards" tab and asks
the preview API (``POST /api/matches/{id}/hands/preview/``) what the engine makes of them; the
form is sent as typed, so without the script the page works the same. Presentation only.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from django.urls import reverse
from django.utils.html import format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

from engine.cards import RANKS, SUIT_SYMBOLS, SUITS
from engine.scoring.outcome import FORMULA_TEMPLATES

# How each rank is said in a card's name ("ace of spades", "스페이드 A").
_RANK_SHOWN = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")


def _rank_name(rank: int) -> str:
    names = {
        0: pgettext("card rank", "ace"),
        10: pgettext("card rank", "jack"),
        11: pgettext("card rank", "queen"),
        12: pgettext("card rank", "king"),
    }
    return names.get(rank, _RANK_SHOWN[rank])


def _suit_names() -> tuple[str, str, str, str]:
    return (
        pgettext("card suit", "spades"),
        pgettext("card suit", "hearts"),
        pgettext("card suit", "diamonds"),
        pgettext("card suit", "clubs"),
    )


def deck_buttons() -> SafeString:
    """The 52 cards' buttons, rank by rank (A♠ A♥ A♦ A♣, 2♠ …): on a phone, four suit columns
    of 13, each named for screen readers ("A♠ ace of spades").

    The same for every form in one language, so drawn once per language and process (each
    player's live regions drew the 52 buttons again: about a fifth of their time)."""
    return _deck_in(get_language() or "")


@cache
def _deck_in(language: str) -> SafeString:
    """:func:`deck_buttons` in ``language`` (the active one: the argument keys what is
    remembered)."""
    suits = _suit_names()
    cards = []
    for rank in range(13):
        for suit in range(4):
            shown = _RANK_SHOWN[rank] + SUIT_SYMBOLS[suit]
            name = _("%(rank)s of %(suit)s") % {"rank": _rank_name(rank), "suit": suits[suit]}
            cards.append((" red" if suit in (1, 2) else "", RANKS[rank] + SUITS[suit], shown, name))
    return format_html_join(
        "",
        '<button type="button" class="card{}" data-card="{}" aria-pressed="false" '
        'aria-label="{} {}">{}</button>',
        ((red, code, shown, name, shown) for red, code, shown, name in cards),
    )


def _texts(seats: list[dict[str, Any]], outcomes: dict[str, Any]) -> dict[str, Any]:
    """The words the script shows (translated here: the site has no JavaScript catalogue)."""
    return {
        "knocker": _("Knocker"),
        "defender": _("Defender"),
        "melds": _("melds"),
        "deadwood": _("deadwood"),
        "none": _("none yet"),
        "layoffs": _("Lay-offs"),
        "on": _("on"),
        "scores": _("%(name)s scores %(points)s"),
        "both_deadwood": _("Deadwood: knocker %(k)s, defender %(d)s"),
        "offline": _("No answer from the server: the hand can still be entered."),
        "outcomes": {key: str(label) for key, label in outcomes.items()},
        # The preview's formula is worded from its structured message, in the reader's words.
        "formulas": {template: _(template) for template in FORMULA_TEMPLATES},
        "names": {str(seat["position"]): seat["name"] for seat in seats},
    }


def default_knocker(page: Any, setup: dict[str, Any]) -> int | None:
    """The knocker the form starts with: the visitor's own seat when they hold exactly one seat
    that plays this hand (most hands are entered by whoever knocked); else none is ticked."""
    identities = page.access.identities
    playing = [p["position"] for p in setup["playing"]]
    if len(identities) == 1 and identities[0] in playing:
        return int(identities[0])
    return None


def picker_setup(page: Any, setup: dict[str, Any], outcomes: dict[str, Any]) -> dict[str, Any]:
    """The picker of a two-player hand by cards (three-player Gem keeps the typed fields)."""
    return {
        "deck": deck_buttons(),
        "preview_url": reverse("match-hands-preview", args=[page.match.pk]),
        "hand_size": setup["hand_size"],
        "texts": _texts(setup["seats"], outcomes),
    }
