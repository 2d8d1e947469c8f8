"""The service's OpenAPI 3.1 description, served at ``GET /openapi.json`` (CONTRACT section 9).

Built from the tables the service runs on — the parameter names (:mod:`.params`), each knob's type, range
and help (:mod:`amicus_desktop.knobs`), the codes and their statuses (:mod:`.errors`) — so it cannot
list a parameter the service refuses or miss one it takes. The parts of an answer that are the retrieval
bundle's (a result's ``meta`` and ``breakdown``, ``warnings``, ``rejected``, ``query_trace``, ``diagnostics``,
``provenance``) are the bundle schema's own definitions (``resources/schemas/bundle.schema.json``, as
``bundle.<name>`` components), so the service and ``query --json`` are described once.
``tests/serve/test_openapi.py`` checks real answers against its schemas, and every test's ``/retrieve``
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
from .body import SNIPPET_CHARS
from .errors import STATUS
from .params import DEFAULT_K, NAMES, OVERLAY_NAME, REPEATABLE, WORKSPACE_ID


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
    return {"Result": result, "RetrieveResponse": retrieve, "Error": error, "Health": health, "Unhealthy": unhealthy,
            **_bundle_components()}


def _answer(description: str, schema: str) -> dict[str, Any]:
    return {"description": description,
            "headers": {TRACE_HEADER: {"$ref": "#/components/headers/TraceId"}},
            "content": {"application/json": {"schema": {"$ref": f"#/components/schemas/{schema}"}}}}


def _error_answers() -> dict[str, Any]:
    by_status: dict[int, list[str]] = {}
    for code, status in STATUS.items():
        by_status.setdefault(status, []).append(str(code))
    out = {}
    for status, codes in sorted(by_status.items()):
        answer = _answer("error.code: " + ", ".join(sorted(codes)), "Error")
        if status == 429:
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
                "parameters": [_parameter(name) for name in NAMES],
                "security": [{"bearer": []}, {}],
                "responses": {"200": _answer("The ranked chunks, as `query --json` ranks them.", "RetrieveResponse"),
                              **_error_answers()},
            }},
            "/health": {"get": {
                "operationId": "health", "summary": "The library and the embed proxy, as this replica sees them",
                "security": [],
                "responses": {"200": _answer("The library can be read (the proxy may be offline).", "Health"),
                              "503": _answer("The library cannot be read.", "Unhealthy")},
            }},
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
                                    "schema": {"type": "string"}}},
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer",
                                           "description": "AMICUS_SERVE_TOKEN or a token of the clients file."}},
        },
    }
