"""What a language model reads from each tool: plain text with citations (the structured content is data).

Each function renders one tool's page (:func:`~.sizing.page`'s body) at whatever detail it holds: keys a
lower detail leaves out are simply not written. A page that was cut ends with a line saying what was and
the ``next_cursor`` to continue with.
"""

from __future__ import annotations

from typing import Any

#: how many characters of a snippet the numbered list repeats under each title
LIST_SNIPPET = 200


def _short(text: str, chars: int = LIST_SNIPPET) -> str:
    return text if len(text) <= chars else text[: chars - 1] + "…"


def footer(body: dict[str, Any]) -> list[str]:
    """The lines saying what the page left out and how to get it (none when nothing was)."""
    info = body.get("page") or {}
    if not info.get("cut"):
        return []
    lines = ["", f"[{info['count']} of {info['total']} from {info['offset'] + 1} at detail={info['detail']}; "
                 + "; ".join(info["cut"]) + "]"]
    if body.get("next_cursor"):
        lines.append(f"next_cursor: {body['next_cursor']}")
    return lines


def _warnings(body: dict[str, Any]) -> list[str]:
    lines: list[str] = []
    for w in body.get("warnings", []):
        lines += ["", f"warning ({w['code']}): {w['message']}"]
    return lines


def results_list(body: dict[str, Any]) -> str:
    """A section-9 body as a numbered list: title, citation, score (and pinned), a snippet; then warnings."""
    results = body.get("results", [])
    mode = body.get("mode", "")
    total = (body.get("page") or {}).get("total", len(results))
    lines = [f"{total} result{'s' * (total != 1)} ({mode} search) for: {body.get('query', '')}"]
    for r in results:
        pinned = ", pinned" if r.get("pinned") else ""
        if r.get("title"):
            lines += ["", f"{r['rank']}. {r['title']}",
                      f"   {r['citation']} · score {r['score']:.3f}{pinned} · id {r['id']}"]
        else:  # detail=ids: one line each
            lines.append(f"{r['rank']}. {r['citation']} · score {r['score']:.3f}{pinned} · id {r['id']}")
        snip = r.get("snippet") or r.get("preview")
        if snip:
            lines.append(f"   {_short(snip)}")
    return "\n".join(lines + _warnings(body) + footer(body))


def context_text(body: dict[str, Any]) -> str:
    """``get_context``: the block itself (full), or its chunks' citations (brief: with a preview)."""
    if "text" in body:
        return "\n".join([body["text"], *footer(body)])
    lines = [f"{len(body.get('chunks', []))} chunks within a budget of {body.get('budget')} tokens"]
    for c in body.get("chunks", []):
        lines.append(f"- {c['citation']} · id {c['id']}" + (f"\n  {c['preview']}" if c.get("preview") else ""))
    return "\n".join(lines + footer(body))


def passage_text(body: dict[str, Any]) -> str:
    """``read_passage``: the reference, then each verse with its number."""
    verses = [f"{v['verse']} {v.get('text') or v.get('preview') or ''}".rstrip() for v in body.get("verses", [])]
    return "\n".join([body["reference"], "", *verses, *footer(body)])


def verses_text(body: dict[str, Any]) -> str:
    """``search_verses``: the verses found, best first, each with its reference, score and text."""
    translation = (body.get("translation") or {}).get("abbreviation", "")
    total = (body.get("page") or {}).get("total", len(body.get("results", [])))
    lines = [f"{total} verse results ({body.get('mode', '')} search, {translation}) for: {body.get('query', '')}"]
    for r in body.get("results", []):
        lines += ["", f"{r['rank']}. {r['reference']} · score {r['score']:.3f}"]
        text = r.get("text") or r.get("preview")
        if text:
            lines.append(f"   {text}")
    return "\n".join(lines + _warnings(body) + footer(body))


def xrefs_text(body: dict[str, Any]) -> str:
    """``cross_references``: each passage, its score and the sources naming it."""
    total = (body.get("page") or {}).get("total", 0)
    lines = [f"Cross-references of {body['verse']['label']} ({total})"]
    if body.get("notice"):
        lines.append(body["notice"])
    for n, x in enumerate(body.get("cross_references", []), start=(body.get("page") or {}).get("offset", 0) + 1):
        lines.append(f"{n}. {x['ref']['label']} · score {x['score']:.2f} · {', '.join(x.get('sources', []))}")
        text = x.get("text") or x.get("preview")
        if text:
            lines.append(f"   {_short(text)}")
        for e in x.get("evidence", [])[:3]:
            lines.append(f"   · {e['source']}: {e['detail']}")
    return "\n".join(lines + footer(body))


def strongs_text(body: dict[str, Any]) -> str:
    """``strongs``: the number and lemma, then its entries, word studies and concordance lines."""
    head = f"{body['number']} {body.get('lemma', '')}".strip()
    if body.get("translit"):
        head += f" ({body['translit']})"
    lines = [f"{head} — Strong's {body.get('language', '')}; used in {body.get('total', 0)} KJV verses"]
    if body.get("notice"):
        lines.append(body["notice"])
    for item in body.get("items", []):
        if item["kind"] == "verse":
            lines.append(f"  {item['ref']['label']}: {item.get('text') or item.get('preview') or ''}".rstrip())
        else:
            lines += ["", f"[{item.get('title', item['kind'])}] id {item['chunk_id']}"]
            text = item.get("text") or item.get("preview")
            if text:
                lines.append(f"  {text}")
    return "\n".join(lines + footer(body))


def notes_text(body: dict[str, Any]) -> str:
    """``list_notes`` / ``add_note``: each note with its id and passage."""
    total = (body.get("page") or {}).get("total", 0)
    lines = [f"{total} note{'s' * (total != 1)} in workspace {body['workspace']}"]
    if "embedded" in body:
        lines = [f"Saved in workspace {body['workspace']}" + ("; embedded." if body["embedded"] else
                 "; not embedded yet (searched by words until the proxy is reached).")]
    for note in body.get("notes", []):
        where = f" on {note['label']}" if note.get("label") else ""
        lines.append(f"- {note['id']}{where}")
        text = note.get("text") or note.get("preview")
        if text:
            lines.append(f"  {text}")
    return "\n".join(lines + footer(body))
