"""Words in the reader's language in templates: Korean particles (``{{ name|particle:"이/가" }}``,
``{% filter particles %}``), rule-set names (``{{ rules.name|rules_name }}``) and knock limits
(``{{ rules.knock_limit|knock_limit }}``), and the games a best-of match takes to win
(``{{ games|first_to }}``, so that a language can name the format by it: "3선승제").

``particle`` attaches the form a word takes (for Korean text built around a name); ``particles``
resolves the fallbacks ("이(가)", "(으)로") a translated block writes after a placeholder, once
the block is filled in. Both leave English text as it is. See :mod:`core.i18n`.
"""

from __future__ import annotations

from django import template

from core.i18n import knock_limit_text, rules_name, with_particles
from core.i18n import particle as _particle

register = template.Library()


@register.filter(name="particle", is_safe=True)
def particle(word: object, pair: str) -> str:
    """``word`` with the form of ``pair`` ("이/가", "은/는", "을/를" ...) it takes."""
    return _particle(str(word), pair)


@register.filter(name="particles", is_safe=True)
def particles(text: object) -> str:
    """``text`` with its fallback particles chosen by the word before each."""
    return with_particles(str(text))


@register.filter(name="rules_name")
def rules_name_filter(name: object) -> str:
    """A rule set's name ("standard") as the reader reads it ("Standard", "표준")."""
    return rules_name(str(name))


@register.filter(name="knock_limit")
def knock_limit(value: object) -> str:
    """A knock limit: its points, or "set by the upcard" / "set by the dice"."""
    return knock_limit_text(value)


@register.filter(name="first_to")
def first_to(games: object) -> int | str:
    """The games that win a best-of-``games`` match (a majority: 5 -> 3); as given when it is
    not a whole number."""
    try:
        return int(str(games)) // 2 + 1
    except ValueError:
        return str(games)
