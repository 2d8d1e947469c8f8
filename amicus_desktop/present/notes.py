"""Every sentence the window shows about the reader's notes and workspaces, and a note's text as rich
text. No Qt.

**A note's formatting** is a small, safe subset of Markdown: paragraphs (a blank line), line breaks,
``**bold**``, ``*italic*`` or ``_italic_``, ```code```, ``# headings``, ``- `` or ``* `` bullet lists,
``1.`` numbered lists and ``> `` quotations. :func:`note_html` escapes the whole text *first* and only
then adds the few tags of that subset: nothing the reader (or an imported file) wrote is ever read as
HTML — ``<script>``, ``<img src=…>`` or a link show as the characters typed. No links, no images, no
tables: a note is read, not browsed.
"""

from __future__ import annotations

import html
import re

from ..core.names import Names
from ..core.references import PassageRef
from ..core.results import ChunkMetadata
from ..notes import Note
from .sentences import shorten

#: "My notes": the reader's own notes as a kind of source (the filter bar).
MY_NOTES = "My notes"
SNIPPET_CHARS = 90

_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")
_ITALIC = re.compile(r"(?<![\w*])\*(?=\S)(.+?)(?<=\S)\*(?![\w*])|(?<![\w_])_(?=\S)(.+?)(?<=\S)_(?![\w_])")
_CODE = re.compile(r"`([^`]+)`")
_HEADING = re.compile(r"^(#{1,3})\s+(.*)$")
_BULLET = re.compile(r"^\s*[-*]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d{1,3}[.)]\s+(.*)$")
_QUOTE = re.compile(r"^\s*&gt;\s?(.*)$")


def _inline(escaped: str) -> str:
    """Bold, italic and code in one line of already escaped text."""
    parts = _CODE.split(escaped)
    out = []
    for i, part in enumerate(parts):
        if i % 2:  # inside backticks: as typed
            out.append(f"<code>{part}</code>")
            continue
        part = _BOLD.sub(r"<b>\1</b>", part)
        part = _ITALIC.sub(lambda m: f"<i>{m.group(1) or m.group(2)}</i>", part)
        out.append(part)
    return "".join(out)


def note_html(text: str) -> str:
    """``text`` as rich text in the safe subset of the module docstring (escaped first)."""
    blocks: list[str] = []
    items: list[str] = []
    kind = ""
    para: list[str] = []

    def close_para() -> None:
        if para:
            blocks.append("<p>" + "<br>".join(_inline(x) for x in para) + "</p>")
            para.clear()

    def close_list() -> None:
        nonlocal kind
        if items:
            tag = "ol" if kind == "ol" else "ul"
            blocks.append(f"<{tag}>" + "".join(f"<li>{_inline(x)}</li>" for x in items) + f"</{tag}>")
            items.clear()
        kind = ""

    for raw in html.escape(text.replace("\r\n", "\n"), quote=True).split("\n"):
        line = raw.rstrip()
        heading, bullet, numbered, quote = (_HEADING.match(line), _BULLET.match(line), _NUMBERED.match(line),
                                            _QUOTE.match(line))
        if not line.strip():
            close_para()
            close_list()
        elif heading:
            close_para()
            close_list()
            level = len(heading.group(1)) + 2  # h3..h5: a note's heading is not the window's
            blocks.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif bullet or numbered:
            close_para()
            wanted = "ul" if bullet else "ol"
            if kind and kind != wanted:
                close_list()
            kind = wanted
            items.append((bullet or numbered).group(1))  # type: ignore[union-attr]
        elif quote:
            close_para()
            close_list()
            blocks.append(f"<blockquote>{_inline(quote.group(1))}</blockquote>")
        else:
            close_list()
            para.append(line)
    close_para()
    close_list()
    return "".join(blocks)


def plain_snippet(text: str, limit: int = SNIPPET_CHARS) -> str:
    """A note's first words on one line, without its formatting marks."""
    flat = " ".join(re.sub(r"^\s*(#{1,3}|[-*>]|\d{1,3}[.)])\s+", "", line) for line in text.splitlines())
    flat = re.sub(r"\*\*|__|`|(?<!\w)[*_](?=\S)|(?<=\S)[*_](?!\w)", "", flat)
    return shorten(" ".join(flat.split()), limit)


def where(note: Note, names: Names) -> str:
    """The passage a note is on ("Romans 9:11"), or "no passage"."""
    return where_ref(note.ref, names) or "no passage"


def where_ref(ref: PassageRef | None, names: Names) -> str:
    if ref is None:
        return ""
    meta = ChunkMetadata(book_id=ref.book_id, chapter_num=ref.chapter, verse_start=ref.verse_start,
                         verse_end=ref.verse_end)
    return names.reference(meta)


def verse_label(note: Note) -> str:
    """Where a note sits in its chapter: ``v. 11``, ``v. 11–13``, or ``Chapter``."""
    r = note.ref
    if r is None or r.verse_start is None:
        return "Chapter"
    return f"v. {r.verse_start}" if r.verse_end in (None, r.verse_start) else f"v. {r.verse_start}–{r.verse_end}"


def mark_tooltip(notes: tuple[Note, ...], names: Names) -> str:
    """The margin mark's words: which notes of the reader start at this verse."""
    heads = [f"Your note on {where(n, names)}: {plain_snippet(n.text, 70)}" for n in notes[:3]]
    more = f"\n… and {len(notes) - 3} more" if len(notes) > 3 else ""
    return "\n".join(heads) + more


def chapter_heading(label: str, count: int) -> str:
    """``My notes on Romans 9 (3)``; without a chapter label, the short form ``My notes (3)``."""
    return f"My notes on {label} ({count})" if label else f"My notes ({count})"


def list_heading(total: int, shown: int, query: str) -> str:
    """``12 notes``; ``3 of 12 notes match “grace”``; the list shows at most some."""
    noun = "note" if total == 1 else "notes"
    if query.strip():
        text = f"{total} {noun} match “{shorten(query.strip(), 40)}”"
    else:
        text = f"{total} {noun} in this workspace"
    return text + (f" (the first {shown} shown)" if shown < total else "")


def short_list_heading(total: int, query: str) -> str:
    """The list's heading for a narrow pane: ``3 match``, ``12 notes``."""
    return f"{total} match" if query.strip() else f"{total} note{'s' * (total != 1)}"


def empty_chapter(label: str) -> str:
    return (f"No notes of yours on {label} yet. Select verses in the reader and press Ctrl+N (or right-click "
            "them) to write one.")


def pending_text(count: int, online: bool = False) -> str:
    """The notes pane's words for notes without a vector yet: being embedded (the proxy is online: a few
    seconds after the last save), or waiting for the proxy."""
    which = "1 of your notes is" if count == 1 else f"{count} of your notes are"
    if online:
        return f"{which} being embedded: searched by words until then."
    return (f"{which} not embedded yet: searched by words until the embed proxy returns, and embedded the "
            "moment it does.")


def removed_text(note: Note, names: Names) -> str:
    return f"Your note on {where(note, names)} was deleted."


def workspace_title(name: str) -> str:
    return f"Workspace: {name}"


def new_note_title(ref_label: str) -> str:
    return f"New note on {ref_label}" if ref_label else "New note"


def saved_text(updated: str) -> str:
    """``Saved 14:02:03`` from a note's ISO time (in local time)."""
    from datetime import datetime

    try:
        when = datetime.fromisoformat(updated.replace("Z", "+00:00")).astimezone()
    except ValueError:
        return "Saved"
    return f"Saved {when:%H:%M:%S}"
