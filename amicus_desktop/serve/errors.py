"""The service's errors: each code of CONTRACT sections 5 and 9 with its HTTP status. No Qt, no I/O.

The engine raises :class:`~amicus_desktop.core.errors.AmicusError` with a section-5 code; the service
adds the codes only a service has (a token, a workspace, a rate, an unknown parameter…). Both become a
:class:`ServiceError` (an ``AmicusError`` too: one tree, one code whoever classifies it), which the HTTP app
turns into ``{"error": {"code", "message"}, "trace_id"}`` with :data:`STATUS`'s status and the MCP server
into a tool error whose text begins with the code. A message is a sentence for a person; it never holds
the question, a token or a note.
"""

from __future__ import annotations

import enum

from ..core.errors import AmicusError, ErrorCode
from ..notes.errors import NotesCode


class ServiceCode(enum.StrEnum):
    """Codes of CONTRACT section 9 beyond section 5's, and the plain HTTP refusals."""

    BAD_REQUEST = "BAD_REQUEST"
    QUERY_TOO_LONG = "QUERY_TOO_LONG"
    UNAUTHORIZED = "UNAUTHORIZED"
    WORKSPACE_FORBIDDEN = "WORKSPACE_FORBIDDEN"
    OVERLAY_NOT_FOUND = "OVERLAY_NOT_FOUND"
    RATE_LIMITED = "RATE_LIMITED"
    INTERNAL = "INTERNAL"
    #: project extension: an overlay file that stopped being a valid overlay after the service started
    OVERLAY_INVALID = "OVERLAY_INVALID"
    #: project extension: a service started with --require-overlay, asked without one (CONTRACT section 12)
    NO_OVERLAY = "NO_OVERLAY"
    #: project extension: ``read_passage`` (MCP) on a passage the library holds no verses for
    PASSAGE_NOT_FOUND = "PASSAGE_NOT_FOUND"
    #: project extension: ``POST /retrieve`` with a body over 1 MiB, or not JSON
    BODY_TOO_LARGE = "BODY_TOO_LARGE"
    UNSUPPORTED_MEDIA_TYPE = "UNSUPPORTED_MEDIA_TYPE"
    NOT_FOUND = "NOT_FOUND"
    METHOD_NOT_ALLOWED = "METHOD_NOT_ALLOWED"
    #: the Host check's refusal (DNS rebinding; :mod:`amicus_desktop.http.guards`)
    HOST_NOT_ALLOWED = "HOST_NOT_ALLOWED"
    #: project extension (MCP, section 10): a ``cursor`` whose ranking changed or that other arguments made
    CURSOR_STALE = "CURSOR_STALE"
    #: project extension (MCP, section 10): ``add_note`` on a server started without ``--allow-writes``
    WRITES_DISABLED = "WRITES_DISABLED"
    #: project extension (MCP, section 10): a notes tool on a server started without ``--workspace``
    NO_WORKSPACE = "NO_WORKSPACE"


#: Seconds a client waits before asking again after ``NOTES_STORE_BUSY`` or ``DB_UNAVAILABLE`` (503).
NOTES_RETRY_AFTER = 1
#: The codes whose 503 says when to ask again (a restarted database or a full pool is back in seconds).
RETRY_CODES = frozenset({NotesCode.NOTES_STORE_BUSY, ErrorCode.DB_UNAVAILABLE})

#: HTTP status of every code (CONTRACT section 9's table, then the plain HTTP refusals).
STATUS: dict[str, int] = {
    ErrorCode.QUERY_INVALID: 400,
    ServiceCode.BAD_REQUEST: 400,
    ServiceCode.NO_OVERLAY: 400,
    ServiceCode.NO_WORKSPACE: 400,
    ServiceCode.WRITES_DISABLED: 403,
    ServiceCode.CURSOR_STALE: 409,
    ServiceCode.UNAUTHORIZED: 401,
    ServiceCode.WORKSPACE_FORBIDDEN: 403,
    ServiceCode.HOST_NOT_ALLOWED: 403,
    ErrorCode.DB_NOT_FOUND: 404,
    ServiceCode.OVERLAY_NOT_FOUND: 404,
    ServiceCode.PASSAGE_NOT_FOUND: 404,
    ServiceCode.NOT_FOUND: 404,
    ServiceCode.METHOD_NOT_ALLOWED: 405,
    ErrorCode.DIMENSION_MISMATCH: 409,
    ErrorCode.MODEL_MISMATCH: 409,
    ErrorCode.VERSES_NOT_INDEXED: 409,
    ServiceCode.QUERY_TOO_LONG: 413,
    ServiceCode.BODY_TOO_LARGE: 413,
    ServiceCode.UNSUPPORTED_MEDIA_TYPE: 415,
    ServiceCode.RATE_LIMITED: 429,
    ErrorCode.DB_INVALID: 500,
    NotesCode.NOTES_STORE_INVALID: 500,
    NotesCode.NOTES_STORE_BUSY: 503,
    ErrorCode.EXTENSION_NOT_LOADED: 500,
    ServiceCode.INTERNAL: 500,
    ServiceCode.OVERLAY_INVALID: 500,
    ErrorCode.OFFLINE: 503,
    ErrorCode.EMBED_FAILED: 503,
    ErrorCode.DB_UNAVAILABLE: 503,
    # the request limits of the HTTP layer (amicus_desktop.http.limits, proxy.server.RequestLimits)
    "HEADERS_TOO_LARGE": 431,
    "HTTP_VERSION_NOT_SUPPORTED": 505,
}


class ServiceError(AmicusError):
    """A refusal or failure with a code, its status and a sentence; ``headers`` go on the HTTP answer.

    In the one error tree (:mod:`amicus_desktop.core.errors`): its code is a :class:`ServiceCode`, or the engine's
    (:class:`~amicus_desktop.core.errors.ErrorCode`, :class:`~amicus_desktop.notes.errors.NotesCode`) when the
    engine's error is what the service answers (:meth:`of`)."""

    codes = (ErrorCode, NotesCode, ServiceCode)

    def __init__(self, code: enum.StrEnum | str, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(code, message)
        self.headers = headers or {}

    @property
    def status(self) -> int:
        return STATUS.get(self.code, 500)

    @classmethod
    def of(cls, err: AmicusError) -> ServiceError:
        """The engine's error as the service answers it (the same code and sentence; a service error as it is); a
        busy notes store or an unavailable library database says when to ask again (``Retry-After``: a restarted
        database or a full pool is back in seconds)."""
        if isinstance(err, ServiceError):
            return err
        if err.code in RETRY_CODES:
            return cls(err.code, err.message, {"Retry-After": str(NOTES_RETRY_AFTER)})
        return cls(err.code, err.message)

    def __repr__(self) -> str:
        return f"ServiceError({self.code}, {self.message!r})"


def bad_request(message: str) -> ServiceError:
    return ServiceError(ServiceCode.BAD_REQUEST, message)


def internal() -> ServiceError:
    """An unexpected failure, said without its details (they stay out of the answer and the log)."""
    return ServiceError(ServiceCode.INTERNAL, "The service failed unexpectedly; the failure is in its log "
                        "under this answer's trace id.")
