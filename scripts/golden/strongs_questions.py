"""Word questions for the golden set, judged by rules a curator can trace to the World English Bible.

For each Greek word below (a Strong's number), the question asks what the word means, and the
judgments follow from the WEB's Strong's tags and the chunks' own metadata — no retrieval system is
consulted:

* grade 3 — the word's own lexicon entries (Strong's, Abbott-Smith) and word studies;
* grade 2 — a commentary note (section or chapter panel) whose verses include a verse where the WEB
  tags the word, and whose text uses one of the English words the WEB mostly renders it with (each
  word at least a fifth of its renderings, so "grace" counts for G5485 but not "thanks");
* grade 1 — the lexicon entries and word studies of words Strong's derives it from or derives from it
  ("from G1342").

Nave's topics are left out on purpose: the questions are not derived from them, and they are not
judged by rule. Each judgment carries its reason in the query's ``rationale``.

Every other chunk is 0 by these rules, and a ranking's unjudged chunks count 0 anyway; but a chunk a
ranking puts in its top 10 is written down as 0 (``--pooled``: the gap packets of ``pool.py --gaps``) so
that the judged share of each ranking's top 10 says what was looked at.

    .venv/bin/python scripts/golden/strongs_questions.py --db DEMO.db --out word_questions.json \\
        [--pooled supplement/gaps]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import defaultdict
from pathlib import Path

from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources.common import BibleText, Scope
from amicus_desktop.store.sqlite import connect
from amicus_desktop.understand.query import fold

# (Strong's number, id, question)
WORDS = [
    ("G1344", "w-justify", "What does the word 'justify' mean in the New Testament?"),
    ("G1343", "w-righteousness", "What is the righteousness that comes from God?"),
    ("G5485", "w-grace", "What is grace?"),
    ("G26", "w-agape", "What is agape love?"),
    ("G1680", "w-hope", "What is the hope Christians have?"),
    ("G3709", "w-wrath", "What is the wrath of God?"),
    ("G2643", "w-reconciliation", "What does reconciliation with God mean?"),
    ("G629", "w-redemption", "What does redemption mean?"),
    ("G5206", "w-adoption", "What is the adoption of sons?"),
    ("G1589", "w-election", "What is the election of grace?"),
    ("G4561", "w-flesh", "What does Paul mean by the flesh?"),
    ("G4592", "w-signs", "Why does John call Jesus' miracles signs?"),
    ("G225", "w-truth", "What is truth?"),
    ("G5457", "w-light", "What does it mean that Jesus is the light?"),
    ("G3056", "w-logos", "What is the Logos?"),
    ("G2222", "w-life", "What is eternal life?"),
    ("G1391", "w-glory", "What is the glory of God?"),
    ("G4991", "w-salvation", "What is salvation?"),
    ("G1515", "w-peace", "What is peace with God?"),
    ("G5281", "w-perseverance", "What is patient endurance?"),
]
COMMENTARY = ("section_panel", "chapter_panel")


def renderings(bible: BibleText, number: str, share: float = 0.2) -> set[str]:
    """The English words the WEB mostly renders ``number`` with (each at least ``share`` of its uses)."""
    counts: dict[str, int] = defaultdict(int)
    for tokens in bible.tokens.values():
        for tok in tokens:
            if number in tok.strongs:
                for w in re.findall(r"[A-Za-z]+", tok.text):
                    if len(w) > 2:
                        counts[w.lower()] += 1
    total = sum(counts.values())
    return {w for w, n in counts.items() if n >= share * total}


def bare(entry: str) -> str:
    """A Strong's entry's transliteration, folded as a reader types it: "ἀγάπη (agápē, …" → "agape"."""
    m = re.match(r"^\S+\s+\(([^,()]+),", entry.lstrip())
    return fold(m.group(1)).replace("-", "") if m else ""


def verses_of(bible: BibleText, number: str) -> dict[tuple[str, int], set[int]]:
    out: dict[tuple[str, int], set[int]] = defaultdict(set)
    for (book, chapter, verse), tokens in bible.tokens.items():
        if any(number in tok.strongs for tok in tokens):
            out[(book, chapter)].add(verse)
    return out


def main() -> int:
    p = argparse.ArgumentParser()
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--pooled", type=Path,
                   help="gap packets (pool.py --gaps): their chunks are written down, 0 if no rule grades them")
    p.add_argument("--bare", action="store_true",
                   help="ask each word bare, as its Strong's entry transliterates it ('agape', 'logos'; ids wb-…)")
    args = p.parse_args()
    bible = BibleText.load(Library(), Scope.of(["romans", "john"]).books)
    con = connect(args.db, readonly=True)
    rows = list(con.execute(
        "SELECT t.chunk_id, t.source_type, t.source_id, t.text, m.book_id, m.chapter_num, m.verse_start, m.verse_end "
        "FROM chunk_text t JOIN chunk_metadata m USING (rowid)"
    ))
    by_id = {r[0]: r for r in rows}
    queries = []
    words = WORDS
    if args.bare:  # the word as a reader types it from the entry, not chosen by hand
        words = [(number, qid.replace("w-", "wb-", 1), bare(by_id[f"strongs:{number}"][3]))
                 for number, qid, _question in WORDS if f"strongs:{number}" in by_id]
    for number, qid, question in words:
        judgments: dict[str, int] = {}
        why: dict[str, str] = {}

        def judge(
            cid: str, grade: int, reason: str, judgments: dict[str, int] = judgments, why: dict[str, str] = why
        ) -> None:
            if cid in by_id and grade > judgments.get(cid, -1):
                judgments[cid] = grade
                why[cid] = reason

        for cid in by_id:
            if cid == f"strongs:{number}" or cid.startswith(f"abbott-smith:{number}#"):
                judge(cid, 3, f"the lexicon entry of {number}")
            elif cid.startswith(f"wordstudy:{number}:"):
                judge(cid, 3, f"the word study of {number}")
        english = renderings(bible, number)
        places = verses_of(bible, number)
        for cid, kind, _sid, text, book, chapter, vs, ve in rows:
            if kind not in COMMENTARY or book is None or chapter is None:
                continue
            tagged = places.get((book, chapter), set())
            span = set(range(vs, (ve or vs) + 1)) if vs is not None else tagged
            hits = sorted(tagged & span)
            if not hits:
                continue
            used = sorted(w for w in english if re.search(rf"\b{re.escape(w)}\b", text, re.I))
            if used:
                judge(cid, 2, f"covers {book} {chapter}:{','.join(map(str, hits[:4]))} where the WEB tags {number}, "
                              f"and uses '{used[0]}'")
        entry = by_id.get(f"strongs:{number}")
        linked = set(re.findall(r"\bfrom (G\d+)", entry[3])) if entry else set()
        linked |= {cid.split(":")[1] for cid, r in by_id.items()
                   if cid.startswith("strongs:G") and re.search(rf"\bfrom {number}\b", r[3])}
        for other in sorted(linked - {number}):
            judge(f"strongs:{other}", 1, f"Strong's derives {number} and {other} one from the other")
            for cid in by_id:
                if cid.startswith(f"wordstudy:{other}:"):
                    judge(cid, 1, f"the word study of {other}, which Strong's relates to {number}")
        packet = args.pooled / f"{qid}.json" if args.pooled else None
        if packet is not None and packet.exists():
            for chunk in json.loads(packet.read_text())["chunks"]:
                judge(chunk["chunk_id"], 0, f"no rule grades it: not an entry or word study of {number} or of a word "
                                            "Strong's relates to it, nor a note on a verse where the WEB tags it that "
                                            "uses its rendering (pooled from a ranking's top 10)")
        queries.append({"id": qid, "query": question, **({"kind": "word"} if args.bare else {}),
                        "source": f"Strong's {number}, WEB tags (rule-judged)",
                        "rationale": why, "judgments": judgments})
        print(f"{qid:<18} {number:<6} {len(judgments):>3} judged ({sum(g == 3 for g in judgments.values())} ×3, "
              f"{sum(g == 2 for g in judgments.values())} ×2, {sum(g == 1 for g in judgments.values())} ×1)")
    args.out.write_text(json.dumps(queries, indent=1, ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
