"""What a language model reads from each tool: plain text with citations (the structured content is data)."""

from __future__ import annotations

from typing import Any

#: how many characters of a snippet the numbered list repeats under each title
LIST_SNIPPET = 200


def results_list(body: dict[str, Any]) -> str:
    """A section-9 body as a numbered list: title, citation, score (and pinned), a snippet; then warnings."""
    results = body.get("results", [])
    mode = body.get("mode", "")
    lines = [f"{len(results)} result{'s' * (len(results) != 1)} ({mode} search) for: {body.get('query', '')}"]
    for r in results:
        pinned = ", pinned" if r.get("pinned") else ""
        lines += ["", f"{r['rank']}. {r['title']}",
                  f"   {r['citation']} · score {r['score']:.3f}{pinned} · id {r['id']}"]
        if r.get("snippet"):
            snip = r["snippet"]
            lines.append(f"   {snip if len(snip) <= LIST_SNIPPET else snip[: LIST_SNIPPET - 1] + '…'}")
    for w in body.get("warnings", []):
        lines += ["", f"warning ({w['code']}): {w['message']}"]
    return "\n".join(lines)
