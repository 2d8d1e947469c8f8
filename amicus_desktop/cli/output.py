"""What the command line writes to a terminal: never a control sequence, never an encoding error.

A command prints text that came from outside — a proxy's error message, titles and text from the
database, ids from a golden file, the values of its own arguments in a usage error. Any of them can
hold ``ESC [2J`` (clear the screen), an OSC sequence that retitles the terminal, a lone surrogate
from bytes that were not UTF-8, or characters the terminal's encoding lacks. :func:`safe_streams`
wraps stdout and stderr for the length of a command so that every write, by ``print``, argparse or a
log handler, goes out with control characters escaped (:func:`~amicus_desktop.core.text.escape_controls`:
``\\u001b``, which in a JSON string is the very same character, so ``--json`` output is unchanged)
and characters the stream cannot encode written as ``\\udcff``/``\\xb7`` instead of raising.

Our own terminal drawing (the ``\\r`` of ``build-db``'s progress bar) writes to :func:`raw`.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator
from typing import Any, TextIO

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
