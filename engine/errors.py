"""The engine's error types.

Every error the engine raises is a :class:`EngineError`, itself a :class:`ValueError`, so that the
service layer can translate all of them into one application error. Each message names what is
wrong: the unreadable token and its 1-based position, the card, the meld, or the count.

This module imports nothing and must stay that way: every other engine module imports it.
"""

from __future__ import annotations

__all__ = ["CardError", "EngineError", "KnockError", "MeldError", "RuleError", "ScoreError"]


class EngineError(ValueError):
    """Base class of every error raised by :mod:`engine`.

    >>> issubclass(CardError, EngineError) and issubclass(EngineError, ValueError)
    True
    """


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
