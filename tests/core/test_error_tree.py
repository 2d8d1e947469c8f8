"""The one error tree (``core/errors.py``): every coded error of the project is an ``AmicusError`` whose code is a
member of the contract's string codes, so the window, the command line and the service classify a failure alike."""

from __future__ import annotations

import pytest

from amicus_desktop.core.errors import AmicusError, ErrorCode
from amicus_desktop.embedding import BackendError, BackendUnavailable, ProxyCode, UpstreamError, UpstreamRateLimited
from amicus_desktop.notes import NotesCode, NotesError
from amicus_desktop.proxy.server import ProxyError
from amicus_desktop.serve.errors import ServiceCode, ServiceError


def test_every_coded_error_is_an_amicus_error_with_a_contract_code() -> None:
    errors: list[AmicusError] = [
        AmicusError("OFFLINE", "the proxy is gone"),
        NotesError(NotesCode.NOTES_STORE_INVALID, "damaged"),
        ServiceError("WORKSPACE_FORBIDDEN", "not yours"),
        ServiceError("NOTES_STORE_BUSY", "busy"),  # the engine's codes pass through the service
        BackendError("no vectors"),
        BackendUnavailable("no model file"),
        UpstreamError("garbage", code="UPSTREAM_BAD_RESPONSE"),
        UpstreamRateLimited("slow down", retry_after="7"),
        ProxyError(413, "TOO_MANY_INPUTS", "too many"),
    ]
    codes = [e.code for e in errors]
    assert codes == [ErrorCode.OFFLINE, NotesCode.NOTES_STORE_INVALID, ServiceCode.WORKSPACE_FORBIDDEN,
                     NotesCode.NOTES_STORE_BUSY, ErrorCode.EMBED_FAILED, ProxyCode.UPSTREAM_UNAVAILABLE,
                     ProxyCode.UPSTREAM_BAD_RESPONSE, ProxyCode.RATE_LIMITED, ProxyCode.TOO_MANY_INPUTS]
    assert [e.to_json()["error"]["code"] for e in errors] == [c.value for c in codes]
    assert all(isinstance(e, AmicusError) and e.code == str(e.code) for e in errors)  # plain strings on the wire


def test_the_service_answers_the_engines_error_with_its_code_and_status() -> None:
    damaged = ServiceError.of(NotesError(NotesCode.NOTES_STORE_INVALID, "damaged"))
    assert damaged.code is NotesCode.NOTES_STORE_INVALID and damaged.status == 500
    refusal = ServiceError("UNAUTHORIZED", "who are you", {"WWW-Authenticate": "Bearer"})
    assert ServiceError.of(refusal) is refusal  # a service error as it is, its headers kept
    assert ServiceError.of(BackendError("bad", code="OFFLINE")).status == 503
    away = ServiceError.of(AmicusError(ErrorCode.DB_UNAVAILABLE, "the library's database restarts"))
    assert (away.status, away.headers) == (503, {"Retry-After": "1"})  # try again, unlike DB_NOT_FOUND's 404
    assert AmicusError(ErrorCode.DB_UNAVAILABLE, "x").is_database
    assert ServiceError.of(AmicusError(ErrorCode.DB_NOT_FOUND, "no library")).headers == {}


def test_a_code_no_kind_of_error_has_is_refused() -> None:
    with pytest.raises(ValueError, match="not a code of ServiceError"):
        ServiceError("TEAPOT", "short and stout")
    with pytest.raises(ValueError):
        AmicusError("WORKSPACE_FORBIDDEN", "a service's code is not the engine's")
