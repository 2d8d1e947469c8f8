"""Which words of a text to mark as the words a search looked for. No Qt.

The keyword search matches stems (FTS5's porter tokenizer: "justified" finds "justifieth" and
"justification"); marking them again in what is shown needs no database: a word of the text is marked
when its light stem equals a searched word's (the common English endings and the KJV's "-eth", "-est"
removed, accents folded). It marks a little less than the index matched (no full Porter rules), never a
word the search did not look for.
"""

from __future__ import annotations

import html
import re
from collections.abc import Iterable

from ..understand.query import fold

_WORD = re.compile(r"[^\W_]+(?:['’][^\W_]+)?")
#: ``(ending, replacement)``, longest first: the first that leaves a stem of three letters or more is replaced
_ENDINGS = (("ication", "i"), ("ations", ""), ("ation", ""), ("ingly", ""), ("ness", ""), ("ings", ""), ("ing", ""),
            ("eth", ""), ("est", ""), ("ies", "i"), ("ied", "i"), ("ed", ""), ("es", ""), ("ly", ""), ("s", ""))


def stem(word: str) -> str:
    """``"Justifieth"`` → ``"justifi"``; ``"loved"`` → ``"lov"`` (the same stem for a word's forms)."""
    w = fold(word).lower().replace("’", "'").split("'")[0]
    for ending, replacement in _ENDINGS:
        if w.endswith(ending) and len(w) - len(ending) >= 3:
            w = w[: -len(ending)] + replacement
            break
    if w.endswith("e") and len(w) > 3:
        w = w[:-1]
    return w.replace("y", "i")


def spans(text: str, words: Iterable[str]) -> list[tuple[int, int]]:
    """``(start, end)`` of each word of ``text`` whose stem is one of ``words``' stems, in order."""
    wanted = {stem(w) for w in words if w.strip()}
    if not wanted:
        return []
    return [(m.start(), m.end()) for m in _WORD.finditer(text) if stem(m.group(0)) in wanted]


def marked(text: str, words: Iterable[str], before: str, after: str) -> str:
    """``text`` escaped for HTML, each searched word wrapped in ``before`` … ``after`` (markup, not escaped)."""
    out, at = [], 0
    for start, end in spans(text, words):
        out += [html.escape(text[at:start]), before, html.escape(text[start:end]), after]
        at = end
    out.append(html.escape(text[at:]))
    return "".join(out)


def tip(text: str, words: Iterable[str], facts: str = "") -> str:
    """A tooltip: ``text``, then ``facts`` on a line of their own — rich text with the searched words of
    ``text`` in bold when it holds some, plain text otherwise (as every other tooltip)."""
    wanted = [w for w in words if w.strip()]
    if not spans(text, wanted):
        return "\n".join(x for x in (text, facts) if x)
    body = marked(text, wanted, "<b>", "</b>").replace("\n", "<br>")
    return f"<qt>{body}" + (f"<br>{html.escape(facts)}" if facts else "") + "</qt>"
