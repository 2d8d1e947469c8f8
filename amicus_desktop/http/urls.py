"""URLs a person gives the app: checked before any use, and shown or logged only redacted. No Qt.

The one home of two rules that every HTTP client and server of the project follows (the embed
client, the settings, ``doctor``, the log, the proxy, and the retrieval service to come):

* :func:`url_problem` / :func:`check_url` — whether a base URL can be used at all: ``http://`` or
  ``https://``, a host, a port from 1 to 65535, a valid IPv4 or IPv6 literal, no spaces or control
  characters, at most :data:`MAX_URL_CHARS`. httpx and the socket layer raised their own exceptions
  (``InvalidURL``, ``OverflowError``) for such URLs, which escaped as tracebacks;
* :func:`redact_url` / :func:`redact_urls` — a URL as it may be shown or logged: the user-info
  (``user:password@``) and the values of secret-looking query or fragment parameters (``token``,
  ``key``, ``api_key``, ``password``, ``secret``, ``sig`` …) replaced by ``***``.
"""

from __future__ import annotations

import ipaddress
import re
from urllib.parse import urlsplit

from ..core.text import echo

#: the longest base URL accepted (a proxy address is a few dozen characters; browsers cap at ~2k).
MAX_URL_CHARS = 2048
SCHEMES = ("http", "https")

#: A query or fragment parameter whose name holds one of these is a secret: its value is masked.
SECRET_NAME_PARTS = ("token", "key", "secret", "password", "passwd", "pwd", "pass", "sig", "auth",
                     "credential", "session", "cookie")
MASK = "***"

_USERINFO = re.compile(r"(?<=://)[^/?#@\s]*@")
_PARAM = re.compile(r"(?P<lead>^|[?&;#])(?P<name>[^=&;#?\s]+)=(?P<value>[^&;#\s]*)")
_URL_IN_TEXT = re.compile(r"\b[A-Za-z][A-Za-z0-9+.-]*://[^\s\"'<>]+")
_BAD_CHARS = re.compile(r"[\s\x00-\x1f\x7f-\x9f]")


def _is_secret(name: str) -> bool:
    lowered = name.lower()
    return any(part in lowered for part in SECRET_NAME_PARTS)


def _mask_params(text: str) -> str:
    def mask(m: re.Match[str]) -> str:
        if not _is_secret(m.group("name")) or not m.group("value"):
            return m.group(0)
        return f"{m.group('lead')}{m.group('name')}={MASK}"

    return _PARAM.sub(mask, text)


def redact_url(url: str) -> str:
    """``url`` safe to show or log: ``http://***@host/?token=***&q=1`` (a URL that does not parse is
    redacted just the same, as text)."""
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    return _USERINFO.sub(f"{MASK}@", url[:cut]) + _mask_params(url[cut:])


def redact_urls(text: str) -> str:
    """Every URL inside ``text`` (a log line, an error message) redacted by :func:`redact_url`."""
    return _URL_IN_TEXT.sub(lambda m: redact_url(m.group(0)), text)


def url_problem(url: object) -> str | None:
    """What makes ``url`` unusable as the base URL of an HTTP service, or ``None`` when it is fine.

    The answer completes a sentence about the URL ("… is not valid: the port 99999 is not from 1
    to 65535"); it never repeats the URL's user-info or secrets.
    """
    if not isinstance(url, str) or not url.strip():
        return "is empty"
    url = url.strip()
    if len(url) > MAX_URL_CHARS:
        return f"is {len(url):,} characters long; the limit is {MAX_URL_CHARS:,}"
    if _BAD_CHARS.search(url):
        return "holds spaces or control characters"
    try:
        parts = urlsplit(url)
    except ValueError as exc:  # "Invalid IPv6 URL": an unclosed bracket
        return f"cannot be read ({echo(str(exc))})"
    if parts.scheme.lower() not in SCHEMES:
        return "must start with http:// or https://"
    if not parts.hostname:
        return "names no host"
    try:
        port = parts.port
    except ValueError:
        return f"has a port that is not a number from 1 to 65535 ({echo(parts.netloc.rpartition(':')[2], 12)})"
    if port is not None and not 1 <= port <= 65535:
        return f"has port {port}, not a number from 1 to 65535"
    host = parts.hostname
    if re.fullmatch(r"[\d.]+", host) or ":" in host:
        try:
            ipaddress.ip_address(host)
        except ValueError:
            return f"has a host that is not a valid IP address ({echo(host, 45)})"
    import httpx  # here, not at the top: the log's redaction imports this module and needs no httpx

    try:
        httpx.URL(url)  # IDNA host names and the rest of what the client will require
    except (httpx.InvalidURL, ValueError) as exc:
        return f"cannot be used ({echo(redact_urls(str(exc)))})"
    return None


def check_url(url: str) -> str:
    """``url`` stripped and without a trailing ``/``, or ``ValueError`` saying what is wrong."""
    problem = url_problem(url)
    if problem is not None:
        raise ValueError(f"the address {echo(redact_url(str(url)))} {problem}")
    return url.strip().rstrip("/")
