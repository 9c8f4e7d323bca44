"""Names people give (players, clubs, events): trimmed, and never invisible.

A name of zero-width spaces, a byte-order mark, bidi marks or Hangul fillers looks empty on every
list and sheet, yet ``str.strip()`` keeps it. Every service that stores a name passes it through
:func:`name_clean` once: it trims white space and invisible characters from both ends (inside a
name they stay: a zero-width joiner holds an emoji or a Persian word together) and refuses a name
with nothing visible left, naming the field.
"""

from __future__ import annotations

import unicodedata

from django.utils.translation import gettext as _

from core.errors import ApplicationError

# Control and format characters, and every kind of space or separator.
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Zs", "Zl", "Zp"})
# Letters and symbols that draw nothing: Hangul fillers, the braille blank, the Mongolian vowel
# separator (a format character in newer Unicode, a space in older tables).
INVISIBLE_CHARACTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e")


def is_invisible(char: str) -> bool:
    """True for a character that draws nothing on a list or a sheet.

    >>> [is_invisible(c) for c in ("\\u200b", "\\ufeff", "\\u3164", " ", "a", "한")]
    [True, True, True, True, False, False]
    """
    return char in INVISIBLE_CHARACTERS or unicodedata.category(char) in INVISIBLE_CATEGORIES


def visible_strip(text: str) -> str:
    """``text`` without white space or invisible characters at either end.

    >>> visible_strip("\\u200b Ann\\u200dB \\ufeff")
    'Ann\\u200dB'
    >>> visible_strip("\\u200b\\u2066\\u3164")
    ''
    """
    start, end = 0, len(text)
    while start < end and is_invisible(text[start]):
        start += 1
    while end > start and is_invisible(text[end - 1]):
        end -= 1
    return text[start:end]


def name_clean(raw: str, *, empty_message: str, field: str = "name") -> str:
    """The name to store for ``raw``: trimmed of white space and invisible characters.

    An empty name is refused with ``empty_message``; one that only looks empty (nothing but
    invisible characters) with a message saying so. Both are 400s naming ``field``.
    """
    if not raw.strip():
        raise ApplicationError(empty_message, field=field)
    name = visible_strip(raw)
    if not name:
        raise ApplicationError(
            _(
                "This name has no visible character (only spaces, zero-width or other invisible "
                "characters): type a name people can read."
            ),
            field=field,
        )
    return name
