"""``amicus-desktop serve``'s start-up rules: who may call it, where it may listen (CONTRACT section 9)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from amicus_desktop.serve.access import Access, Client, ClientsError, configured_clients, read_clients
from amicus_desktop.serve.errors import ServiceError
from tests.support.cli import run
from tests.support.dbs import build_db, demo_like_chunks
from tests.support.proxy import free_port
from tests.support.serve import ServeProcess


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return build_db(tmp_path / "s.db", demo_like_chunks(dims=8))


def test_refuses_a_non_loopback_address_without_a_token(db: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AMICUS_SERVE_TOKEN", raising=False)
    code, out, err = run("serve", "--db", str(db), "--host", "0.0.0.0", "--port", str(free_port()))
    assert code == 2 and out == ""
    assert "refusing to listen on 0.0.0.0 without a token" in err and "--insecure-no-token" in err


@pytest.mark.parametrize("how", ["token", "insecure"])
def test_listens_beyond_loopback_with_a_token_or_when_told(db: Path, how: str) -> None:
    args = ("--insecure-no-token",) if how == "insecure" else ()
    env = {"AMICUS_SERVE_TOKEN": "tok-abc-123-def-456"} if how == "token" else {}
    with ServeProcess(db, f"http://127.0.0.1:{free_port()}", *args, host="0.0.0.0", env=env) as serve:
        q = {"q": "grace", "mode": "keyword"}
        status = serve.get(params=q).status_code  # Host: 0.0.0.0:PORT, not a loopback name
        # with a token the token is the guard; without one, only requests naming a loopback host pass
        assert status == (401 if how == "token" else 403)
        if how == "insecure":
            assert serve.get(params=q, headers={"Host": f"localhost:{serve.port}"}).status_code == 200
        assert ("without a token" in serve.log_text()) is (how == "insecure")


@pytest.mark.parametrize(("content", "words"), [
    ("{not json", "not valid JSON"),
    ('{"clients": {}}', 'expected {"clients"'),
    ('{"clients": [{"workspaces": ["a"]}]}', "/clients/0/token: missing"),
    ('{"clients": [{"token": "has spaceQX", "workspaces": []}]}', "/clients/0/token: the token holds spaces"),
    ('{"clients": [{"token": "tok-DUP-77", "workspaces": ["Alice"]}]}', "/clients/0/workspaces/0"),
    ('{"clients": [{"token": "tok-DUP-77"}, {"token": "tok-DUP-77"}]}', "the same token is given twice"),
    # a misspelt key was ignored: the client then had no workspace at all (issue 30, item 10)
    ('{"clients": [{"token": "tok-DUP-77", "workspace": ["alice"]}]}',
     "/clients/0: unknown key 'workspace' (the keys are: token, workspaces)"),
    ('{"clients": [], "client": []}', "unknown key 'client' (the keys are: clients)"),
])
def test_refuses_a_clients_file_it_cannot_use(db: Path, tmp_path: Path, content: str, words: str) -> None:
    clients = tmp_path / "clients.json"
    clients.write_text(content)
    code, out, err = run("serve", "--db", str(db), "--clients", str(clients), "--port", str(free_port()))
    assert code == 2 and out == "" and words in err, err
    assert "tok-DUP-77" not in err and "spaceQX" not in err  # a token is never repeated


@pytest.mark.parametrize("where", ["variable", "file"])
def test_a_short_token_is_refused_beyond_this_machine_only(db: Path, tmp_path: Path, where: str,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A 1-character token was accepted on 0.0.0.0 (issue 30, item 10): anyone on the network could guess it."""
    monkeypatch.delenv("AMICUS_SERVE_TOKEN", raising=False)
    clients = tmp_path / "clients.json"
    clients.write_text(json.dumps({"clients": [{"token": "long-enough-token-1", "workspaces": []},
                                               {"token": "shortQX7", "workspaces": []}]}))
    if where == "variable":
        monkeypatch.setenv("AMICUS_SERVE_TOKEN", "x")
    args = () if where == "variable" else ("--clients", str(clients))
    code, out, err = run("serve", "--db", str(db), "--host", "0.0.0.0", "--port", str(free_port()), *args)
    assert code == 2 and out == "", err
    said = "$AMICUS_SERVE_TOKEN is 1 character long" if where == "variable" else "client 2 is 8 characters long"
    assert said in err and "at least 16 characters" in err and "shortQX7" not in err
    # on this machine only, a short token is the reader's own business: it starts
    env = {"AMICUS_SERVE_TOKEN": "x"} if where == "variable" else {}
    with ServeProcess(db, f"http://127.0.0.1:{free_port()}", *args, env=env) as serve:
        assert serve.get(params={"q": "grace", "mode": "keyword"}).status_code == 401


def test_refuses_an_unusable_token_variable_or_overlays_folder(db: Path, tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AMICUS_SERVE_TOKEN", "two words")
    code, _, err = run("serve", "--db", str(db), "--port", str(free_port()))
    assert code == 2 and "AMICUS_SERVE_TOKEN" in err and "two words" not in err
    monkeypatch.delenv("AMICUS_SERVE_TOKEN")
    code, _, err = run("serve", "--db", str(db), "--overlays", str(tmp_path / "none"), "--port", str(free_port()))
    assert code == 2 and "is not a folder" in err


def test_tokens_and_workspaces(tmp_path: Path) -> None:
    clients = tmp_path / "c.json"
    clients.write_text(json.dumps({"clients": [{"token": " t-alice ", "workspaces": ["alice"]},
                                               {"token": "t-none"}]}))
    entries = configured_clients(clients, {"AMICUS_SERVE_TOKEN": "t-admin"})
    access = Access(entries)
    assert access.required
    admin, alice, none = (access.authenticate(f"Bearer {t}") for t in ("t-admin", "t-alice", "t-none"))
    assert admin.may_use("anything") and alice.may_use("alice") and not alice.may_use("bob")
    assert not none.may_use("alice")
    Access.permit(alice, "alice")
    Access.permit(none, None)
    for bad in (None, "", "Bearer", "Bearer  ", "Token t-admin", "Bearer t-admin2", "bearer t-alice2"):
        with pytest.raises(ServiceError) as info:
            access.authenticate(bad)
        assert info.value.code == "UNAUTHORIZED" and info.value.status == 401
    assert access.authenticate("bearer t-alice").label == alice.label  # the scheme is case-insensitive
    with pytest.raises(ServiceError) as info:
        Access.permit(alice, "bob")
    assert info.value.status == 403
    assert Access().authenticate(None).may_use("x")  # no token configured: anyone, any workspace
    with pytest.raises(ClientsError):
        read_clients(tmp_path / "missing.json")


def test_rate_is_per_client(monkeypatch: Any) -> None:
    access = Access([("a", Client("a")), ("b", Client("b"))], rate_per_minute=2)
    a, b = Client("a"), Client("b")
    access.admit(a, None)
    access.admit(a, None)
    with pytest.raises(ServiceError) as info:
        access.admit(a, None)
    assert info.value.status == 429 and int(info.value.headers["Retry-After"]) >= 1
    access.admit(b, None)
