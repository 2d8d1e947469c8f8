"""URLs checked before use (#20.7) and redacted wherever shown or logged (#20.3)."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from amicus_desktop.http.urls import check_url, redact_url, redact_urls, url_problem
from amicus_desktop.logs import setup_logging, shutdown_logging
from tests.support.cli import run
from tests.support.proxy import free_port

SECRET_URL = "http://reader:hunter2pw@127.0.0.1:{port}/?token=tok-abc123&api_key=k-xyz789&q=keep"
SECRETS = ("hunter2pw", "tok-abc123", "k-xyz789")


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("http://[::1", "cannot be read"),
        ("http://256.256.256.256:1", "not a valid IP address"),
        ("http://localhost:99999", "not a number from 1 to 65535"),
        ("http://localhost:0", "port 0"),
        ("http://localhost:abc", "not a number"),
        ("http://" + "a" * 100_000, "100,007 characters long"),
        ("ftp://localhost", "http:// or https://"),
        ("http://", "names no host"),
        ("http://exa mple.com", "spaces or control characters"),
        ("http://local\x1bhost", "spaces or control characters"),
        ("", "empty"),
    ],
)
def test_a_url_that_cannot_work_says_why(url: str, says: str) -> None:
    problem = url_problem(url)
    assert problem is not None and says in problem and len(problem) < 200
    with pytest.raises(ValueError, match=says):
        check_url(url)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8731", "https://api.openai.com/v1/", "http://[::1]:8731",
                                 "http://localhost", "http://user:pw@host:1/p?token=x"])
def test_usable_urls_pass(url: str) -> None:
    assert url_problem(url) is None
    assert check_url(url) == url.rstrip("/")


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        ("http://user:pw@host:1/p?token=x&a=b", "http://***@host:1/p?token=***&a=b"),
        ("http://host/?api_key=k&key=v&sig=s&X-Amz-Signature=z&password=p&secret=q&q=1",
         "http://host/?api_key=***&key=***&sig=***&X-Amz-Signature=***&password=***&secret=***&q=1"),
        ("http://host/#access_token=abc", "http://host/#access_token=***"),
        ("http://[::1", "http://[::1"),  # unparseable: still redacted as text, never a crash
        ("http://u:p@[::1/?token=t", "http://***@[::1/?token=***"),
        ("http://127.0.0.1:8731", "http://127.0.0.1:8731"),
    ],
)
def test_redaction_masks_user_info_and_secret_values(url: str, shown: str) -> None:
    assert redact_url(url) == shown
    assert redact_urls(f"failed at {url} today") == f"failed at {shown} today"


def test_no_password_or_token_of_the_proxy_url_reaches_a_message_or_the_log(
    small_db: Path, amicus_home: Path
) -> None:
    """#20.3: ``http://user:pw@host/`` was printed by ``query`` and ``doctor`` and written to the log."""
    url = SECRET_URL.format(port=free_port())
    code, out, err = run("query", "grace", "--db", str(small_db), "--proxy", url, "--json")
    assert code == 1 and json.loads(out)["error"]["code"] == "OFFLINE"
    code, out2, err2 = run("query", "grace", "--db", str(small_db), "--proxy", url)
    code, out3, err3 = run("doctor", "--db", str(small_db), "--proxy", url)
    shown = out + err + out2 + err2 + out3 + err3
    assert "***@127.0.0.1" in shown
    assert not any(s in shown for s in SECRETS), shown
    setup_logging(log_dir=amicus_home / "logs", stderr_level=None)
    try:
        logging.getLogger("amicus.test").warning("proxy at %s failed", url, extra={"url": url})
    finally:
        shutdown_logging()
    log = (amicus_home / "logs" / "amicus-desktop.log").read_text()
    assert "***@127.0.0.1" in log and not any(s in log for s in SECRETS), log


@pytest.mark.parametrize("url", ["http://[::1", "http://256.256.256.256:1", "http://localhost:99999",
                                 "http://" + "a" * 100_000])
def test_a_malformed_proxy_url_is_a_clear_error_and_keyword_search_still_works(
    small_db: Path, url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """#20.7: these crashed even keyword mode, through the flag, AMICUS_PROXY_URL, doctor and eval --compare."""
    for via_env in (False, True):
        flag = [] if via_env else ["--proxy", url]
        if via_env:
            monkeypatch.setenv("AMICUS_PROXY_URL", url)
        code, out, err = run("query", "grace", "--db", str(small_db), "--mode", "keyword", *flag, "--json")
        assert code == 0 and json.loads(out)["results"], err
        code, out, err = run("query", "grace", "--db", str(small_db), *flag, "--json")
        error = json.loads(out)["error"]
        assert code == 1 and error["code"] == "OFFLINE" and "address" in error["message"]
        assert len(error["message"]) < 400 and "Traceback" not in err
        code, out, err = run("doctor", "--db", str(small_db), *flag)
        assert code == 1 and "address" in out and "Traceback" not in out + err
        monkeypatch.delenv("AMICUS_PROXY_URL", raising=False)
