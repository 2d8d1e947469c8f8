"""The one error tree of Amicus Desktop: :class:`AmicusError`, carrying a code of the contract.

Hierarchy (httpx's exception tree is the model: catch the base for "any failure the contract names",
a subclass for one part's; the *code* is what callers branch on)::

    Exception
     └── AmicusError(code, message)               a code of the contract and a sentence for a person
          │  code ∈ ErrorCode (CONTRACT section 5):
          │    QUERY_INVALID                      no I/O happened
          │    DB_NOT_FOUND / EXTENSION_NOT_LOADED / DB_INVALID     the database
          │    DB_UNAVAILABLE                     a library's database server cannot answer now: try again
          │    OFFLINE                            the proxy could not be reached (transport)
          │    EMBED_FAILED                       the proxy answered, but badly
          │    DIMENSION_MISMATCH / MODEL_MISMATCH                   the vector does not fit the DB
          │    VERSES_NOT_INDEXED                 verse search by meaning, on a DB without verse vectors
          ├── NotesError(code, message)           the reader's notes (CONTRACT section 11;
          │                                       amicus_desktop.notes.errors): code ∈ NotesCode —
          │                                       NOTES_STORE_INVALID (damaged: move it aside),
          │                                       NOTES_STORE_BUSY (another writer holds it: try again), …
          ├── BackendError(message, status, code) an embedder could not make vectors (amicus_desktop.embedding):
          │    │                                  code ∈ ProxyCode or ErrorCode, the proxy's answer (section 2)
          │    └── BackendUnavailable, UpstreamError, UpstreamRateLimited
          ├── ProxyError(status, code, message)   a request the embed proxy refuses (amicus_desktop.proxy.server)
          └── ServiceError(code, message)         what the retrieval service answers (amicus_desktop.serve.errors):
                                                  code ∈ ServiceCode, ErrorCode or NotesCode, with its status

So the window, the command line and the service classify a failure the same way: by its code (a string of
the contract: each code is a member of a ``StrEnum``, which a subclass names in :attr:`AmicusError.codes`). The
window answers from the library when only the notes failed (:attr:`AmicusError.notes_only`) and says so
in a banner; the command line prints ``{"error": {"code", "message"}}``; the service answers the code's
status. The error is raised at the edge where the cause is known (the store, the embed client, the
notes store). Its message is a sentence for a human that says what happened and what to do; it never
holds the query text, a note's text, a token or a key. Other exceptions belong to one package each (a
golden set that does not parse, a backend failing inside the proxy, an export that cannot be written)
and are handled where that package is used; none of them crosses the contract.
"""

from __future__ import annotations

import enum
from typing import ClassVar


class ErrorCode(enum.StrEnum):
    """Error codes of CONTRACT section 5, in the order in which checks run."""

    QUERY_INVALID = "QUERY_INVALID"
    DB_NOT_FOUND = "DB_NOT_FOUND"
    EXTENSION_NOT_LOADED = "EXTENSION_NOT_LOADED"
    DB_INVALID = "DB_INVALID"
    #: project extension (CONTRACT section 4, the library on PostgreSQL): its server cannot answer now (restarting,
    #: down, too many connections, a statement cancelled by its timeout) — try again; the next call connects again
    DB_UNAVAILABLE = "DB_UNAVAILABLE"
    OFFLINE = "OFFLINE"
    EMBED_FAILED = "EMBED_FAILED"
    DIMENSION_MISMATCH = "DIMENSION_MISMATCH"
    MODEL_MISMATCH = "MODEL_MISMATCH"
    #: verse search (CONTRACT section 14): a database without the verses' vectors (or without verses)
    VERSES_NOT_INDEXED = "VERSES_NOT_INDEXED"

    @property
    def is_database(self) -> bool:
        """Whether the database (not the proxy, not the question) is what is unusable: missing,
        without its extension, invalid, or (a database server) unavailable now."""
        return self in _DATABASE_CODES


_DATABASE_CODES = frozenset({ErrorCode.DB_NOT_FOUND, ErrorCode.EXTENSION_NOT_LOADED, ErrorCode.DB_INVALID,
                             ErrorCode.DB_UNAVAILABLE})


class AmicusError(Exception):
    """A failure with a contract error code and a human sentence.

    ``retryable`` marks errors worth one more try by the embed client (transport failures and
    bad answers); ``retry_after`` carries a server's ``Retry-After`` hint in seconds.
    """

    #: the contract's code: an :class:`ErrorCode` here, a subclass's own codes in a subclass
    code: enum.StrEnum
    #: where a code given as a string is looked up, in order (a subclass adds its own)
    codes: ClassVar[tuple[type[enum.StrEnum], ...]] = (ErrorCode,)

    def __init__(
        self,
        code: enum.StrEnum | str,
        message: str,
        *,
        retryable: bool = False,
        retry_after: float | None = None,
    ) -> None:
        super().__init__(message)
        self.code = self.code_of(code)
        self.message = message
        self.retryable = retryable
        self.retry_after = retry_after

    @classmethod
    def code_of(cls, code: enum.StrEnum | str) -> enum.StrEnum:
        """``code`` as a member of one of :attr:`codes` (a member is kept as it is); ``ValueError`` for a string
        none of them has."""
        if isinstance(code, enum.StrEnum):
            return code
        for kind in cls.codes:
            try:
                return kind(code)
            except ValueError:
                continue
        raise ValueError(f"{code!r} is not a code of {cls.__name__}")

    @property
    def is_database(self) -> bool:
        """Whether the library is what is unusable (missing, without its extension, invalid)."""
        return isinstance(self.code, ErrorCode) and self.code.is_database

    @property
    def notes_only(self) -> bool:
        """Whether only the reader's notes failed: the library can still answer (a subclass says so)."""
        return False

    def to_json(self) -> dict[str, dict[str, str]]:
        """The contract's failure object: ``{"error": {"code": ..., "message": ...}}``."""
        return {"error": {"code": self.code.value, "message": self.message}}

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.code.value}, {self.message!r})"
