"""A tool call that checks what it gets: every structured result against the tool's published output schema
(jsonschema, as the suite checks bundles), and the result's own size report against the token estimate."""

from __future__ import annotations

import json
from typing import Any

from jsonschema import Draft202012Validator
from mcp import ClientSession

from amicus_desktop.mcp.sizing import estimate

#: results checked in this run (the figure the docs quote)
CHECKED = {"results": 0}


class Tools:
    """Calls tools on ``session`` and validates each answer that is not an error."""

    def __init__(self, session: ClientSession) -> None:
        self.session = session
        self.validators: dict[str, Draft202012Validator] = {}

    async def start(self) -> Tools:
        for tool in (await self.session.list_tools()).tools:
            assert tool.output_schema is not None, tool.name
            Draft202012Validator.check_schema(tool.output_schema)
            self.validators[tool.name] = Draft202012Validator(tool.output_schema)
        return self

    async def call(self, tool: str, arguments: dict[str, Any]) -> Any:
        result = await self.session.call_tool(tool, arguments)
        if not result.is_error:
            data = result.structured_content
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}"
                      for e in self.validators[tool].iter_errors(data)]
            assert not errors, (tool, arguments, errors[:5])
            text = result.content[0].text
            measured = data["page"]["tokens"]
            assert measured == estimate(text, {**data, "page": {**data["page"], "tokens": 0}}) or \
                abs(measured - estimate(text, data)) <= 2, (tool, measured)
            assert measured <= data["page"]["max_tokens"] or data["page"]["count"] <= 1, (tool, measured)
            CHECKED["results"] += 1
        return result

    async def ok(self, tool: str, arguments: dict[str, Any]) -> dict[str, Any]:
        result = await self.call(tool, arguments)
        assert not result.is_error, (tool, arguments, result.content[0].text)
        data: dict[str, Any] = result.structured_content
        return data

    async def refused(self, tool: str, arguments: dict[str, Any], code: str) -> str:
        result = await self.call(tool, arguments)
        text = str(result.content[0].text)
        assert result.is_error and text.startswith(f"{code}: "), (tool, arguments, text)
        return text


def joined(pages: list[dict[str, Any]], key: str) -> list[Any]:
    return [item for p in pages for item in p[key]]


def as_json(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, sort_keys=True)
