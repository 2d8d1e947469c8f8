"""``GET /openapi.json`` stays true: it lists exactly the parameters the service takes and the statuses it
answers, and real answers of a real service validate against its schemas (JSON Schema 2020-12, as
OpenAPI 3.1 uses)."""

from __future__ import annotations

from typing import Any

import httpx
import jsonschema
import pytest

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
    assert set(doc["paths"]) == {"/retrieve", "/passage", "/verses", "/health", "/openapi.json"}
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
