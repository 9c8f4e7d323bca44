"""The engine's error types, and the translatable messages they carry.

Every error the engine raises is a :class:`EngineError`, itself a :class:`ValueError`, so that the
service layer can translate all of them into one application error. Each message names what is
wrong: the unreadable token and its 1-based position, the card, the meld, or the count.

A message is a :class:`Message`: an English *template* with ``{name}`` placeholders and the
*params* that fill them. ``str()`` of the error is the English text; a site that translates can
look the template up in its catalogue and format the translation with the same params. The engine
stays free of any translation machinery: each template literal is wrapped in :func:`gettext_noop`,
a no-op that only marks it, so that Django's ``makemessages`` finds the templates in the sources.

A param is text that is not translated (card notation, a number, a name from the rules), or
itself a :class:`Message` that is translated on its own (a word such as "knocker", a reason, or
the message of an inner error). ``str()`` renders nested messages recursively.

This module imports nothing of the engine and must stay that way: every other engine module
imports it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, TypeAlias

__all__ = [
    "CardError",
    "EngineError",
    "KnockError",
    "MeldError",
    "Message",
    "Param",
    "RuleError",
    "ScoreError",
    "gettext_noop",
    "joined",
    "sentence",
]


def gettext_noop(message: str) -> str:
    """Mark ``message`` as a template to translate; return it unchanged.

    The name is the one Django's ``makemessages`` extracts from Python sources.

    >>> gettext_noop("Card {card} appears twice")
    'Card {card} appears twice'
    """
    return message


Param: TypeAlias = "str | int | Message | None"
"""A message parameter: text or a number as is, or a nested :class:`Message` to translate."""


class Message:
    """An English template and the params that fill its ``{name}`` placeholders.

    Without params the template is the text itself (braces in it are not placeholders).

    >>> reason = Message(gettext_noop("{count} cards needed"), count=3)
    >>> str(Message(gettext_noop("not a run: {reason}"), reason=reason))
    'not a run: 3 cards needed'
    """

    __slots__ = ("params", "template")

    def __init__(self, template: str, /, **params: Param) -> None:
        self.template = template
        self.params: dict[str, Param] = params

    def __str__(self) -> str:
        if not self.params:
            return self.template
        return self.template.format(**self.params)

    def __repr__(self) -> str:
        return f"Message({self.template!r}, **{self.params!r})"

    def as_dict(self) -> dict[str, object]:
        """The message as JSON-safe data: the template and its params, nested ones as dicts.

        >>> Message(gettext_noop("limit {limit}"), limit=10).as_dict()
        {'template': 'limit {limit}', 'params': {'limit': 10}}
        """
        return {
            "template": self.template,
            "params": {
                name: value.as_dict() if isinstance(value, Message) else value
                for name, value in self.params.items()
            },
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Message:
        """The message :meth:`as_dict` gave, nested params included.

        >>> str(Message.from_dict({"template": "limit {limit}", "params": {"limit": 10}}))
        'limit 10'
        """
        params: dict[str, Param] = {
            name: cls.from_dict(value) if isinstance(value, Mapping) else value
            for name, value in dict(data.get("params") or {}).items()
        }
        return cls(str(data["template"]), **params)


def sentence(text: str) -> str:
    """``text`` as a message shown to a person starts: with a capital letter. Templates that
    begin with a word are written so; one that begins with a placeholder ("{name} cannot be
    negative: {value}") takes the capital of whatever fills it ("The knocker's deadwood ...").
    Text starting with anything but a lower-case letter (a card, a number, Hangul) is unchanged,
    and so is a parameter's name written as code ("best_of needs ...", "knock_limit ...").

    >>> sentence("the knocker's deadwood cannot be negative: -5")
    "The knocker's deadwood cannot be negative: -5"
    >>> sentence("노커의 데드우드"), sentence("9S"), sentence("best_of needs an odd number")
    ('노커의 데드우드', '9S', 'best_of needs an odd number')
    """
    first_word = text.split(" ", 1)[0]
    if text[:1].islower() and text[:1].isascii() and "_" not in first_word:
        return text[0].upper() + text[1:]
    return text


def joined(template: str, parts: Sequence[Param]) -> Param:
    """``parts`` joined two at a time by ``template`` (with ``{first}`` and ``{rest}``).

    Each join is a :class:`Message`, so the separator is translated too; one part is itself,
    no part is the empty string.

    >>> str(joined(gettext_noop("{first} or {rest}"), [10, 11, 12]))
    '10 or 11 or 12'
    """
    if not parts:
        return ""
    result = parts[-1]
    for part in reversed(parts[:-1]):
        result = Message(template, first=part, rest=result)
    return result


class EngineError(ValueError):
    """Base class of every error raised by :mod:`engine`.

    Raise one with a template and its params, or with a ready :class:`Message`; a plain message
    with no params works too. ``str(error)`` is the English text.

    >>> issubclass(CardError, EngineError) and issubclass(EngineError, ValueError)
    True
    >>> error = CardError(gettext_noop("Card {card} appears twice"), card="AS")
    >>> str(error), error.template, error.params
    ('Card AS appears twice', 'Card {card} appears twice', {'card': 'AS'})
    """

    message: Message

    def __init__(self, template: str | Message, /, **params: Param) -> None:
        if isinstance(template, Message):
            if params:
                raise TypeError("give either a Message or a template with params, not both")
            message = template
        else:
            message = Message(template, **params)
        super().__init__(sentence(str(message)))
        self.message = message

    @property
    def template(self) -> str:
        """The English template of the message."""
        return self.message.template

    @property
    def params(self) -> dict[str, Param]:
        """The params of the message (nested messages as :class:`Message`)."""
        return self.message.params


class CardError(EngineError):
    """A card that cannot be read, is out of range, appears twice, or a wrong number of cards."""


class MeldError(EngineError):
    """A meld that is not a legal set or run, or melds that overlap or are not in the hand."""


class KnockError(EngineError):
    """A knock that the rules do not allow, such as deadwood over the knock limit."""


class RuleError(EngineError):
    """A rule set that is inconsistent, or a preset that does not exist."""


class ScoreError(EngineError):
    """A hand or game entry whose claimed result contradicts what the engine computes."""
