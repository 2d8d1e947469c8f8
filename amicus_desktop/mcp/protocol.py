"""What the MCP SDK leaves loose, made strict (CONTRACT section 10). No Qt.

* **Tool arguments are checked against the tool's input schema** as published, with
  ``additionalProperties: false`` added (:class:`ArgumentCheck`). The SDK validates them with
  pydantic in lax mode after "pre-parsing" strings as JSON: ``k=true`` ran as ``k=1``, ``k="5"`` as
  5, and an unknown key (``"workspace": "bob"``) was dropped without a word — a caller that believed
  it searched bob's notes got the server's workspace instead. Here a value the schema does not allow,
  or a key it does not name, is refused before the tool runs; the text says which argument and why.
* **A line on stdin that is not a JSON-RPC message is answered** with the protocol's error
  (:class:`AnsweringStream`): ``-32700`` (parse error) for text that is not JSON, ``-32600`` (invalid
  request) for JSON that is not a message, with ``"id": null`` as JSON-RPC 2.0 says. The SDK's stdio
  transport hands such a line to the server as an exception, which the server dropped in silence, so
  a client waited for an answer that never came.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from types import TracebackType
from typing import Any

import anyio
from jsonschema import Draft202012Validator
from jsonschema.exceptions import ValidationError
from mcp.shared.message import SessionMessage
from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

#: how a value's JSON type is named in a refusal
_KINDS = {bool: "true or false", int: "a number", float: "a number", str: "a string", list: "a list",
          dict: "an object", type(None): "null"}
_EXPECTED = {"integer": "a whole number", "number": "a number", "string": "a string", "boolean": "true or false",
             "array": "a list", "object": "an object", "null": "null"}


def strict(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` (a tool's input schema, changed in place so the published one says it too) with no
    arguments but those it names."""
    schema["additionalProperties"] = False
    return schema


class ArgumentCheck:
    """A tool's arguments against its input schema: :meth:`problem` says what is wrong, or ``None``."""

    def __init__(self, schema: dict[str, Any]) -> None:
        Draft202012Validator.check_schema(schema)
        self._validator = Draft202012Validator(schema)
        self.names: Sequence[str] = tuple(schema.get("properties", {}))

    def problem(self, arguments: dict[str, Any]) -> str | None:
        errors = sorted(self._validator.iter_errors(arguments), key=lambda e: [str(p) for p in e.absolute_path])
        if not errors:
            return None
        unknown = [k for k in arguments if k not in self.names]
        if unknown:
            shown = ", ".join(repr(k if len(k) <= 40 else k[:39] + "…") for k in unknown[:5])
            return f"unknown argument {shown}; the arguments are: {', '.join(self.names)}."
        return _sentence(errors[0])


def _sentence(error: ValidationError) -> str:
    """One schema error as a sentence naming the argument (``filters/book/0``)."""
    if error.validator == "anyOf" and error.context:  # "X or null": say what X wants
        branches = [e for e in error.context if not (isinstance(e.schema, dict) and e.schema.get("type") == "null")]
        if branches:
            return _sentence(max(branches, key=lambda e: len(e.absolute_path)))
    where = "/".join(str(p) for p in error.absolute_path) or "the arguments"
    if error.validator == "required":
        return f"{error.message.split(' ')[0]} is required."
    schema = error.schema if isinstance(error.schema, dict) else {}
    if "enum" in schema:
        return f"{where} must be one of {', '.join(json.dumps(v) for v in schema['enum'])}."
    if error.validator in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                           "minItems", "maxItems"):
        return f"{where}: {error.message[-80:]}."
    expected = _EXPECTED.get(str(schema.get("type")), "what the tool's input schema says")
    return f"{where} must be {expected}, not {_KINDS.get(type(error.instance), 'that')}."


class AnsweringStream:
    """The stdio transport's read stream, answering each line it could not read with the JSON-RPC error
    (the SDK passes such a line on as an exception, and its server drops it)."""

    def __init__(self, inner: Any, write: Any) -> None:
        self._inner = inner
        self._write = write

    @property
    def last_context(self) -> Any:
        """The sender's context of the last message (the SDK's dispatcher asks for it)."""
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> SessionMessage | Exception:
        while True:
            item = await self._inner.receive()
            if not isinstance(item, Exception):
                return item  # type: ignore[no-any-return]
            await self._write.send(SessionMessage(reply_to_unreadable(item)))

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> AnsweringStream:
        return self

    async def __anext__(self) -> SessionMessage | Exception:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> AnsweringStream:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.aclose()


def reply_to_unreadable(error: Exception) -> JSONRPCError:
    """The JSON-RPC error for a line the transport could not read as a message (``error`` says why)."""
    errors = error.errors() if hasattr(error, "errors") else []
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(code=PARSE_ERROR, message="Parse error"))
    return JSONRPCError(jsonrpc="2.0", id=None, error=ErrorData(
        code=INVALID_REQUEST, message="Invalid Request: the line is JSON but not a JSON-RPC 2.0 message"))
