"""Korean particles in templates: ``{{ name|particle:"이/가" }}`` and ``{% filter particles %}``.

``particle`` attaches the form a word takes (for Korean text built around a name); ``particles``
resolves the fallbacks ("이(가)", "(으)로") a translated block writes after a placeholder, once
the block is filled in. Both leave English text as it is. See :mod:`core.i18n`.
"""

from __future__ import annotations

from django import template

from core.i18n import particle as _particle
from core.i18n import with_particles

register = template.Library()


@register.filter(name="particle", is_safe=True)
def particle(word: object, pair: str) -> str:
    """``word`` with the form of ``pair`` ("이/가", "은/는", "을/를" ...) it takes."""
    return _particle(str(word), pair)


@register.filter(name="particles", is_safe=True)
def particles(text: object) -> str:
    """``text`` with its fallback particles chosen by the word before each."""
    return with_particles(str(text))
