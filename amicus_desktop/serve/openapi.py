"""The service's OpenAPI 3.1 description, served at ``GET /openapi.json`` (CONTRACT section 9).

Built from the tables the service runs on — the parameter names (:mod:`.params`), each knob's type, range
and help (:mod:`amicus_desktop.knobs`), the codes and their statuses (:mod:`.errors`) — so it cannot
list a parameter the service refuses or miss one it takes. The parts of an answer that are the retrieval
bundle's (a result's ``meta`` and ``breakdown``, ``warnings``, ``rejected``, ``query_trace``, ``diagnostics``,
``provenance``) are the bundle schema's own definitions (``resources/schemas/bundle.schema.json``, as
``bundle.<name>`` components), so the service and ``query --json`` are described once.
``POST /mcp`` is described as the transport it is (:func:`_mcp`): one JSON-RPC message in, one out, the
tools named from their output schemas (:mod:`amicus_desktop.mcp.schemas`), the protocol's own documents
linked. ``tests/serve/test_openapi.py`` checks real answers against its schemas, and every test's ``/retrieve``
answer is checked against them too (``tests/support/serve.py``).
"""

from __future__ import annotations

import functools
import json
from typing import Any

from .. import __version__, schemas
from ..core.query import MAX_QUERY_CHARS, SearchMode
from ..http.trace import TRACE_HEADER
from ..knobs import BY_PARAM, Kind, Knob
from ..verses.model import DEFAULT_K as VERSE_K
from ..verses.model import MAX_K as VERSE_MAX_K
from .body import SNIPPET_CHARS
from .cache import CACHE_CONTROL
from .errors import STATUS
from .params import DEFAULT_K, MAX_REPEATED, MODES, NAMES, OVERLAY_NAME, REPEATABLE, WORKSPACE_ID


def _obj(required: dict[str, Any], optional: dict[str, Any] | None = None) -> dict[str, Any]:
    """An object schema with these required properties (more keys may follow: the contract extends)."""
    return {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}}


def _knob(knob: Knob) -> tuple[str, dict[str, Any]]:
    """A knob's description and schema, from the table."""
    described = knob.described(default=DEFAULT_K if knob.name == "k" else knob.default)
    text = described[0].upper() + described[1:] + "."
    schema: dict[str, Any] = {"type": "string"}
    if knob.kind is Kind.WHOLE:
        schema = {"type": "integer", "minimum": knob.lo, "maximum": knob.hi}
    elif knob.kind is Kind.NUMBER:
        lo, hi = knob.param_range or (knob.lo, knob.hi)
        schema = {"type": "number", "minimum": lo, "maximum": hi}
    elif knob.choices:
        schema = {"type": "string", "enum": [*knob.aliases, *knob.choices]}
        if knob.aliases:
            text += " " + ", ".join(f"{a} is {m}" for a, m in knob.aliases.items()) + "."
            schema["default"] = next(a for a, m in knob.aliases.items() if m == knob.default)
    return (text, {k: v for k, v in schema.items() if v is not None})


_DESCRIPTIONS: dict[str, tuple[str, dict[str, Any]]] = {
    "q": (f"The question (required; at most {MAX_QUERY_CHARS:,} characters, else 413 QUERY_TOO_LONG).",
          {"type": "string"}),
    **{name: _knob(knob) for name, knob in BY_PARAM.items()},
    "workspace": ("Scope the request to this workspace (the token must be allowed it): its notes are searched "
                  "with the library.",
                  {"type": "string", "pattern": f"^{WORKSPACE_ID.pattern}$"}),
    "overlay": ("An overlay of the service's overlays folder (NAME for NAME.json): its forbidden sources, "
                "vocabulary, preferred sources and policy apply; a parameter given explicitly wins.",
                {"type": "string", "pattern": f"^{OVERLAY_NAME.pattern}$"}),
}


def _parameter(name: str) -> dict[str, Any]:
    description, schema = _DESCRIPTIONS[name]
    if name in REPEATABLE:
        description += " Repeatable: OR within one kind, AND across kinds." if name.startswith("filter.") else \
            " Repeatable."
        schema = {"type": "array", "items": schema}
    return {"name": name, "in": "query", "required": name == "q", "description": description, "schema": schema,
            **({"style": "form", "explode": True} if name in REPEATABLE else {})}


def _workspace() -> dict[str, Any]:
    return _query("workspace", "A workspace the token must be allowed (403 otherwise); nothing of it is read.",
                  _DESCRIPTIONS["workspace"][1])


def _bundle(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/bundle.{name}"}


def _bundle_components() -> dict[str, Any]:
    """The bundle schema's definitions as components, their references pointing among the components."""
    text = json.dumps(schemas.schema("bundle")["$defs"]).replace('"#/$defs/', '"#/components/schemas/bundle.')
    return {f"bundle.{name}": d for name, d in json.loads(text).items()}


def _schemas() -> dict[str, Any]:
    result = _obj({
        "id": {"type": "string"}, "rank": {"type": "integer", "minimum": 1}, "score": {"type": "number"},
        "snippet": {"type": "string", "maxLength": SNIPPET_CHARS}, "source_type": {"type": "string"},
        "source_id": {"type": "string"}, "meta": _bundle("metadata"),
        "breakdown": _bundle("breakdown"), "pinned": {"type": "boolean"},
    }, {"title": {"type": "string", "description": "Project extension: what the chunk is, in one line."},
        "citation": {"type": "string", "description": "Project extension: kind, scholar and place."}})
    timing = _obj({k: {"type": "number"} for k in ("embed", "search", "rerank", "total")})
    filters = {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}},
               "description": "The filters applied, by kind (kinds not asked for are left out)."}
    retrieve = _obj({
        "query": {"type": "string"}, "k": {"type": "integer"},
        "mode": {"type": "string", "enum": [m.value for m in SearchMode]}, "filters": filters,
        "results": {"type": "array", "items": {"$ref": "#/components/schemas/Result"}},
        "warnings": {"type": "array", "items": _bundle("warning")},
        "model": _obj({"id": {"type": "string"}, "dims": {"type": "integer"}}),
        "timing_ms": timing, "trace_id": {"type": "string"},
    }, {
        "rejected": {"type": "array", "items": _bundle("rejected"),
                     "description": "Project extension: every candidate dropped, and why (as query --json)."},
        "query_trace": {**_bundle("query_trace"),
                        "description": "Project extension: how the question was understood."},
        "diagnostics": {**_bundle("diagnostics"), "description": "Project extension: counts over the candidate pool."},
        "provenance": {"type": "array", "items": _bundle("provenance_entry"),
                       "description": "Project extension: the authors of the results (CONTRACT section 12)."},
    })
    error = _obj({"error": _obj({"code": {"type": "string", "enum": sorted(STATUS)},
                                 "message": {"type": "string"}}),
                  "trace_id": {"type": "string"}})
    health = _obj({"status": {"type": "string", "enum": ["ok"]},
                   "library": _obj({"chunks": {"type": "integer"}, "model": {"type": "string"},
                                    "dims": {"type": "integer"}}),
                   "proxy": {"type": "string", "enum": ["online", "offline"]},
                   "trace_id": {"type": "string"}})
    unhealthy = _obj({"status": {"type": "string", "enum": ["unavailable"]},
                      "error": error["properties"]["error"], "trace_id": {"type": "string"}},
                     {"proxy": {"type": "string", "enum": ["online", "offline"]}})
    body = {"type": "object", "required": ["q"], "additionalProperties": False,
            "properties": {name: _body_property(name) for name in NAMES},
            "description": "Project extension: GET /retrieve's parameters as one JSON object (a list for a "
                           "repeatable one), checked by the same rules."}
    verse = _obj({"rank": {"type": "integer", "minimum": 1}, "reference": {"type": "string"},
                  "book_id": {"type": "string"}, "chapter_num": {"type": "integer"},
                  "verse_start": {"type": "integer"}, "verse_end": {"type": "integer"}, "text": {"type": "string"},
                  "score": {"type": "number"}, "breakdown": {"type": "object"},
                  "verses": {"type": "array", "items": _obj({"verse_num": {"type": "integer"},
                                                             "text": {"type": "string"},
                                                             "score": {"type": "number"}})}})
    verses = _obj({
        "query": {"type": "string"}, "mode": {"type": "string", "enum": [m.value for m in SearchMode]},
        "translation": _obj({"id": {"type": "string"}, "name": {"type": "string"},
                             "abbreviation": {"type": "string"}}),
        "model": {"oneOf": [{"type": "null"}, _obj({"id": {"type": "string"}, "dims": {"type": "integer"}})]},
        "results": {"type": "array", "items": verse}, "warnings": {"type": "array", "items": _bundle("warning")},
        "timing_ms": {"type": "object", "additionalProperties": {"type": "number"}},
        "query_trace": {"type": "object"}, "trace_id": {"type": "string"},
    })
    passage = _obj({"reference": {"type": "string"}, "book_id": {"type": "string"},
                    "chapter_num": {"type": "integer"},
                    "verse_start": {"type": ["integer", "null"]}, "verse_end": {"type": ["integer", "null"]},
                    "verses": {"type": "array", "items": _obj({"verse": {"type": "integer"},
                                                               "text": {"type": "string"}})},
                    "trace_id": {"type": "string"}},
                   {"translation": {"oneOf": [{"type": "null"}, _obj({"id": {"type": "string"},
                                                                     "name": {"type": "string"},
                                                                     "abbreviation": {"type": "string"}})]}})
    message = {**_obj({"jsonrpc": {"const": "2.0"}},
                      {"id": {"type": ["string", "integer"]}, "method": {"type": "string"},
                       "params": {"type": "object"}, "result": {"type": "object"}, "error": {"type": "object"}}),
               "description": "One JSON-RPC 2.0 message of the Model Context Protocol: a request (id and method), "
                              "a notification (method, no id) or a response."}
    mcp_answer = {**_obj({"jsonrpc": {"const": "2.0"}, "id": {"type": ["string", "integer", "null"]}},
                         {"result": {"type": "object"},
                          "error": _obj({"code": {"type": "integer"}, "message": {"type": "string"}},
                                        {"data": {}})}),
                  "oneOf": [{"required": ["result"]}, {"required": ["error"]}],
                  "description": "The JSON-RPC 2.0 answer: a `result` (a tool call's structured content "
                                 "validates against the tool's published output schema) or an `error`."}
    return {"McpMessage": message, "McpResponse": mcp_answer,
            "Result": result, "RetrieveResponse": retrieve, "RetrieveRequest": body, "Error": error,
            "Health": health, "Unhealthy": unhealthy, "Passage": passage, "VerseSearchResponse": verses,
            **_bundle_components()}


def _body_property(name: str) -> dict[str, Any]:
    """A parameter as a key of POST /retrieve's body: a number may be a JSON number or its text."""
    description, schema = _DESCRIPTIONS[name]
    if schema.get("type") in ("integer", "number"):
        schema = {"anyOf": [schema, {"type": "string"}]}
    if name in REPEATABLE:
        schema = {"type": "array", "items": schema, "maxItems": MAX_REPEATED}
    return {**schema, "description": description}


def _answer(description: str, schema: str, *, etag: bool = False) -> dict[str, Any]:
    headers: dict[str, Any] = {TRACE_HEADER: {"$ref": "#/components/headers/TraceId"}}
    answer = {"description": description, "headers": headers,
              "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}
    if etag:
        headers.update(_CACHE_HEADERS)
    return answer


_CACHE_HEADERS = {"ETag": {"$ref": "#/components/headers/ETag"},
                  "Cache-Control": {"$ref": "#/components/headers/CacheControl"}}
_NOT_MODIFIED = {"304": {"description": "Not modified: the If-None-Match named this answer's ETag (no body).",
                         "headers": {TRACE_HEADER: {"$ref": "#/components/headers/TraceId"}, **_CACHE_HEADERS}}}
_IF_NONE_MATCH = {"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                  "description": "The ETag of an answer the client holds: 304 without a body when it is still the "
                                 "answer."}


def _query(name: str, description: str, schema: dict[str, Any], *, required: bool = False,
           repeatable: bool = False) -> dict[str, Any]:
    if repeatable:
        return {"name": name, "in": "query", "required": required, "description": description,
                "schema": {"type": "array", "items": schema}, "style": "form", "explode": True}
    return {"name": name, "in": "query", "required": required, "description": description, "schema": schema}


#: The Model Context Protocol's streamable HTTP transport, the version the tests speak (the SDK negotiates).
MCP_TRANSPORT_URL = "https://modelcontextprotocol.io/specification/2025-06-18/basic/transports#streamable-http"


def _mcp() -> dict[str, Any]:
    """``POST /mcp``: CONTRACT section 10's tools over the SDK's streamable HTTP transport (:mod:`.mcp_http`)."""
    from ..mcp.schemas import OUTPUT
    from .mcp_http import MAX_BODY

    tools = ", ".join(f"`{name}`" for name in OUTPUT)
    jsonrpc = {"$ref": "#/components/schemas/McpResponse"}
    errors = _error_answers()
    errors["400"] = {**errors["400"], "description": errors["400"]["description"] + "; or the transport's "
                     "JSON-RPC error for a body that is not one JSON-RPC 2.0 message (-32700, -32600, -32602)",
                     "content": {"application/json": {"schema": {"oneOf": [
                         {"$ref": "#/components/schemas/Error"}, jsonrpc]}}}}
    return {"post": {
        "operationId": "mcp",
        "summary": "Project extension: the MCP tools (section 10) over the streamable HTTP transport",
        "description": (
            f"The MCP server of `amicus-desktop mcp` — the tools {tools}, passages as resources "
            "(`scripture://{book}/{chapter}/{verses}{?translation}`) — over the Model Context Protocol's "
            "streamable HTTP transport, stateless: one JSON-RPC 2.0 message per POST (`initialize`, "
            "`notifications/initialized`, `tools/list`, `tools/call`, `resources/read`, …), sent with "
            "`Content-Type: application/json` and an `Accept` that includes `application/json`, answered with "
            "one JSON body (never an event stream). No `Mcp-Session-Id` is issued, so any replica answers any "
            "request; `GET` and `DELETE` (a server stream, a session's end) are 405. The query string names "
            "the scope (the workspace whose notes the tools read, the overlay) and is checked before any "
            "message is read, with the token, its rate, the workspace and the overlay, as for /retrieve "
            "(docs/CONTRACT.md sections 9 and 10). Connect with an MCP client's HTTP transport (docs/DEPLOY.md, "
            "\"Connecting an assistant\")."),
        "externalDocs": {"description": "The MCP streamable HTTP transport", "url": MCP_TRANSPORT_URL},
        "parameters": [
            _query("workspace", "The workspace the tools are scoped to (its notes are searched, listed and, on a "
                   "service started with --allow-writes, added to); the token must be allowed it.",
                   _DESCRIPTIONS["workspace"][1]),
            _query("overlay", _DESCRIPTIONS["overlay"][0], _DESCRIPTIONS["overlay"][1]),
            {"name": "MCP-Protocol-Version", "in": "header", "required": False, "schema": {"type": "string"},
             "description": "After `initialize`, the protocol version it negotiated (MCP clients send it)."}],
        "requestBody": {"required": True, "description": f"One JSON-RPC 2.0 message, at most {MAX_BODY:,} bytes.",
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/McpMessage"}}}},
        "security": [{"bearer": []}, {}],
        "responses": {
            "200": {**_answer("The JSON-RPC answer to a request: its `result`, or its `error` (a tool's own "
                              "failure is a result with `isError: true`, its text beginning with the code).",
                              "McpResponse")},
            "202": {"description": "A notification or a response was accepted (no body).",
                    "headers": {TRACE_HEADER: {"$ref": "#/components/headers/TraceId"}}},
            "406": {**_answer("The `Accept` header does not include application/json (the transport's "
                              "JSON-RPC error).", "McpResponse")},
            **errors},
    }}


def _error_answers() -> dict[str, Any]:
    by_status: dict[int, list[str]] = {}
    for code, status in STATUS.items():
        by_status.setdefault(status, []).append(str(code))
    out = {}
    for status, codes in sorted(by_status.items()):
        answer = _answer("error.code: " + ", ".join(sorted(codes)), "Error")
        if status in (429, 503):  # 503: with NOTES_STORE_BUSY and DB_UNAVAILABLE
            answer["headers"]["Retry-After"] = {"schema": {"type": "integer"}, "description": "Seconds to wait."}
        if status == 401:
            answer["headers"]["WWW-Authenticate"] = {"schema": {"type": "string"}}
        out[str(status)] = answer
    return out


@functools.cache
def document() -> dict[str, Any]:
    """The OpenAPI 3.1 document (built once)."""
    return {
        "openapi": "3.1.0",
        "info": {"title": "Amicus Desktop retrieval service", "version": __version__,
                 "description": "The ten best chunks for a question, with why: the engine of "
                                "`amicus-desktop query`, over HTTP (docs/CONTRACT.md section 9)."},
        "paths": {
            "/retrieve": {"get": {
                "operationId": "retrieve", "summary": "Retrieve the best chunks for a question",
                "parameters": [*(_parameter(name) for name in NAMES), _IF_NONE_MATCH],
                "security": [{"bearer": []}, {}],
                "responses": {"200": _answer("The ranked chunks, as `query --json` ranks them.", "RetrieveResponse",
                                             etag=True), **_NOT_MODIFIED, **_error_answers()},
            }, "post": {
                "operationId": "retrievePost",
                "summary": "Project extension: the same retrieval, its parameters as a JSON body",
                "requestBody": {"required": True, "content": {"application/json": {
                    "schema": {"$ref": "#/components/schemas/RetrieveRequest"}}}},
                "security": [{"bearer": []}, {}],
                "responses": {"200": _answer("The same answer as GET with the same parameters (its ETag too).",
                                             "RetrieveResponse", etag=True), **_error_answers()},
            }},
            "/passage": {"get": {
                "operationId": "passage", "summary": "Project extension: a reference's verses",
                "parameters": [_query("ref", "A reference: 'Romans 9:6-13', 'John 3'.", {"type": "string"},
                                      required=True),
                               _query("translation", "A translation the library holds, by id or abbreviation "
                                      "(kjv, web); its default otherwise.", {"type": "string"}),
                               _workspace(), _IF_NONE_MATCH],
                "security": [{"bearer": []}, {}],
                "responses": {"200": _answer("The verses, as the MCP tool read_passage reads them.", "Passage",
                                             etag=True), **_NOT_MODIFIED, **_error_answers()},
            }},
            "/verses": {"get": {
                "operationId": "verses", "summary": "Project extension: search the Bible text (verses --json)",
                "parameters": [
                    _query("q", _DESCRIPTIONS["q"][0], {"type": "string"}, required=True),
                    _query("mode", "hybrid (the default), semantic (dense is semantic) or keyword.",
                           {"type": "string", "enum": list(MODES)}),
                    _query("k", f"How many results (default {VERSE_K}).",
                           {"type": "integer", "minimum": 1, "maximum": VERSE_MAX_K}),
                    _query("filter.book", "Only verses of this book.", {"type": "string"}, repeatable=True),
                    _query("testament", "Only verses of the Old or New Testament (OT, NT).", {"type": "string"},
                           repeatable=True),
                    _query("translation", "The translation to search and show (its id or abbreviation).",
                           {"type": "string"}),
                    _workspace()],
                "security": [{"bearer": []}, {}],
                "responses": {"200": _answer("The verses that answer, with why (CONTRACT section 14).",
                                             "VerseSearchResponse"), **_error_answers()},
            }},
            "/health": {"get": {
                "operationId": "health", "summary": "The library and the embed proxy, as this replica sees them",
                "security": [],
                "responses": {"200": _answer("The library can be read (the proxy may be offline).", "Health"),
                              "503": _answer("The library cannot be read.", "Unhealthy")},
            }},
            "/mcp": _mcp(),
            "/openapi.json": {"get": {
                "operationId": "openapi", "summary": "This description", "security": [],
                "responses": {"200": {"description": "OpenAPI 3.1",
                                      "headers": {TRACE_HEADER: {"$ref": "#/components/headers/TraceId"}},
                                      "content": {"application/json": {"schema": {"type": "object"}}}}},
            }},
        },
        "components": {
            "schemas": _schemas(),
            "headers": {"TraceId": {"description": "This answer's trace id (also the body's trace_id, where the "
                                                   "body has one, and the service's log line).",
                                    "schema": {"type": "string"}},
                        "ETag": {"description": "A strong validator of the answer (its JSON without trace_id and "
                                                "timing_ms).", "schema": {"type": "string"}},
                        "CacheControl": {"description": f"{CACHE_CONTROL}: a client may keep the answer and "
                                                        "revalidates it with If-None-Match.",
                                         "schema": {"type": "string"}}},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "AMICUS_SERVE_TOKEN or a token of the clients file."}},
        },
    }
