"""SWORD entry markup (OSIS, TEI, ThML, GBF) → clean plain text, and Strong's tags of a verse.

The rules that matter for clean text:

* a dropped element (a footnote, a cross-reference note, a heading) leaves a *soft space*: it
  becomes a space only when there is no whitespace or punctuation beside it, so
  ``God<note>…</note><w>created</w>`` reads "God created" (never "Godcreated") and
  ``God<note>…</note>,`` reads "God,";
* inline elements (``w``, ``hi``, ``transChange``, ``q``, ``reference``, ``foreign``…) keep their
  text and add nothing;
* block elements (``div`` paragraphs, ``lb``, ``l``, ``item``, ``p``, ``br``) become line breaks;
  paragraphs survive as blank lines so callers can split long notes on them.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

_TOKEN = re.compile(r"<!--.*?-->|<(/?)([A-Za-z][\w:.-]*)((?:[^>\"']|\"[^\"]*\"|'[^']*')*?)(/?)>|([^<]+|<)", re.S)
_ATTR = re.compile(r"([\w:.-]+)\s*=\s*(\"[^\"]*\"|'[^']*')")

SOFT = "\x01"
PARA = "\x02"
LINE = "\x03"

#: elements whose whole content is dropped (with a soft space) unless asked to keep it.
DROP_DEFAULT = frozenset({"note", "rdg", "title", "milestone", "scripRef_hidden"})
#: elements that end a line.
_LINE_TAGS = frozenset({"lb", "l", "br", "item", "row", "cell", "lg", "list", "entryfree", "def", "orth", "pron"})
#: elements that end a paragraph.
_PARA_TAGS = frozenset({"p", "div", "chapter", "table", "head"})

_PUNCT_AFTER = set(",.;:!?)]}’”'\"…»")
_PUNCT_BEFORE = set("([{“‘«")


def attrs(text: str) -> dict[str, str]:
    return {k: v[1:-1] for k, v in _ATTR.findall(text or "")}


@dataclass(frozen=True)
class Token:
    """A word of a verse and the Strong's numbers it carries (``("G1344",)``), possibly none."""

    text: str
    strongs: tuple[str, ...]


def normalise_strongs(value: str) -> str | None:
    """``"strong:G0025"``, ``"G25"``, ``"H0430"`` → ``"G25"`` / ``"H430"``; ``None`` if not Strong's."""
    m = re.fullmatch(r"(?:strong:)?([GH])0*(\d+)[a-z]?", value.strip(), re.I)
    if not m:
        return None
    return f"{m.group(1).upper()}{int(m.group(2))}"


def _finish(parts: list[str]) -> str:
    text = "".join(parts)
    text = text.replace("\xa0", " ").replace("\r", "")
    text = re.sub(r"[ \t\n]+", " ", text)
    # Paragraph/line breaks collapse into the strongest one in a run.
    text = re.sub(r"[ \x01]*([\x02\x03][\x01\x02\x03 ]*)", lambda m: PARA if PARA in m.group(1) else LINE, text)
    # A soft space vanishes beside whitespace, breaks, punctuation that hugs words, or an edge.
    text = re.sub(r"\x01+", SOFT, text)
    out = []
    for i, ch in enumerate(text):
        if ch != SOFT:
            out.append(ch)
            continue
        before = out[-1] if out else ""
        after = text[i + 1] if i + 1 < len(text) else ""
        if (not before or not after or before in " \x02\x03" or after in " \x02\x03\x01"
                or after in _PUNCT_AFTER or before in _PUNCT_BEFORE):
            continue
        out.append(" ")
    text = "".join(out)
    text = re.sub(r" +([,.;:!?])(?=\s|$)", r"\1", text)  # "word ," left by sloppy sources
    text = re.sub(r" {2,}", " ", text)
    paragraphs = []
    for para in text.split(PARA):
        lines = [ln.strip() for ln in para.split(LINE)]
        para = "\n".join(ln for ln in lines if ln)
        if para:
            paragraphs.append(para)
    return "\n\n".join(paragraphs)


def to_text(markup: str, *, drop: frozenset[str] | set[str] = DROP_DEFAULT,
            keep_titles: bool = False) -> str:
    """Plain text of an OSIS/TEI/ThML entry (paragraphs separated by blank lines).

    ``drop`` names elements whose content is removed; ``keep_titles`` keeps headings' text as
    their own paragraphs.
    """
    drop_set = {d.lower() for d in drop}
    if keep_titles:
        drop_set.discard("title")
    parts: list[str] = []
    skip: list[str] = []  # stack of dropped element names we are inside
    for m in _TOKEN.finditer(markup):
        closing, name, attr_text, selfclose, text = m.groups()
        if text is not None:
            if not skip:
                parts.append(html.unescape(text) if "&" in text else text)
            continue
        if name is None:  # a comment
            continue
        lname = name.lower()
        if skip:
            if lname == skip[-1] and not selfclose:
                if closing:
                    skip.pop()
                    if not skip:
                        parts.append(SOFT)
                else:
                    skip.append(lname)
            continue
        if lname in drop_set and not closing and not selfclose:
            skip.append(lname)
            continue
        if lname in drop_set:
            parts.append(SOFT)
            continue
        if lname == "title" and keep_titles:
            parts.append(PARA)
            continue
        if lname in _PARA_TAGS:
            # OSIS milestones like <div type="x-milestone" .../> mark no paragraph.
            a = attrs(attr_text)
            if lname == "div" and a.get("type", "").startswith("x-milestone"):
                parts.append(SOFT)
            else:
                parts.append(PARA)
            continue
        if lname in _LINE_TAGS:
            parts.append(LINE)
            continue
        # Inline element: keeps its text, adds nothing. (w, hi, q, transChange, reference,
        # foreign, seg, name, orig, ref, emph, a, b, i, font …)
    return _finish(parts)


def verse_tokens(markup: str) -> tuple[str, list[Token]]:
    """A verse's plain text and its words with Strong's numbers (OSIS ``<w lemma="strong:…">``).

    Words outside any ``<w>`` element (punctuation aside) come back with no numbers.
    """
    tokens: list[Token] = []
    skip: list[str] = []
    current: list[str] | None = None
    current_strongs: tuple[str, ...] = ()
    for m in _TOKEN.finditer(markup):
        closing, name, attr_text, selfclose, text = m.groups()
        if text is not None:
            if skip:
                continue
            if current is not None:
                current.append(html.unescape(text))
            else:
                for word in re.findall(r"[\w’'-]+", html.unescape(text)):
                    tokens.append(Token(word, ()))
            continue
        if name is None:
            continue
        lname = name.lower()
        if skip:
            if lname == skip[-1] and not selfclose:
                if closing:
                    skip.pop()
                else:
                    skip.append(lname)
            continue
        if lname in DROP_DEFAULT and not closing and not selfclose:
            skip.append(lname)
            continue
        if lname == "w":
            if closing:
                if current is not None:
                    word = "".join(current).strip()
                    if word:
                        tokens.append(Token(word, current_strongs))
                current = None
            elif not selfclose:
                current = []
                lemmas = attrs(attr_text).get("lemma", "")
                nums = [normalise_strongs(x) for x in lemmas.split()]
                current_strongs = tuple(dict.fromkeys(n for n in nums if n))
    return to_text(markup), tokens
