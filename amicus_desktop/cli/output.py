"""What the command line writes to a terminal: never a control sequence, never an encoding error.

A command prints text that came from outside — a proxy's error message, titles and text from the
database, ids from a golden file, the values of its own arguments in a usage error. Any of them can
hold ``ESC [2J`` (clear the screen), an OSC sequence that retitles the terminal, a lone surrogate
from bytes that were not UTF-8, or characters the terminal's encoding lacks. :func:`safe_streams`
wraps stdout and stderr for the length of a command so that every write, by ``print``, argparse or a
log handler, goes out with control characters escaped (:func:`~amicus_desktop.core.text.escape_controls`:
``\\u001b``, which in a JSON string is the very same character, so ``--json`` output is unchanged)
and characters the stream cannot encode written as ``\\udcff``/``\\xb7`` instead of raising.

Our own terminal drawing (the ``\\r`` of ``build-db``'s progress bar) writes to :func:`raw`; a command that
failed says so with :func:`print_failure`.
"""

from __future__ import annotations

import contextlib
import json
import sys
from collections.abc import Iterator
from typing import Any, Protocol, TextIO

from ..core.text import escape_controls


class SafeText:
    """A text stream over ``stream`` that escapes control characters and never fails to encode."""

    def __init__(self, stream: TextIO) -> None:
        self.raw = stream
        self._encoding = getattr(stream, "encoding", None) or "utf-8"

    def write(self, text: str) -> int:
        safe = escape_controls(text)
        try:
            safe.encode(self._encoding)
        except (UnicodeEncodeError, LookupError):
            safe = safe.encode(self._encoding, "backslashreplace").decode(self._encoding, "replace")
        self.raw.write(safe)
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, fileno, isatty, encoding, buffer …
        return getattr(self.raw, name)


def raw(stream: TextIO) -> TextIO:
    """The stream under a :class:`SafeText` (for the app's own terminal drawing), or ``stream`` itself."""
    return stream.raw if isinstance(stream, SafeText) else stream


@contextlib.contextmanager
def safe_streams() -> Iterator[None]:
    """``sys.stdout`` and ``sys.stderr`` wrapped in :class:`SafeText` until the block ends."""
    out, err = sys.stdout, sys.stderr
    sys.stdout = SafeText(out) if out is not None and not isinstance(out, SafeText) else out
    sys.stderr = SafeText(err) if err is not None and not isinstance(err, SafeText) else err
    try:
        yield
    finally:
        sys.stdout, sys.stderr = out, err


class Failure(Protocol):
    """What a command reports when it fails: an ``AmicusError`` or any error with the contract's failure object."""

    def to_json(self) -> dict[str, dict[str, str]]: ...


def print_failure(err: Failure, *, as_json: bool) -> int:
    """The failure object on stdout (``--json``), else ``error: CODE: message`` on stderr; the exit code, 1."""
    if as_json:
        print(json.dumps(err.to_json(), ensure_ascii=False))
    else:
        failure = err.to_json()["error"]
        print(f"error: {failure['code']}: {failure['message']}", file=sys.stderr)
    return 1
