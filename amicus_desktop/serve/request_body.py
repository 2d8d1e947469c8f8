"""``POST /retrieve``'s JSON body (CONTRACT section 9, project extension): the GET parameters as one object.

``{"q": "...", "k": 8, "filter.book": ["rom", "gal"]}`` is the query string ``q=...&k=8&filter.book=rom&
filter.book=gal`` written as JSON: the same names (:data:`~.params.NAMES`), a list where a parameter is
repeatable, a string or a number for each value. :func:`pairs_of` only turns the object into the
``(name, value)`` pairs a query string makes; :func:`~.params.parse` then checks them exactly as it checks
a GET's, so a request asks the same thing, gets the same refusals and the same answer either way. What is
the body's own: its media type (415), its size (413, :data:`MAX_BODY`) and its shape (400: not JSON, not an
object, a list for a parameter that takes one value, a value that is not a string or a number).
"""

from __future__ import annotations

import json
import math
from typing import Any

from starlette.requests import Request

from .errors import ServiceCode, ServiceError, bad_request
from .params import REPEATABLE, shown

#: bytes of body accepted (the embed proxy's limit): 1,000 filter values and a 2,000-character question
#: in any script fit many times over.
MAX_BODY = 1024 * 1024


class _Object(list[tuple[str, Any]]):
    """A JSON object kept as its pairs, in order (a name given twice stays twice: :func:`~.params.parse`
    refuses it as it refuses ``k=1&k=2``)."""


def _refuse_constant(name: str) -> Any:
    raise bad_request(f"The body holds {name}, which is not a JSON number.")


def check_media_type(request: Request) -> None:
    media_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    if media_type != "application/json":
        raise ServiceError(ServiceCode.UNSUPPORTED_MEDIA_TYPE,
                           "Send the body as one JSON object with Content-Type: application/json.")


async def read_body(request: Request, limit: int = MAX_BODY) -> bytes:
    """The body, refusing (413 ``BODY_TOO_LARGE``) more than ``limit`` bytes whatever Content-Length claims."""
    too_large = ServiceError(ServiceCode.BODY_TOO_LARGE, f"The request body is larger than {limit:,} bytes.")
    declared = request.headers.get("content-length")
    if declared is not None and declared.strip().isdigit() and int(declared) > limit:
        raise too_large
    chunks: list[bytes] = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def pairs_of(body: bytes) -> list[tuple[str, str]]:
    """The ``(name, value)`` pairs of a JSON object of parameters (400 ``BAD_REQUEST`` for any other shape)."""
    try:
        data = json.loads(body.decode("utf-8"), object_pairs_hook=_Object, parse_constant=_refuse_constant)
    except (UnicodeDecodeError, ValueError):
        raise bad_request("The body is not JSON: send one JSON object of parameters, such as "
                          '{"q": "justified by faith", "k": 8, "filter.book": ["rom"]}.') from None
    except RecursionError:
        raise bad_request("The body is nested too deeply to be an object of parameters.") from None
    if not isinstance(data, _Object):
        raise bad_request("The body must be one JSON object of parameters (names as GET /retrieve's).")
    pairs: list[tuple[str, str]] = []
    for name, value in data:
        if isinstance(value, list) and not isinstance(value, _Object):
            if name not in REPEATABLE:
                raise bad_request(f"The parameter {shown(name)} takes one value, not a list.")
            pairs += [(name, _text(name, v)) for v in value]
        else:
            pairs.append((name, _text(name, value)))
    return pairs


def _text(name: str, value: Any) -> str:
    """A value as the query string would write it: a string as it is, a number in its shortest form."""
    if isinstance(value, str):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        return str(value)
    if isinstance(value, float) and math.isfinite(value):
        return repr(value)
    raise bad_request(f"The parameter {shown(name)} takes strings or numbers, not "
                      f"{_KINDS.get(type(value), 'that')}.")


_KINDS: dict[type, str] = {bool: "true or false", type(None): "null", _Object: "an object", list: "a list"}

