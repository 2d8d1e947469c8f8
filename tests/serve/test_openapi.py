"""``GET /openapi.json`` stays true: it lists exactly the parameters the service takes and the statuses it
answers, and real answers of a real service validate against its schemas (JSON Schema 2020-12, as
OpenAPI 3.1 uses)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import jsonschema
import pytest

from amicus_desktop.mcp.schemas import OUTPUT
from amicus_desktop.serve import mcp_http
from amicus_desktop.serve.errors import STATUS
from amicus_desktop.serve.params import NAMES, REPEATABLE
from tests.support.serve import ServeProcess


@pytest.fixture(scope="module")
def doc(served: ServeProcess) -> dict[str, Any]:
    response = served.get("/openapi.json")
    assert response.status_code == 200 and response.headers["x-trace-id"]
    return response.json()


def schema_of(doc: dict[str, Any], path: str, status: int, method: str = "get") -> dict[str, Any]:
    answers = doc["paths"][path][method]["responses"]
    ref = answers[str(status)]["content"]["application/json"]["schema"]
    return {**doc, **ref}  # the document around the $ref, so "#/components/..." resolves


def validate(doc: dict[str, Any], path: str, response: httpx.Response, method: str = "get") -> None:
    jsonschema.Draft202012Validator(schema_of(doc, path, response.status_code, method)).validate(response.json())
    assert "X-Trace-Id" in doc["paths"][path][method]["responses"][str(response.status_code)]["headers"]


def test_it_lists_exactly_what_the_service_takes_and_answers(doc: dict[str, Any]) -> None:
    assert doc["openapi"] == "3.1.0" and doc["info"]["version"]
    jsonschema.Draft202012Validator.check_schema(doc["components"]["schemas"]["RetrieveResponse"])
    op = doc["paths"]["/retrieve"]["get"]
    params = {p["name"]: p for p in op["parameters"] if p["in"] == "query"}
    assert list(params) == list(NAMES)
    assert [n for n, p in params.items() if p["required"]] == ["q"]
    assert {n for n, p in params.items() if p["schema"]["type"] == "array"} == set(REPEATABLE)
    assert {int(s) for s in op["responses"]} == {200, 304, *STATUS.values()}
    codes = doc["components"]["schemas"]["Error"]["properties"]["error"]["properties"]["code"]["enum"]
    assert set(codes) == set(STATUS)
    assert set(doc["paths"]) == {"/retrieve", "/passage", "/verses", "/health", "/mcp", "/openapi.json"}
    body = doc["components"]["schemas"]["RetrieveRequest"]
    assert list(body["properties"]) == list(NAMES) and body["required"] == ["q"]
    assert {n for n, p in body["properties"].items() if p.get("type") == "array"} == set(REPEATABLE)
    assert {int(s) for s in doc["paths"]["/retrieve"]["post"]["responses"]} == {200, *STATUS.values()}
    assert "ETag" in op["responses"]["200"]["headers"] and "304" in op["responses"]


@pytest.mark.parametrize("params", [
    {"q": "Why did God choose Jacob over Esau?"},
    {"q": "justified by faith", "mode": "hybrid", "k": 7, "filter.book": "romans", "chapter": "romans:3"},
    {"q": "grace", "mode": "keyword", "pin": "does-not-exist", "filter.source_type": ["word_study"]},
    {"q": "qwxz"},
])
def test_real_answers_fit_its_schemas(doc: dict[str, Any], served: ServeProcess, params: dict[str, Any]) -> None:
    response = served.get(params=params)
    assert response.status_code == 200
    validate(doc, "/retrieve", response)


def test_real_refusals_and_health_fit_its_schemas(doc: dict[str, Any], served: ServeProcess) -> None:
    for params, status in [({}, 400), ({"q": "x", "k": "0"}, 400), ({"q": "x" * 2001}, 413),
                           ({"q": "x", "overlay": "nobody"}, 404)]:
        response = served.get(params=params)
        assert response.status_code == status
        validate(doc, "/retrieve", response)
    validate(doc, "/health", served.get("/health"))


def test_the_new_endpoints_answers_fit_its_schemas(doc: dict[str, Any], served: ServeProcess) -> None:
    body = {"q": "justified by faith", "mode": "hybrid", "k": 7, "filter.book": ["romans"], "chapter": "romans:3"}
    jsonschema.Draft202012Validator({**doc, **doc["components"]["schemas"]["RetrieveRequest"]}).validate(body)
    for payload, status in [(body, 200), ({"q": "x", "k": [1]}, 400), ({"q": "x" * 2001}, 413)]:
        response = httpx.post(f"{served.url}/retrieve", json=payload, timeout=60.0, trust_env=False)
        assert response.status_code == status
        validate(doc, "/retrieve", response, "post")
    for params, status in [({"ref": "Romans 9:6-13"}, 200), ({"ref": "Hezekiah 1"}, 400), ({"ref": "Obadiah 1"}, 404)]:
        response = served.get("/passage", params=params)
        assert response.status_code == status
        validate(doc, "/passage", response)
    for params in ({"q": "grace", "mode": "keyword"}, {"q": "grace", "mode": "semantic"}, {"q": "grace", "k": "0"}):
        response = served.get("/verses", params=params)
        assert str(response.status_code) in doc["paths"]["/verses"]["get"]["responses"]
        validate(doc, "/verses", response)


def test_mcp_is_described_as_the_transport_it_is(doc: dict[str, Any], served: ServeProcess) -> None:
    # POST only, the scope's query parameters, every tool named, the transport's document linked
    assert list(doc["paths"]["/mcp"]) == ["post"]
    op = doc["paths"]["/mcp"]["post"]
    assert [p["name"] for p in op["parameters"] if p["in"] == "query"] == list(mcp_http.NAMES)
    assert all(f"`{tool}`" in op["description"] for tool in OUTPUT)
    assert op["externalDocs"]["url"].startswith("https://modelcontextprotocol.io/")
    assert {int(s) for s in op["responses"]} == {200, 202, 406, *STATUS.values()}
    for name in ("McpMessage", "McpResponse"):
        jsonschema.Draft202012Validator.check_schema(doc["components"]["schemas"][name])
    message = {**doc, **op["requestBody"]["content"]["application/json"]["schema"]}
    hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "openapi", "version": "1"}}}
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    passage = {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
               "params": {"name": "read_passage", "arguments": {"reference": "Romans 9:6-13"}}}
    for sent in (hello, initialized, passage):
        jsonschema.Draft202012Validator(message).validate(sent)

    # real answers of the real service fit what it says: results, a notification, and every kind of refusal
    json_only = {"Accept": "application/json", "Content-Type": "application/json"}

    def post(payload: Any, query: str = "", headers: dict[str, str] = json_only) -> httpx.Response:
        content = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
        return httpx.post(f"{served.url}/mcp{query}", content=content, headers=headers, timeout=60.0, trust_env=False)

    answers = [post(hello), post(passage), post({"jsonrpc": "2.0", "id": 3, "method": "tools/list"})]
    assert [a.status_code for a in answers] == [200, 200, 200]
    assert answers[1].json()["result"]["structuredContent"]["reference"] == "Romans 9:6-13"
    for refused, status in [(post(hello, "?colour=red"), 400), (post(b"{not json"), 400),
                            (post(hello, headers={**json_only, "Accept": "text/html"}), 406),
                            (post(hello, headers={**json_only, "Content-Type": "text/plain"}), 415),
                            (post(b" " * (mcp_http.MAX_BODY + 1)), 413), (post(hello, "?overlay=nobody"), 404)]:
        assert refused.status_code == status, refused.text
        answers.append(refused)
    for answer in answers:
        validate(doc, "/mcp", answer, "post")
    assert "error" in answers[4].json() and answers[4].json()["jsonrpc"] == "2.0"  # the transport's own error
    accepted = post(initialized)
    assert accepted.status_code == 202 and not accepted.content and "202" in op["responses"]
    for method in ("GET", "DELETE"):  # a stateless server has no stream to open nor session to end
        refused = httpx.request(method, f"{served.url}/mcp", headers={"Accept": "text/event-stream"}, timeout=10,
                                trust_env=False)
        assert refused.status_code == 405 and refused.headers["allow"] == "POST"
        assert refused.json()["error"]["code"] == "METHOD_NOT_ALLOWED"
