"""Reading ``CREATE VIRTUAL TABLE … USING vec0(…)`` and ``… USING fts5(…)`` as the modules read them.

What a database *declares* decides what its numbers mean: ``1 - distance`` is a cosine similarity
only when the vector column says ``distance_metric=cosine``, and a full-text index answers for
``chunk_text`` only when it says ``content='chunk_text'``. A regex over the SQL is fooled by an
option in a comment or on another column, so the arguments are read the way SQLite hands them to
the module: comments dropped, split at the top-level commas.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

_CLOSING = {"'": "'", '"': '"', "`": "`", "[": "]"}


@dataclass(frozen=True)
class VectorColumn:
    """A vector column as declared in a vec0 table: ``embedding float[384] distance_metric=cosine``."""

    name: str
    element: str  # float, int8 or bit
    dims: int
    options: Mapping[str, str]


@dataclass(frozen=True)
class Fts5Declaration:
    """An fts5 table's columns (lower-cased, in order) and options (``content``, ``tokenize`` …)."""

    columns: tuple[str, ...]
    options: Mapping[str, str]


def module_arguments(sql: str, module: str) -> list[str] | None:
    """The arguments of ``CREATE VIRTUAL TABLE … USING module(…)``, comments dropped; ``None`` when
    ``sql`` does not create a table of that module."""
    text = _without_comments(sql)
    start = re.search(rf"\busing\s+{re.escape(module)}\s*\(", text, re.IGNORECASE)
    end = text.rfind(")")
    if start is None or end < start.end():
        return None
    return _split_arguments(text[start.end() : end])


def vec0_columns(sql: str) -> dict[str, VectorColumn] | None:
    """The vector columns of a ``CREATE VIRTUAL TABLE … USING vec0(…)`` statement, by name.

    ``None`` when ``sql`` does not create a vec0 table. Each vector column's options
    (``distance_metric=cosine``) belong to that column alone, the last of a repeated option wins,
    and names and values are compared lower-cased.
    """
    arguments = module_arguments(sql, "vec0")
    if arguments is None:
        return None
    columns: dict[str, VectorColumn] = {}
    for argument in arguments:
        # as sqlite-vec reads it: "float [ 4 ]" is "float[4]", "]" ends a word, "a = b" is "a=b"
        argument = re.sub(r"\s*\[\s*", "[", argument)
        argument = re.sub(r"\s*=\s*", "=", re.sub(r"\s*\]\s*", "] ", argument))
        words = argument.split()
        if len(words) < 2:
            continue
        kind = re.fullmatch(r"(float|f32|int8|i8|bit)\[(\d+)\]", words[1], re.IGNORECASE)
        if kind is None:
            continue
        name = words[0].lower()
        element = {"f32": "float", "i8": "int8"}.get(kind.group(1).lower(), kind.group(1).lower())
        options = dict(w.lower().split("=", 1) for w in words[2:] if "=" in w)
        columns[name] = VectorColumn(name, element, int(kind.group(2)), options)
    return columns


def fts5_declaration(sql: str) -> Fts5Declaration | None:
    """The columns and options of a ``CREATE VIRTUAL TABLE … USING fts5(…)`` statement.

    ``None`` when ``sql`` does not create an fts5 table. Option values are unquoted; a value that
    is a list of words (``tokenize``) keeps single spaces between its words, each unquoted.
    """
    arguments = module_arguments(sql, "fts5")
    if arguments is None:
        return None
    columns: list[str] = []
    options: dict[str, str] = {}
    for argument in arguments:
        key, eq, value = argument.partition("=")
        if eq:
            words = _split_words(value.strip())
            if len(words) == 1:  # 'porter unicode61 …': one quoted value holding a list of words
                words = _split_words(_unquote(words[0]))
            options[_unquote(key.strip()).lower()] = " ".join(_unquote(w) for w in words)
        else:
            words = _split_words(argument)
            columns.append(_unquote(words[0]).lower() + "".join(f" {w.lower()}" for w in words[1:]))
    return Fts5Declaration(tuple(columns), options)


def _unquote(word: str) -> str:
    if len(word) >= 2 and word[0] in _CLOSING and word[-1] == _CLOSING[word[0]]:
        inner = word[1:-1]
        return inner.replace(word[0] * 2, word[0]) if word[0] != "[" else inner
    return word


def _split_words(text: str) -> list[str]:
    """Words separated by whitespace outside quotes (a quoted word keeps its quotes)."""
    words: list[str] = []
    current: list[str] = []
    quote = ""
    for c in text:
        if quote:
            current.append(c)
            quote = "" if c == _CLOSING[quote] else quote
        elif c in _CLOSING:
            quote = c
            current.append(c)
        elif c.isspace():
            if current:
                words.append("".join(current))
                current = []
        else:
            current.append(c)
    if current:
        words.append("".join(current))
    return words


def _without_comments(sql: str) -> str:
    """``sql`` with ``-- …`` and ``/* … */`` comments replaced by a space (quotes respected)."""
    out: list[str] = []
    i, n = 0, len(sql)
    while i < n:
        c = sql[i]
        if c in _CLOSING:
            j = sql.find(_CLOSING[c], i + 1)
            j = n - 1 if j < 0 else j
            out.append(sql[i : j + 1])
            i = j + 1
        elif sql.startswith("--", i):
            j = sql.find("\n", i)
            i = n if j < 0 else j
            out.append(" ")
        elif sql.startswith("/*", i):
            j = sql.find("*/", i + 2)
            i = n if j < 0 else j + 2
            out.append(" ")
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _split_arguments(body: str) -> list[str]:
    """Split at commas outside quotes, brackets and parentheses."""
    parts: list[str] = []
    depth, quote = 0, ""
    current: list[str] = []
    for c in body:
        if quote:
            quote = "" if c == _CLOSING[quote] else quote
        elif c in _CLOSING:
            quote = c
        elif c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
        elif c == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(c)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]
