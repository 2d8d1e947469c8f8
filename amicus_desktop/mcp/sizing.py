"""Sized answers (CONTRACT section 10): every tool's ``detail``, ``max_tokens`` and ``cursor``. No Qt, no I/O.

A tool makes its whole answer first — a :class:`Ranked`: the keys that describe it (``header``) and its
items in order, each at full detail — and :func:`page` cuts from it the page a call asked for:

* **detail** — ``full`` (every key), ``brief`` (an id, the score, a citation and a one-line preview) or
  ``ids`` (the ids, scores and citations alone); each tool's :class:`Shape` says what its items and header
  keep at each level, and the page says what the level left out.
* **max_tokens** — items are added in order while the estimate of the whole result (its text and its
  structured content) stays within it; a page always holds at least one item, whose long texts are
  shortened (and said to be) when it alone would not fit.
* **next_cursor** — where the page stopped: the offset of the next item and a hash of the whole ranking.
  The ranking is kept in the server's memory (:class:`Rankings`, keyed by the tool and its ranking
  arguments), so the next page is the same ranking continued, not asked again; when it is no longer held
  (another replica, a restart, evicted) the question is asked again and its ranking's hash must equal the
  cursor's — otherwise the call is refused with ``CURSOR_STALE``: the library, the model or the notes
  changed, and the pages would not join.

**Tokens are counted** (:func:`estimate`) with the word-piece tokenizer the project ships for context budgets
(:class:`~amicus_desktop.context.WordPieceCounter`, CONTRACT section 8) over the text and the structured
content's compact JSON, added: what a client would put before a model if it passed both. Word pieces split
JSON punctuation, numbers and hex hashes finer than the byte-pair tokenizers of chat models (measured: 1.7
characters a word piece on an ``ids`` page, 2.1 on a full one, where those tokenizers take about 3 for JSON
and 4 for prose), so the count errs high. With the default ``max_tokens`` of :data:`DEFAULT_MAX_TOKENS` a
result stays well under the 25,000 tokens a popular client accepts.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal

from pydantic import Field

from ..context import WordPieceCounter
from ..serve.errors import ServiceCode, ServiceError, bad_request

Detail = Literal["ids", "brief", "full"]
DETAILS: tuple[str, ...] = ("ids", "brief", "full")
#: the result size a call gets when it names none (estimated tokens)
DEFAULT_MAX_TOKENS = 10_000
#: the smallest and largest ``max_tokens`` a call may ask for
MIN_MAX_TOKENS = 1000
MAX_MAX_TOKENS = 24_000
#: the ``max_tokens`` argument, bounded in the published input schema
MaxTokens = Annotated[int, Field(ge=MIN_MAX_TOKENS, le=MAX_MAX_TOKENS)]
#: a preview's characters (``brief``)
PREVIEW_CHARS = 160
#: rankings kept for their next pages, and for how long (seconds)
RANKINGS_KEPT = 64
RANKING_TTL = 1800.0

Item = dict[str, Any]
_COUNT = WordPieceCounter()
View = Callable[[Item], Item]


def estimate(text: str, data: Any = None) -> int:
    """Tokens of a result: the word pieces of ``text`` and of the compact JSON of ``data``."""
    return _COUNT(text) + (_COUNT(compact(data)) if data is not None else 0)


def compact(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def digest(data: Any, size: int = 16) -> str:
    """A short SHA-256 of ``data``'s compact JSON (hex)."""
    return hashlib.sha256(compact(data).encode("utf-8")).hexdigest()[:size]


def text_hash(text: str) -> str:
    """What provenance calls a text's hash: ``sha256:`` and the hex SHA-256 of its UTF-8."""
    return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()


def preview(text: str, chars: int = PREVIEW_CHARS) -> str:
    """The first line of ``text``, at most ``chars`` characters (``…`` when cut)."""
    line = " ".join(text.split())
    return line if len(line) <= chars else line[: chars - 1].rstrip() + "…"


@dataclass(frozen=True)
class Shape:
    """How one tool's answer is cut: the key holding its items, each detail level's view of an item and
    of the header, what each level leaves out (a sentence), the item keys that may be shortened when one
    item alone is over the budget, and the text a model reads for a page."""

    items_key: str
    item_views: Mapping[str, View]
    header_views: Mapping[str, View]
    left_out: Mapping[str, str]
    long_keys: tuple[str, ...]
    render: Callable[[dict[str, Any]], str]
    #: header keys (the answer's "why") given on the first page only, and left out of it too when it would
    #: not fit ``max_tokens`` with one item
    heavy_keys: tuple[str, ...] = ()


@dataclass(frozen=True)
class Ranked:
    """A tool's whole answer at full detail: ``header`` and ``items`` in order."""

    header: Item
    items: list[Item]
    #: what the tool itself cut while making it (a lowered budget), said in the page's ``cut``
    notes: tuple[str, ...] = ()

    @property
    def hash(self) -> str:
        """The ranking's identity: its items as they are (ids, scores, texts…): a cursor carries it."""
        return digest(self.items)


@dataclass(frozen=True)
class Sizing:
    """What a call asked of its answer's size."""

    detail: str = "full"
    max_tokens: int = DEFAULT_MAX_TOKENS
    cursor: str | None = None


def sizing(detail: str | None, max_tokens: int | None, cursor: str | None, default_detail: str = "full") -> Sizing:
    """The call's sizing arguments, checked (the schemas already bound them; this says it in words)."""
    detail = detail or default_detail
    if detail not in DETAILS:
        raise bad_request(f"detail must be one of {', '.join(DETAILS)}.")
    tokens = DEFAULT_MAX_TOKENS if max_tokens is None else max_tokens
    if not MIN_MAX_TOKENS <= tokens <= MAX_MAX_TOKENS:
        raise bad_request(f"max_tokens must be between {MIN_MAX_TOKENS} and {MAX_MAX_TOKENS:,}.")
    return Sizing(detail, tokens, cursor)


# -- cursors -------------------------------------------------------------------------------------------

def make_cursor(offset: int, ranking: str) -> str:
    raw = compact({"o": offset, "r": ranking}).encode("utf-8")
    return base64.urlsafe_b64encode(raw).decode("ascii").rstrip("=")


def read_cursor(cursor: str) -> tuple[int, str]:
    """``(offset, ranking hash)`` of a cursor this server made (``BAD_REQUEST`` for anything else)."""
    try:
        raw = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4))
        data = json.loads(raw)
        offset, ranking = data["o"], data["r"]
        if isinstance(offset, int) and not isinstance(offset, bool) and offset >= 0 and isinstance(ranking, str):
            return offset, ranking
    except (binascii.Error, ValueError, KeyError, TypeError, UnicodeDecodeError):
        pass
    raise bad_request("cursor is not one this server gave: pass a result's next_cursor as it is.")


@dataclass
class Rankings:
    """The rankings of recent calls, for their next pages: at most :data:`RANKINGS_KEPT`, each for
    :data:`RANKING_TTL` seconds, keyed by the tool, its ranking arguments and the caller's scope."""

    kept: OrderedDict[str, tuple[float, Ranked]] = field(default_factory=OrderedDict)

    def put(self, key: str, ranked: Ranked) -> None:
        self.kept[key] = (time.monotonic(), ranked)
        self.kept.move_to_end(key)
        while len(self.kept) > RANKINGS_KEPT:
            self.kept.popitem(last=False)

    def get(self, key: str, ranking: str) -> Ranked | None:
        found = self.kept.get(key)
        if found is None or time.monotonic() - found[0] > RANKING_TTL or found[1].hash != ranking:
            return None
        return found[1]


def ranking_key(tool: str, arguments: Mapping[str, Any], scope: Sequence[str | None]) -> str:
    """The key of a ranking: the tool, the arguments that make it (not the sizing ones) and the scope."""
    return digest({"tool": tool, "arguments": dict(arguments), "scope": list(scope)}, 32)


def stale() -> ServiceError:
    return ServiceError(ServiceCode.CURSOR_STALE,
                        "This cursor continues a ranking that has changed (the library, the model or the notes) "
                        "or that other arguments made: ask again without a cursor.")


# -- pages ---------------------------------------------------------------------------------------------

def _shorten(item: Item, keys: Sequence[str], chars: int) -> tuple[Item, bool]:
    out = dict(item)
    cut = False
    for key in keys:
        value = out.get(key)
        if isinstance(value, str) and len(value) > chars:
            out[key] = value[: max(1, chars - 1)].rstrip() + "…"
            cut = True
        elif isinstance(value, list) and len(value) > 3:  # a list of texts (verses, evidence)
            out[key] = value[:3]
            cut = True
    return out, cut


def page(ranked: Ranked, shape: Shape, size: Sizing, offset: int = 0) -> dict[str, Any]:
    """The page of ``ranked`` from ``offset`` that fits ``size`` at its detail: the header's view, the
    items that fit, ``next_cursor`` and ``page`` (what was cut and how to get it)."""
    total = len(ranked.items)
    if offset > total:
        raise bad_request(f"cursor points past the end of the ranking ({total} items).")
    header = shape.header_views[size.detail](ranked.header)
    heavy = [k for k in shape.heavy_keys if k in header]
    dropped: list[str] = []

    def drop_heavy(why: str) -> None:
        for key in heavy:
            header.pop(key, None)
        if heavy:
            dropped[:] = [f"the answer's {', '.join(heavy)} {why}"]

    if offset > 0:
        drop_heavy("(on the first page only)")
    view = shape.item_views[size.detail]
    taken: list[Item] = []
    shortened: list[int] = []

    def build(next_offset: int | None) -> dict[str, Any]:
        cut = [*ranked.notes, *dropped]
        if size.detail != "full" and shape.left_out.get(size.detail):
            cut.append(shape.left_out[size.detail])
        if shortened:
            cut.append(f"the long texts of item {', '.join(str(n) for n in shortened)} were shortened to fit "
                       "max_tokens (a larger max_tokens gives them whole)")
        if next_offset is not None:
            cut.append(f"{shape.items_key} {next_offset + 1}–{total} of {total}: call again with the same "
                       "arguments and cursor=next_cursor for the next page")
        return {**header, shape.items_key: list(taken),
                "next_cursor": make_cursor(next_offset, ranked.hash) if next_offset is not None else None,
                "page": {"detail": size.detail, "max_tokens": size.max_tokens, "tokens": 0, "offset": offset,
                         "count": len(taken), "total": total, "cut": cut}}

    def tokens(data: dict[str, Any]) -> int:
        data["page"]["tokens"] = 0
        measured = estimate(shape.render(data), data)
        data["page"]["tokens"] = measured
        return measured

    def fits(count: int) -> bool:
        taken[:] = [view(item) for item in ranked.items[offset:offset + count]]
        end = offset + count
        return tokens(build(end if end < total else None)) <= size.max_tokens

    def most() -> int:
        """The most items that fit: doubling, then halving (a page of n items is counted O(log n) times)."""
        lo, hi = 0, 1
        while offset + hi <= total and fits(hi):
            lo, hi = hi, hi * 2
        hi = min(hi, total - offset + 1)
        while hi - lo > 1:
            mid = (lo + hi) // 2
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)
        return lo

    count = most()
    if count == 0 and offset < total and heavy and not dropped:  # the "why" makes it too big: leave it out
        drop_heavy("were left out to fit max_tokens (a larger max_tokens gives them)")
        count = most()
    if count == 0 and offset < total:  # one item alone is over the budget: shorten its long texts to fit
        item = view(ranked.items[offset])
        chars = 4000
        while True:
            short, cut = _shorten(item, shape.long_keys, chars)
            taken[:] = [short]
            shortened[:] = [offset + 1] if cut else []
            end = offset + 1
            if tokens(build(end if end < total else None)) <= size.max_tokens or not cut or chars < 50:
                break
            chars //= 2
        count = 1
    else:
        taken[:] = [view(item) for item in ranked.items[offset:offset + count]]
        shortened.clear()
    end = offset + count
    body = build(end if end < total else None)
    tokens(body)
    return body
