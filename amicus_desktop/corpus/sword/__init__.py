"""Small readers of the SWORD module formats the project's data comes from.

Written here rather than taken from pysword, which refuses commentaries, has no dictionary reader
and glues words together where it strips notes. See :mod:`.zverse`, :mod:`.zld`, :mod:`.markup`,
:mod:`.versification` and :mod:`.conf`.
"""

from .conf import ModuleConf, ModuleNotInstalled, find_module
from .markup import Token, normalise_strongs, to_text, verse_tokens
from .versification import KJV, NRSVA, Versification, get_versification
from .zld import ZLDModule
from .zverse import SwordFormatError, VerseEntry, ZVerseModule

__all__ = [
    "KJV",
    "NRSVA",
    "ModuleConf",
    "ModuleNotInstalled",
    "SwordFormatError",
    "Token",
    "VerseEntry",
    "Versification",
    "ZLDModule",
    "ZVerseModule",
    "find_module",
    "get_versification",
    "normalise_strongs",
    "to_text",
    "verse_tokens",
]
