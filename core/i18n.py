"""Engine messages in the user's language.

The engine is pure Python and speaks English: each :class:`~engine.errors.EngineError` carries an
English template (marked with ``gettext_noop`` so that ``makemessages`` puts it in the catalogue)
and the params that fill it. Here the template is looked up in the active language's catalogue
and formatted with the same params; a param that is itself a message (a word such as "knocker",
or the reason from an inner error) is translated the same way first.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext, gettext_noop

from engine.errors import EngineError, Message, Param, sentence

__all__ = [
    "KNOCK_LIMIT_INPUT",
    "KNOCK_LIMIT_WORDS",
    "RULE_SET_NAMES",
    "engine_message",
    "error_message",
    "final_sound",
    "knock_limit_input",
    "knock_limit_key",
    "knock_limit_text",
    "particle",
    "rules_name",
    "with_particles",
]


def engine_message(err: EngineError | Message) -> str:
    """``err``'s message in the active language, or its English text if it cannot be translated.

    A template with no translation comes back in English (``gettext`` returns it as is); a
    translation that does not format with the params (a placeholder misspelt in the catalogue)
    falls back to ``str(err)`` rather than failing the request.
    """
    message = err.message if isinstance(err, EngineError) else err
    try:
        text = with_particles(_render(message))
    except (KeyError, IndexError, ValueError, AttributeError, TypeError):
        return str(err)
    # A refusal is a sentence and starts with a capital, whatever placeholder opens it.
    return sentence(text) if isinstance(err, EngineError) else text


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


# --- Korean particles -------------------------------------------------------------------------
#
# A Korean particle depends on the sound the word before it ends with: 이/가, 은/는, 을/를, 과/와
# and 이에요/예요 take their first form after a final consonant (batchim) and the second after a
# vowel; 으로/로 takes 로 after a vowel *or* after ㄹ. Placeholders are filled at run time, so the
# catalogue writes the conventional fallback ("{card}이(가)", "%(who)s이(가)", "{n}(으)로",
# "%(name)s(이)라는") and :func:`with_particles` picks the right form once the text is formatted.
#
# How a word's end is read (``final_sound``), the last readable character deciding:
#
# * a Hangul syllable: its batchim, from the code point ((code - 0xAC00) % 28; 0 is none, 8 is ㄹ);
# * a digit, by its Sino-Korean reading: 0 영, 1 일(ㄹ), 2 이, 3 삼, 4 사, 5 오, 6 육, 7 칠(ㄹ),
#   8 팔(ㄹ), 9 구; a number ending in zeros by its last unit: 10 십, 100 백, 1000 천, 10000 만
#   (and 억 from 10^8, 조 from 10^12), so "20" is 이십 (consonant) and "0" alone is 영;
# * a Latin letter, as Koreans read loanwords and letter names alike: l ends in ㄹ (엘, 폴),
#   m, n and a final "ng" in a consonant (엠, 엔, 댄, 킹); every other letter in a vowel, since
#   letter names end in one (에스, 티, 케이) and final stops are written with ㅡ (마크, 테드). So
#   "Bao가", "Dan이", "Paul로", "AS가", "MP는";
# * anything else (a closing quote or bracket, punctuation, spaces) is skipped; a word with no
#   readable end (empty, or another script) keeps both forms, e.g. "이(가)".

_HANGUL_FIRST, _HANGUL_LAST = 0xAC00, 0xD7A3
_RIEUL = 8  # the batchim index of ㄹ
_DIGIT_CODA = {"0": "ㅇ", "1": "ㄹ", "2": "", "3": "ㅁ", "4": "", "5": "", "6": "ㄱ", "7": "ㄹ"}
_DIGIT_CODA |= {"8": "ㄹ", "9": ""}
_ZEROS_CODA = {1: "ㅂ", 2: "ㄱ", 3: "ㄴ"}  # 십, 백, 천; 만 (4-7 zeros), 억 (8-11), 조 (12+)
_PAIRS: dict[str, tuple[str, str]] = {
    "이/가": ("이", "가"),
    "은/는": ("은", "는"),
    "을/를": ("을", "를"),
    "과/와": ("과", "와"),
    "으로/로": ("으로", "로"),
    "이에요/예요": ("이에요", "예요"),
    "이라는/라는": ("이라는", "라는"),
    "이/": ("이", ""),
}
# The fallbacks translators write, each with the pair it stands for.
_FALLBACKS: dict[str, str] = {
    "이(가)": "이/가",
    "가(이)": "이/가",
    "은(는)": "은/는",
    "는(은)": "은/는",
    "을(를)": "을/를",
    "를(을)": "을/를",
    "과(와)": "과/와",
    "와(과)": "과/와",
    "(으)로": "으로/로",
    "(이)": "이/",
}
_FALLBACK = re.compile("|".join(re.escape(f) for f in _FALLBACKS))


def final_sound(word: str) -> str | None:
    """The consonant ``word`` ends with when read in Korean ("" for a vowel, "ㄹ" for ㄹ, another
    jamo or "C" for any other consonant), or ``None`` when its end cannot be read."""
    for index in range(len(word) - 1, -1, -1):
        char = word[index]
        code = ord(char)
        if _HANGUL_FIRST <= code <= _HANGUL_LAST:
            coda = (code - _HANGUL_FIRST) % 28
            return "" if coda == 0 else "ㄹ" if coda == _RIEUL else "C"
        if char.isascii() and char.isdigit():
            return _number_coda(word[: index + 1])
        if char.isascii() and char.isalpha():
            lower = word[: index + 1].lower()
            if lower.endswith("l"):
                return "ㄹ"
            if lower.endswith(("m", "n", "ng")):
                return "C"
            return ""
        if char.isalnum():  # another script: its sound is not known here
            return None
    return None


def _number_coda(text: str) -> str:
    digits = re.search(r"[0-9]+$", text)
    number = digits.group(0) if digits else text[-1]
    stripped = number.rstrip("0")
    if not stripped:
        return "C"  # 영
    zeros = len(number) - len(stripped)
    if zeros == 0:
        coda = _DIGIT_CODA[number[-1]]
    elif zeros in _ZEROS_CODA:
        coda = _ZEROS_CODA[zeros]
    else:
        coda = "ㄴ" if zeros < 8 else "ㄱ" if zeros < 12 else ""
    return "ㄹ" if coda == "ㄹ" else "C" if coda else ""


def particle(word: str, pair: str) -> str:
    """``word`` followed by the form of ``pair`` ("이/가", "은/는", "을/를", "과/와", "으로/로",
    "이에요/예요") its final sound takes; both forms ("이(가)") when the end cannot be read."""
    try:
        after_consonant, after_vowel = _PAIRS[pair]
    except KeyError:
        raise ValueError(f"unknown particle pair {pair!r}; one of {sorted(_PAIRS)}") from None
    return word + _choose(final_sound(word), after_consonant, after_vowel)


def _choose(sound: str | None, after_consonant: str, after_vowel: str) -> str:
    if sound is None:
        if not after_vowel:
            return f"({after_consonant})"
        if after_consonant.endswith(after_vowel):  # 으로/로 -> (으)로
            return f"({after_consonant[: -len(after_vowel)]}){after_vowel}"
        return f"{after_consonant}({after_vowel})"
    if sound == "" or (sound == "ㄹ" and after_consonant == "으로"):
        return after_vowel
    return after_consonant


def with_particles(text: str) -> str:
    """``text`` with each fallback particle ("이(가)", "(으)로", "(이)" ...) replaced by the form
    the word before it takes: "Bao이(가) 입력했습니다" -> "Bao가 입력했습니다". Text without
    fallbacks (any English text) comes back unchanged."""
    if "(" not in text:
        return text
    out: list[str] = []
    start = 0
    for match in _FALLBACK.finditer(text):
        before = text[: match.start()]
        sound = final_sound(before[-40:])
        if sound is None or before[-1:].isspace() or not before:
            continue
        after_consonant, after_vowel = _PAIRS[_FALLBACKS[match.group(0)]]
        out.append(text[start : match.start()])
        out.append(_choose(sound, after_consonant, after_vowel))
        start = match.end()
    out.append(text[start:])
    return "".join(out)


# --- rule sets and their parameters, for display ------------------------------------------------
#
# A rule set is stored by its preset's key ("standard", "three-box"); pages show its name in the
# reader's language. A knock limit is a number of points, or a word saying where it comes from.

RULE_SET_NAMES: dict[str, str] = {
    "standard": gettext_noop("Standard"),
    "classic": gettext_noop("Classic"),
    "modern": gettext_noop("Modern"),
    "online-table": gettext_noop("Online table"),
    "oklahoma": gettext_noop("Oklahoma"),
    "hollywood": gettext_noop("Hollywood"),
    "three-box": gettext_noop("Three boxes"),
    "partnership": gettext_noop("Partnership"),
    "gem": gettext_noop("Gem Rummy"),
    "rummy": gettext_noop("Rummy"),
    "custom": gettext_noop("Custom"),
}
KNOCK_LIMIT_WORDS: dict[str, str] = {
    "upcard": gettext_noop("set by the upcard"),
    "dice": gettext_noop("set by the dice"),
}


def rules_name(name: str) -> str:
    """The rule set ``name`` (a preset key) in the active language; an unknown one as it is."""
    template = RULE_SET_NAMES.get(name)
    return gettext(template) if template else name


def knock_limit_text(value: object) -> str:
    """A knock limit as read: its points, or where it comes from ("set by the upcard")."""
    if isinstance(value, str) and value in KNOCK_LIMIT_WORDS:
        return gettext(KNOCK_LIMIT_WORDS[value])
    return str(value)


# A director types a knock limit as points or as the word for where it comes from: the English
# key ("upcard") or its name in the reader's language ("업카드") are both understood.
KNOCK_LIMIT_INPUT: dict[str, str] = {"upcard": gettext_noop("Upcard"), "dice": gettext_noop("Dice")}


def knock_limit_input(value: object) -> object:
    """A stored knock limit as the form shows it: "upcard" as the reader's word for it."""
    if isinstance(value, str) and value in KNOCK_LIMIT_INPUT:
        return gettext(KNOCK_LIMIT_INPUT[value]).lower()
    return value


def knock_limit_key(text: str) -> str:
    """What a director typed for a knock limit, with a word for upcard or dice made its key."""
    folded = text.strip().casefold()
    for key, label in KNOCK_LIMIT_INPUT.items():
        if folded in (key, gettext(label).casefold(), label.casefold()):
            return key
    return text
