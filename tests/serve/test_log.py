"""The service's log line (CONTRACT section 9): method, path without its query string, status, duration and
trace id — never the question, a token or a query string. Read from the real log file of a real process."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

from tests.support.serve import ServeProcess

QUESTION = "Where does Onesiphorus keep his secret prayer list"
TOKEN = "tok-Zx81-never-log-me"

LINE = re.compile(r"amicus\.serve: (?P<method>[A-Z]+) (?P<path>\S+) (?P<status>\d{3}) (?P<ms>[\d.]+) ms "
                  r"trace_id=(?P<trace>[0-9a-f]+)$")


def _lines(serve: ServeProcess, traces: set[str]) -> list[dict[str, str]]:
    deadline = time.monotonic() + 10
    while True:  # a line is written after its answer is sent: wait for each, never sleep-and-hope
        found = [m.groupdict() for m in map(LINE.search, serve.log_text().splitlines()) if m]
        if traces <= {line["trace"] for line in found} or time.monotonic() > deadline:
            return found
        time.sleep(0.05)


def test_one_line_per_request_without_question_or_token(study_db: Path, local_proxy: Any) -> None:
    with ServeProcess(study_db, local_proxy.url, env={"AMICUS_SERVE_TOKEN": TOKEN}) as serve:
        auth = {"Authorization": f"Bearer {TOKEN}"}
        answers = [
            serve.get(params={"q": QUESTION, "k": 3}, headers=auth),
            serve.get(params={"q": QUESTION, "k": 99}, headers=auth),
            serve.get(params={"q": QUESTION}, headers={"Authorization": "Bearer tok-wrong-Onesiphorus"}),
            serve.get("/health"),
            serve.get("/nowhere", params={"q": QUESTION}),
        ]
        lines = _lines(serve, {a.headers["x-trace-id"] for a in answers})
        text = serve.log_text()
    assert [a.status_code for a in answers] == [200, 400, 401, 200, 404]
    by_trace = {line["trace"]: line for line in lines}
    for answer in answers:
        line = by_trace[answer.headers["x-trace-id"]]
        assert line["status"] == str(answer.status_code) and line["method"] == "GET"
        assert float(line["ms"]) >= 0 and "?" not in line["path"]
    assert [by_trace[a.headers["x-trace-id"]]["path"] for a in answers[:4]] == ["/retrieve"] * 3 + ["/health"]
    assert by_trace[answers[4].headers["x-trace-id"]]["path"] == "/nowhere"
    assert "Onesiphorus" not in text and "prayer list" not in text and "q=" not in text
    assert TOKEN not in text and "tok-wrong" not in text
