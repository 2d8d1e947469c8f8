"""How a word sounds, for comparing the spellings of one name or one transliterated word.

The library spells the same Hebrew or Greek word or name several ways: Strong's writes חסד as *chêsêd* where a
reader types *hesed*; the WEB has *Melchizedek*, the KJV *Melchisedec*, Matthew Henry *Melchizedec*; Strong's
writes תּוֹרָה *tôwrâh* where a reader types *torah*. :func:`sound_key` maps each spelling to one key by the
conventions transliterations differ in — diacritics, *ch*/*kh*/*h* for ח, *c*/*k*/*q*, *z*/*s*, *ph*/*f*, *th*/*t*,
*ow*/*o*, *iy*/*y*/*i*, *ae*/*oe*/*e*, doubled letters — so that two spellings of one word meet. It is for rare
words only (names, transliterations): common English words with one key ("seal", "zeal") are kept apart by the
callers, which compare keys only for a word that is rare in the library or a dictionary headword's transliteration.
Pure.
"""

from __future__ import annotations

import re

from .query import fold

#: the rewrites, in order (after folding diacritics and dropping what is not a letter)
_REWRITES: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(a), b) for a, b in (
    (r"ph", "f"),
    (r"th", "t"),
    (r"[kc]h", "h"),  # ח: chesed, khesed, hesed
    (r"ck|c|q", "k"),  # Melchizedec, Melchizedek; tsedaqah, tsedakah
    (r"tz|ts|z", "s"),  # Melchisedec; tzedakah, tsedaqah
    (r"ow", "o"),  # towrah, torah
    (r"iy|y", "i"),  # chaggiyth
    (r"ae|oe", "e"),  # Greek names in Latin letters: Zacchaeus, Zaccheus; Phoebe, Phebe; Judaea, Judea
    (r"(.)\1+", r"\1"),  # shabbath, shabat
))
_NOT_LETTER = re.compile(r"[^a-z]")
#: letters folding leaves whole ("Judæa" is no "Juda")
_LIGATURES = str.maketrans({"æ": "ae", "œ": "oe", "ß": "ss", "ø": "o", "ð": "d", "þ": "th"})
#: the shortest key compared: shorter keys ("sin", "zin") meet too many other words
MIN_KEY = 4


def sound_key(word: str) -> str:
    """``word``'s key: spellings of one transliterated word or name share it ("chêsêd" and "hesed" → "hesed";
    "Melchizedek", "Melchisedec" and "Melchizedec" → "melhisedek")."""
    key = _NOT_LETTER.sub("", fold(word).translate(_LIGATURES))
    for pattern, replacement in _REWRITES:
        key = pattern.sub(replacement, key)
    return key


def same_word(a: str, b: str) -> bool:
    """Whether ``a`` and ``b`` are spellings of one word: equal once folded, or — for keys of at least
    :data:`MIN_KEY` letters — the same :func:`sound_key`."""
    if fold(a) == fold(b):
        return True
    key = sound_key(a)
    return len(key) >= MIN_KEY and key == sound_key(b)
