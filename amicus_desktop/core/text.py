"""Text that came from outside, made safe to show: control characters escaped, echoes bounded. No I/O.

A proxy's error message, a model id, a title from the database or a value typed on the command line
can hold anything: an ESC that clears the terminal (``\\x1b[2J``), an OSC sequence that retitles it,
three megabytes of one id. Whatever shows such text to a person goes through here:

* :func:`escape_controls` — C0 and C1 control characters (ESC, OSC, CSI, DEL …; newline and tab are
  kept) written as ``\\u001b``: visible, inert, and in a JSON string the very same character;
* :func:`echo` — one value quoted back in a sentence: control characters escaped, at most ``limit``
  characters (with an ellipsis), so a message stays a sentence.
"""

from __future__ import annotations

import re

#: C0 controls but tab and newline, DEL, and the C1 controls (U+0080–U+009F; U+009B is a CSI).
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
#: the longest echo of an outside value inside a message, in characters
ECHO_LIMIT = 80


def escape_controls(text: str) -> str:
    """``text`` with every control character but ``\\n`` and ``\\t`` written as ``\\uXXXX``."""
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group(0)):04x}", text)


def echo(value: object, limit: int = ECHO_LIMIT) -> str:
    """``value`` as a message may quote it: its text, control characters escaped, at most ``limit``
    characters (cut with "…"). Lone surrogates are escaped too (``\\udcff``), so the result always
    encodes as UTF-8."""
    text = value if isinstance(value, str) else repr(value)
    if len(text) > limit:
        text = text[: limit - 1] + "…"
    text = escape_controls(text)
    return text.encode("utf-8", "backslashreplace").decode("utf-8")
