"""Carry hand judgments across a re-chunking, so every judgment stays traceable.

When a build changes chunks (new ids, or new text under an old id), a judgment keyed on the old chunk
cannot simply be renamed: the judge read *that* text. For every judged chunk whose text is gone from
the new database (its id retired, or its text changed):

* a new chunk with exactly the same text **inherits** the grade, and its reason says from which id;
* a new chunk that holds part of the old text (a shared sentence) but not all of it must be
  **re-judged** by reading it: the grade and reason come from the migration file, and the reason
  says "re-judged after …";
* the migration file may also grade new chunks that a new pool (``pool.py`` on the new database)
  put before the judge for the first time ("judged after …, newly pooled").

Nothing is written unless every judgment needed is there (``--write``); the packets in
``judgments/`` and ``supplement/`` are updated in place, and ``assemble.py`` makes the golden set.

    .venv/bin/python scripts/golden/migrate.py --old-db OLD.db --new-db NEW.db \
        --migration migrations/NAME.json [--write]
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
from pathlib import Path

HERE = Path(__file__).parent


def texts(db: Path) -> dict[str, str]:
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return dict(con.execute("SELECT chunk_id, text FROM chunk_text"))
    finally:
        con.close()


def sentences(text: str) -> set[str]:
    """Sentences, compared without the module's ``#(11-13)`` verse-marker artefact."""
    text = " ".join(re.sub(r"#\((\d[^)]*)\)", r"\1", text).split())
    return {s for s in re.split(r"(?<=[.!?])\s+", text) if len(s.split()) > 2}


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--old-db", type=Path, required=True)
    p.add_argument("--new-db", type=Path, required=True)
    p.add_argument("--migration", type=Path, required=True)
    p.add_argument("--write", action="store_true")
    args = p.parse_args()
    old, new = texts(args.old_db), texts(args.new_db)
    migration = json.loads(args.migration.read_text())
    label = migration["label"]
    rejudged: dict[str, dict[str, list]] = migration["rejudged"]
    pooled: dict[str, dict[str, list]] = migration.get("pooled", {})
    gone = {cid for cid in old if new.get(cid) != old[cid]}  # retired, or new text under the same id
    new_sentences = {cid: sentences(t) for cid, t in new.items() if old.get(cid) != t}
    missing: list[str] = []
    stats = {"inherited": 0, "re-judged": 0, "newly pooled": 0, "dropped": 0}
    updated: dict[Path, dict] = {}
    for path in sorted([*(HERE / "judgments").glob("*.json"), *(HERE / "supplement").glob("*.json")]):
        packet = json.loads(path.read_text())
        qid = packet["id"]
        judgments, rationale = packet["judgments"], packet["rationale"]
        done = f"after {label}"  # a judgment this migration already made (a second run changes nothing)
        affected = sorted(cid for cid in judgments if cid in gone and done not in rationale[cid])
        extra = {nid: given for nid, given in (pooled.get(qid, {}) if path.parent.name == "judgments" else {}).items()
                 if done not in rationale.get(nid, "")}
        if not affected and not extra:
            continue
        holders: dict[str, list[str]] = {}  # new id -> old judged ids whose text it holds
        for cid in affected:
            mine = sentences(old[cid])
            for nid, theirs in new_sentences.items():
                if mine & theirs:
                    holders.setdefault(nid, []).append(cid)
        for cid in affected:
            del judgments[cid]
            del rationale[cid]
            stats["dropped"] += 1
        for nid, sources in sorted(holders.items()):
            if len(sources) == 1 and new[nid] == old[sources[0]]:
                src = sources[0]
                previous = json.loads(path.read_text())
                judgments[nid] = previous["judgments"][src]
                rationale[nid] = (f"{previous['rationale'][src]} (inherited from {src}: the same text, "
                                  f"{label})")
                stats["inherited"] += 1
                continue
            given = rejudged.get(qid, {}).get(nid)
            if given is None:
                missing.append(f"{qid}: {nid} (holds text of {', '.join(sources)})")
                continue
            judgments[nid] = int(given[0])
            rationale[nid] = f"re-judged after {label} (holds text of {', '.join(sources)}): {given[1]}"
            stats["re-judged"] += 1
        for nid, (grade, reason) in sorted(extra.items()):
            if nid in judgments:
                missing.append(f"{qid}: {nid} is pooled anew but already judged")
                continue
            judgments[nid] = int(grade)
            rationale[nid] = f"judged after {label}, newly pooled: {reason}"
            stats["newly pooled"] += 1
        packet["judgments"] = dict(sorted(judgments.items()))
        packet["rationale"] = dict(sorted(rationale.items()))
        updated[path] = packet
    unused = [f"{q}: {n}" for q, given in rejudged.items() for n in given
              if updated and not any(p["id"] == q and n in p["judgments"] for p in updated.values())]
    for line in missing + [f"unused re-judgment {u}" for u in unused]:
        print("MISSING" if line in missing else "UNUSED", line)
    print(f"{len(updated)} packets; " + ", ".join(f"{v} {k}" for k, v in stats.items()))
    if missing or unused:
        return 1
    if args.write:
        for path, packet in updated.items():
            path.write_text(json.dumps(packet, indent=1, ensure_ascii=False))  # as pool.py's judges left them
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
