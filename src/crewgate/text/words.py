"""Words of a request or of a name, in any script: the unit of containment and of name lookup.

Text is folded with NFKC and casefold ("ＲＯＯＭ Ｂ" -> "room b", "Straße" -> "strasse"), without
the characters that are not seen (a zero-width space, a soft hyphen) and with a dash written for
a minus sign made "-" (:func:`clean`); a word is
a run of letters, digits and combining marks of any script ("café", "कमरा", "tb3"), so
underscores, hyphens, spaces and punctuation separate words ("room_b", "Room B" and "room-b" are
all "room b"). Digits glued to letters stay in their word ("TB3" is the word "tb3", no number).
Chinese and Japanese are written without spaces: each ideograph or kana is a word of its own, so
"会议室" (three words) is stated by "带狗去会议室". Other scripts written without spaces (Thai,
Khmer, ...) are read as runs: a name is stated where the request sets it off.

Bounds: a word is one character, or a run of characters of one class (or of two disjoint
classes), and nothing follows it in its expression: linear. A text's combining marks are found
once, among its distinct characters. The last texts folded are kept (each reader of a request
folds it).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import compress, count, repeat

_ASCII_WORD = re.compile(r"([a-z0-9]+)")
# ideographs (with the iteration and zero marks) and kana: one word per character
CJK = ("\u3005-\u3007\u3040-\u30ff\u31f0-\u31ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"
        "\U00020000-\U0003134f")


# A dash written for a minus sign ("x –2", "(−2, 3)", "[‐5, 5]"): a hyphen, non-breaking
# hyphen, figure dash, en dash or minus sign with a digit (or "." and a digit) after it and the
# start of the text, whitespace, an opening bracket or a separator before it. Between two
# digits ("3–7") a dash joins a range, and a dash set apart by spaces (" – ") ends a clause.
_MINUS = re.compile(r"(?:(?<=[\s(\[{,;:=/<>])|^)[\u2010-\u2013\u2212](?=\.?\d)")


# typographic apostrophes ("don’t"), read as the typewriter's, and the prime typed for one
# (an acute accent typed for one is made "'" before NFKC, which would make it a space and a
# combining accent glued to the "t")
_APOSTROPHES = frozenset("\u2018\u2019\u02bc\u2032")
_ASCII = frozenset(map(chr, range(128)))
# a negation typed without its apostrophe, or with another mark or a space in its place
# ("dont", "shouldnt", "cant", "don;t", "do n't", "donot"), as the apostrophe writes it: every
# reader of a negation reads it ("don't"). One pass, no repetition but the word's own letters.
_CONTRACTED_WORDS = (
    r"\b(do|does|did|is|are|was|were|has|have|had|should|would|could|must|need|might|ca|wo|sha)"
    r"(?:n[;:`]?t|\s+n't)\b|\b(donot)\b|\b(dnt)\b")
_CONTRACTED = re.compile(_CONTRACTED_WORDS, re.IGNORECASE)
# the same in a lower-cased ASCII text: a third of the case-blind pattern's time
_CONTRACTED_LOWER = re.compile(_CONTRACTED_WORDS)


# letters of the Cyrillic and Greek scripts drawn as Latin ones are, as the Latin letter, in a
# word that has Latin letters or digits too ("drоne" with a Cyrillic "о", "Dоn't", "ТВ3"): the
# word reads as it shows. A word of those scripts alone keeps its letters ("дом", "τοπος").
_LOOKALIKE = {
    **dict(zip("асеһіјԛорѕԝхуԁӏ", "acehijqopswxydl", strict=True)),
    **dict(zip("АВСЕНІЈКМОРЅТХУӀ", "ABCEHIJKMOPSTXYI", strict=True)),
    **dict(zip("ονριακυ", "ovpiaku", strict=True)),
    **dict(zip("ΑΒΕΖΗΙΚΜΝΟΡΤΥΧ", "ABEZHIKMNOPTYX", strict=True)),
    "\u0261": "g"}  # (Latin small script g)
_LOOKALIKES = str.maketrans(_LOOKALIKE)
_WORD_RUN = re.compile(r"\w+")


# a word spelled out letter by letter, the letters set apart by one space, hyphen or dot, the
# same throughout ("D o n ' t", "N-O-T", "n.o.t.", with the dot after the last letter): read
# as the word ("Don't"). Three letters at least (an apostrophe counts as one): "x y" and "a, b"
# stay. The guard is a cheaper pattern that every such run matches (two of its letters, set
# apart, after a separator), so a text without one is scanned once, quickly.
_LETTER = r"(?:[^\W\d_]|')"
_SPELLED = re.compile(rf"(?<![\w'])(?:{_LETTER}(?:\.{_LETTER}){{2,}}\.?"
                      rf"|{_LETTER}([ \-]){_LETTER}(?:\1{_LETTER})+)(?![\w'])")
_SPELLED_GUARD = re.compile(rf"[ .\-]{_LETTER}[ .\-]{_LETTER}")
_SPELLED_GUARD_ASCII = re.compile(r"[ .\-][a-zA-Z'][ .\-][a-zA-Z']")


def _joined(m: re.Match[str]) -> str:
    return m.group().replace(m.group(1) or ".", "")


def _spelled_joined(text: str, guard: re.Pattern[str]) -> str:
    """The text with each word spelled out letter by letter written as the word (linear: the
    guard and the pattern each scan the text once; a run's last letter is looked past once)."""
    return _SPELLED.sub(_joined, text) if guard.search(text) else text


# signs written for "no" ("Rover to x 2, y 3: \u274c", "\U0001f6ab room_b"): read as the word
# (set apart from a word it touches)
_NO_SIGNS = frozenset("\u274c\u2717\u2718\u26d4\U0001f6ab\U0001f44e\u2612")
_NO_SIGN = re.compile(f"[{''.join(sorted(_NO_SIGNS))}]")


def _no_word(m: re.Match[str]) -> str:
    text, start, end = m.string, m.start(), m.end()
    before = " " if start and (text[start - 1].isalnum() or text[start - 1] == "_") else ""
    after = " " if end < len(text) and (text[end].isalnum() or text[end] == "_") else ""
    return f"{before}no{after}"


def _as_shown(m: re.Match[str]) -> str:
    word = m.group()
    if _LOOKALIKE.keys().isdisjoint(word) or not any(c.isascii() for c in word):
        return word
    return word.translate(_LOOKALIKES)


def _contraction(m: re.Match[str]) -> str:
    if m.group(1) is not None:
        return f"{m.group(1)}n't"
    return "do not" if m.group(2) is not None else "don't"


def _uncontracted(text: str) -> str:
    """An ASCII text with ``_CONTRACTED`` written out: found in the text lower-cased (the same
    length, the same word boundaries), the stem kept as the text writes it."""
    out: list[str] = []
    last = 0
    for m in _CONTRACTED_LOWER.finditer(text.lower()):
        stem = m.start(1)
        out += (text[last:m.start()], f"{text[stem:m.end(1)]}n't" if stem >= 0 else (
            "do not" if m.start(2) >= 0 else "don't"))
        last = m.end()
    if not out:
        return text
    out.append(text[last:])
    return "".join(out)


@lru_cache(maxsize=32)
def clean(text: str) -> str:
    """The text as it reads: NFKC ("，" -> ",", "５" -> "5"), without the characters that are
    written but not seen (Unicode's format characters: zero-width spaces and joiners, soft
    hyphens, direction marks, byte order marks), with a typographic apostrophe made "'", a
    dash written for a minus sign made "-", a Cyrillic or Greek letter drawn as a Latin one
    made that letter in a word of Latin letters or digits (``_LOOKALIKE``), a sign written for
    "no" made the word (``_NO_SIGNS``), a word spelled out letter by letter written as the word
    (``_SPELLED``: "D o n ' t" -> "Don't"), and a negation typed without its apostrophe written
    with it (``_CONTRACTED``: "dont" -> "don't"). An ASCII text needs only the last two.
    (Linear: one normalization, the distinct characters looked at once, one translation, two
    patterns, one with a one-character lookbehind. The last texts cleaned are kept: each reader
    of a request cleans it.)"""
    if text.isascii():
        return _uncontracted(_spelled_joined(text, _SPELLED_GUARD_ASCII))
    text = unicodedata.normalize("NFKC", text.replace("\u00b4", "'"))
    chars = set(text).difference(_ASCII)  # (every format character and apostrophe is not)
    table: dict[int, str | None] = {ord(c): None for c in chars
                                    if unicodedata.category(c) == "Cf"}
    table.update((ord(c), "'") for c in _APOSTROPHES.intersection(chars))
    if table:
        text = text.translate(table)
    if not _NO_SIGNS.isdisjoint(chars):
        text = _NO_SIGN.sub(_no_word, text)
    text = _spelled_joined(text, _SPELLED_GUARD)  # (before a lone look-alike: "D о n ' t")
    if not _LOOKALIKE.keys().isdisjoint(chars):
        text = _WORD_RUN.sub(_as_shown, text)
    return _CONTRACTED.sub(_contraction, _MINUS.sub("-", text))


@lru_cache(maxsize=32)
def fold(text: str) -> str:
    """:func:`clean`, then casefold and NFKC again (idempotent: folding a folded text changes
    nothing)."""
    if text.isascii():
        return clean(text).lower()
    folded = unicodedata.normalize("NFKC", clean(text).casefold())
    if not _LOOKALIKE.keys().isdisjoint(folded):  # a look-alike casefolding made ("0\u0345":
        folded = _WORD_RUN.sub(_as_shown, folded)  # "0ι", read as "0i" by clean)
    return folded


@lru_cache(maxsize=32)
def marks(folded: str) -> str:
    """The combining marks a text uses (its non-ASCII characters of category M), sorted: they
    are part of words although Python's ``\\w`` leaves them out ("कमरा" ends with one)."""
    if folded.isascii():
        return ""
    return "".join(sorted(c for c in set(folded)
                          if not c.isascii() and unicodedata.category(c).startswith("M")))


@lru_cache(maxsize=64)
def word_pattern(mark_chars: str) -> re.Pattern[str]:
    """Words (for a text without underscores), as one group: an ideograph or a kana, or a run
    of other word characters (``\\w``) and these marks."""
    return re.compile(rf"([{CJK}]|{continuing(mark_chars)}+)")


def continuing(mark_chars: str) -> str:
    """A pattern for one character that continues a word (a word character, or one of these
    marks, that is no ideograph or kana: those are words of their own)."""
    other = rf"[^\W{CJK}]"
    return rf"(?:{other}|[{re.escape(mark_chars)}])" if mark_chars else other


def _prepared(text: str) -> tuple[re.Pattern[str], str]:
    """The word pattern for a text (one group: the word), and the text folded (underscores
    made spaces)."""
    folded = fold(text)
    if folded.isascii():
        return _ASCII_WORD, folded
    bare = folded.replace("_", " ")
    return word_pattern(marks(bare)), bare


def words(text: str) -> tuple[str, ...]:
    """The folded words of a text, in order."""
    pattern, bare = _prepared(text)
    return tuple(pattern.findall(bare))


def read_words(text: str) -> tuple[tuple[str, ...], frozenset[int]]:
    """The words of a request, and the indices of the words followed by punctuation (anything
    but spaces, tabs, "_" and "-"): a noun phrase cannot run on past them ("red cube -> room_b",
    "dropoff, then")."""
    found, seps = word_stream(text)
    inner = seps[:-1]  # inner[i] separates word i from word i + 1
    return found, frozenset(compress(count(), map(str.strip, inner, repeat(" \t_-"))))


def breaks(text: str) -> frozenset[int]:
    """Indices of the words followed by punctuation (see :func:`read_words`)."""
    return read_words(text)[1]


@lru_cache(maxsize=32)
def word_stream(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The words of a text and what separates them: ``seps[i]`` is the text between word ``i``
    and word ``i + 1`` (the last one is what follows the last word), folded like the words.
    The last texts split are kept (a request's reading of its words and of its facts split it
    alike)."""
    pattern, bare = _prepared(text)
    parts = pattern.split(bare)  # [separator, word, separator, ..., word, separator]
    return tuple(parts[1::2]), tuple(parts[2::2])
