"""The error of the retrieval contract: :class:`AmicusError`, carrying a code from CONTRACT section 5.

Hierarchy (deliberately one class; the *code* is what callers branch on)::

    Exception
     └── AmicusError(code, message)
          code ∈ ErrorCode:
            QUERY_INVALID                      no I/O happened
            DB_NOT_FOUND / EXTENSION_NOT_LOADED / DB_INVALID     the database
            OFFLINE                            the proxy could not be reached (transport)
            EMBED_FAILED                       the proxy answered, but badly
            DIMENSION_MISMATCH / MODEL_MISMATCH                   the vector does not fit the DB
            VERSES_NOT_INDEXED                 verse search by meaning, on a DB without verse vectors

The error is raised at the edge where the cause is known (the store, the embed client). Its
message is a sentence for a human that says what happened and what to do; it never holds the
query text, a token or a key. Other exceptions belong to one package each (a golden set that does
not parse, a backend failing inside the proxy, an export that cannot be written) and are handled
where that package is used; none of them crosses the contract.
"""

from __future__ import annotations

import enum


class ErrorCode(enum.StrEnum):
    """Error codes of CONTRACT section 5, in the order in which checks run."""

    QUERY_INVALID = "QUERY_INVALID"
    DB_NOT_FOUND = "DB_NOT_FOUND"
    EXTENSION_NOT_LOADED = "EXTENSION_NOT_LOADED"
    DB_INVALID = "DB_INVALID"
    OFFLINE = "OFFLINE"
    EMBED_FAILED = "EMBED_FAILED"
    DIMENSION_MISMATCH = "DIMENSION_MISMATCH"
    MODEL_MISMATCH = "MODEL_MISMATCH"
    #: verse search (CONTRACT section 14): a database without the verses' vectors (or without verses)
    VERSES_NOT_INDEXED = "VERSES_NOT_INDEXED"

    @property
    def is_database(self) -> bool:
        """Whether the database (not the proxy, not the question) is what is unusable: missing,
        without its extension, or invalid."""
        return self in _DATABASE_CODES


_DATABASE_CODES = frozenset({ErrorCode.DB_NOT_FOUND, ErrorCode.EXTENSION_NOT_LOADED, ErrorCode.DB_INVALID})


class AmicusError(Exception):
    """A failure with a contract error code and a human sentence.

    ``retryable`` marks errors worth one more try by the embed client (transport failures and
    bad answers); ``retry_after`` carries a server's ``Retry-After`` hint in seconds.
    """

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = ErrorCode(code)
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after

    def to_json(self) -> dict[str, dict[str, str]]:
        """The contract's failure object: ``{"error": {"code": ..., "message": ...}}``."""
        return {"error": {"code": self.code.value, "message": self.message}}

    def __repr__(self) -> str:
        return f"AmicusError({self.code.value}, {self.message!r})"
