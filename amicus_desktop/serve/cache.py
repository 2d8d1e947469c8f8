"""ETags on the service's answers, so a client can cache them (CONTRACT section 9, project extension).

An answer's ETag is a strong validator: the SHA-256 of its JSON as the service writes it, without the keys
that differ on every request by nature (:data:`PER_REQUEST`) — ``trace_id`` (this request's), the timings
(``timing_ms``, ``diagnostics.search_ms``) and whether the question's vector came from the embed cache
(``query_trace.embedding_cached``). Everything else an answer holds is in it: the results, their scores and
breakdowns, the warnings, the model, the provenance; so a rebuilt library, a changed overlay or a new note of
the workspace changes the ETag whenever it changes the answer, and never yields a stale ``304``. A request
whose ``If-None-Match`` names the answer's ETag gets ``304 Not Modified`` without a body (the search still
runs: the validator is the answer itself). ``Cache-Control`` says an answer may be kept by the client (never a
shared cache: it may be a workspace's) and must be revalidated before it is used again
(:data:`CACHE_CONTROL`).
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping
from typing import Any

from starlette.responses import Response

#: keys (paths of keys) of an answer left out of its ETag: they differ on every request by nature
PER_REQUEST: tuple[tuple[str, ...], ...] = (("trace_id",), ("timing_ms",), ("diagnostics", "search_ms"),
                                            ("query_trace", "embedding_cached"))
#: a client may keep an answer (not a shared cache: it may hold a workspace's notes) and asks again with
#: ``If-None-Match`` before using it: 0 seconds fresh, since a library or notes may change at any time
CACHE_CONTROL = "private, max-age=0, must-revalidate"


def etag_of(body: Mapping[str, Any]) -> str:
    """The strong ETag (quoted) of an answer's body."""
    return rendered(body)[1]


def rendered(body: Mapping[str, Any]) -> tuple[bytes, str]:
    """An answer's JSON and its strong ETag (quoted), from **one** serialization of the body.

    The body is written with a fixed marker string in place of each :data:`PER_REQUEST` value; the ETag is the
    SHA-256 of that text (the same for every request with the same answer, in every process: a marker is a
    constant), and the answer is that text with each marker replaced by its value's JSON. Writing the body twice
    — once without the per-request keys for the ETag, once whole — was ≈ 10 % of the interpreter lock a
    ``/retrieve`` answer holds (docs/PERFORMANCE.md).
    """
    marked, values = _marked(body)
    text = json.dumps(marked, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    etag = '"' + hashlib.sha256(text.encode("utf-8")).hexdigest()[:40] + '"'
    for marker, value in values:
        text = text.replace(marker, json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":")), 1)
    return text.encode("utf-8"), etag


#: a per-request value's stand-in: a string no answer holds (a NUL, then the key's path), as the JSON writes it
_MARKERS = {path: json.dumps("\x00amicus-per-request:" + ".".join(path)) for path in PER_REQUEST}


def _holder(out: dict[str, Any], path: tuple[str, ...]) -> dict[str, Any] | None:
    """The dict of ``out`` that holds ``path``'s last key, each level above it copied on the way down (so the body
    ``out`` was copied from is not changed), or ``None`` when a level is missing or not a dict."""
    node: Any = out
    for key in path[:-1]:
        if not isinstance(node, dict) or not isinstance(node.get(key), dict):
            return None
        node[key] = dict(node[key])
        node = node[key]
    return node if isinstance(node, dict) else None


def _marked(body: Mapping[str, Any]) -> tuple[dict[str, Any], list[tuple[str, Any]]]:
    """``body`` with each :data:`PER_REQUEST` value replaced by its marker (copying each level it changes), and
    the ``(marker's JSON, value)`` pairs to put back."""
    out = dict(body)
    values: list[tuple[str, Any]] = []
    for path in PER_REQUEST:
        node = _holder(out, path)
        if node is not None and path[-1] in node:
            values.append((_MARKERS[path], node[path[-1]]))
            node[path[-1]] = json.loads(_MARKERS[path])
    return out, values


def stable(body: Mapping[str, Any]) -> dict[str, Any]:
    """``body`` without :data:`PER_REQUEST` (the rest untouched, in order)."""
    out = dict(body)
    for path in PER_REQUEST:
        node = _holder(out, path)
        if node is not None:
            node.pop(path[-1], None)
    return out


def matches(if_none_match: str | None, etag: str) -> bool:
    """Whether ``If-None-Match`` names ``etag`` (``*``, a list, weak ``W/`` forms compared weakly: RFC 9110)."""
    if not if_none_match:
        return False
    tags = [t.strip() for t in if_none_match.split(",")]
    return "*" in tags or etag in (t.removeprefix("W/") for t in tags)


def cached_json(body: dict[str, Any], if_none_match: str | None) -> Response:
    """``body`` as a 200 with its ETag and Cache-Control, or a bodiless 304 when the client has it already."""
    content, etag = rendered(body)
    headers = {"ETag": etag, "Cache-Control": CACHE_CONTROL}
    if matches(if_none_match, etag):
        return Response(status_code=304, headers=headers)
    return Response(content, media_type="application/json", headers=headers)
