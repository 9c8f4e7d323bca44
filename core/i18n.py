"""Engine messages in the user's language.

The engine is pure Python and speaks English: each :class:`~engine.errors.EngineError` carries an
English template (marked with ``gettext_noop`` so that ``makemessages`` puts it in the catalogue)
and the params that fill it. Here the template is looked up in the active language's catalogue
and formatted with the same params; a param that is itself a message (a word such as "knocker",
or the reason from an inner error) is translated the same way first.
"""

from __future__ import annotations

from django.utils.translation import gettext

from engine.errors import EngineError, Message, Param

__all__ = ["engine_message", "error_message"]


def engine_message(err: EngineError | Message) -> str:
    """``err``'s message in the active language, or its English text if it cannot be translated.

    A template with no translation comes back in English (``gettext`` returns it as is); a
    translation that does not format with the params (a placeholder misspelt in the catalogue)
    falls back to ``str(err)`` rather than failing the request.
    """
    message = err.message if isinstance(err, EngineError) else err
    try:
        return _render(message)
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return str(err)


def error_message(exc: BaseException) -> str:
    """The message of any error a service turns into an ApplicationError: an engine error in the
    active language, anything else (a ``TypeError`` from bad JSON, say) as its own text."""
    return engine_message(exc) if isinstance(exc, EngineError) else str(exc)


def _render(message: Message) -> str:
    if not message.template:  # gettext("") is the catalogue's header
        return ""
    text = gettext(message.template)
    if not message.params:
        return text
    return text.format(**{name: _param(value) for name, value in message.params.items()})


def _param(value: Param) -> str | int | None:
    return _render(value) if isinstance(value, Message) else value
