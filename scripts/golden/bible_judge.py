"""Judge the whole-Bible topical questions by rule, from Nave's Topical Bible (issue 33 item 7).

Nave's lists, per topic, the verses that are about it; Nave is a source independent of every ranking the
app has. For each topic of ``scripts/golden/bible_topics.json`` the verses of its Nave's entries (every line,
ranges expanded) define what is about the topic, and the topic's ``terms`` say whether a chunk's text names
it. Every chunk of the library is judged by the same rule, with no retrieval system consulted:

- a commentary note (Henry, Scofield, Spurgeon: section and chapter panels) covering a verse Nave's lists
  under the topic and naming the topic 3; covering such a verse without naming it 1;
- the topic's own Nave's entry (a list of its verses in one book) 2;
- a chain or topical note (Scofield's chains, other Nave's entries) covering a listed verse and naming the
  topic 2, naming it only 1;
- a word study or lexicon entry whose head (its first two lines, at most 300 characters: the word and its
  gloss) names the topic 1 — the word's entry, not a passage about the topic;
- every other chunk 0, by rule: a ranking's top 10 is judged in full whatever it finds.

Each judgment's reason says which verses and which word decided it. Both phrasings of a topic share its
judgments. ``split`` puts each topic (both phrasings) in ``train`` or ``held-out`` (the topics sorted by the
SHA-256 of their ids, alternately), so a ranking rule chosen on one half can be checked on the other.

    .venv/bin/python scripts/golden/bible_judge.py --db BIBLE.db --out resources/golden/bible.json
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sqlite3
from collections import defaultdict
from pathlib import Path

from amicus_desktop.core.books import BOOKS
from amicus_desktop.corpus.library import Library
from amicus_desktop.corpus.sources.threads import _nave_lines

COMMENTARY = {"section_panel", "chapter_panel"}
DICTIONARY = {"word_study", "lexicon_entry"}
CHAINS = {"cross_ref_thread_note"}
Verse = tuple[str, int, int]  # book_id, chapter, verse


def splits(topic_ids: list[str]) -> dict[str, str]:
    """Each topic → ``train`` or ``held-out``: the topics sorted by the SHA-256 of their ids, alternately (two
    halves of equal size, the same on every machine)."""
    ordered = sorted(topic_ids, key=lambda t: hashlib.sha256(t.encode()).hexdigest())
    return {t: ("train" if i % 2 == 0 else "held-out") for i, t in enumerate(ordered)}


def nave_verses(library: Library, keys: list[str]) -> dict[Verse, str]:
    """Every verse the entries ``keys`` list → the entry that lists it."""
    nave = library.dictionary("nave")
    out: dict[Verse, str] = {}
    for key in keys:
        for _label, refs, _sees in _nave_lines(nave.raw(key)):
            for r in refs:
                book = BOOKS[r.ordinal - 1].book_id
                for v in range(r.verse, max(r.verse, r.verse_end) + 1):
                    out.setdefault((book, r.chapter, v), key)
    return out


def _ref(verses: list[Verse]) -> str:
    by: dict[tuple[str, int], list[int]] = defaultdict(list)
    for b, c, v in sorted(verses):
        by[(b, c)].append(v)
    parts = [f"{b} {c}:{','.join(map(str, vs[:6]))}{'…' if len(vs) > 6 else ''}" for (b, c), vs in by.items()]
    return "; ".join(parts[:4]) + (" …" if len(parts) > 4 else "")


def judge(db: Path, topics: list[dict], library: Library) -> list[dict]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    rows = conn.execute(
        "SELECT t.chunk_id, t.source_type, t.source_id, t.text, m.book_id, m.chapter_num, m.verse_start, m.verse_end"
        " FROM chunk_text t JOIN chunk_metadata m ON m.rowid = t.rowid"
    ).fetchall()
    conn.close()
    queries = []
    halves = splits([t["id"] for t in topics])
    for topic in topics:
        listed = nave_verses(library, topic["nave"])
        chapters: dict[tuple[str, int], set[int]] = defaultdict(set)
        for b, c, v in listed:
            chapters[(b, c)].add(v)
        terms = re.compile(r"\b(?:" + "|".join(topic["terms"]) + ")", re.IGNORECASE)
        own = {f"Nave:{k}" for k in topic["nave"]}
        judgments: dict[str, int] = {}
        rationale: dict[str, str] = {}
        for chunk_id, source_type, source_id, text, book, chapter, start, end in rows:
            covered: list[Verse] = []
            if book and chapter and (book, chapter) in chapters:
                vs = chapters[(book, chapter)]
                lo, hi = (start or 0, end or start or 0) if start else (0, 10_000)
                covered = [(book, chapter, v) for v in vs if lo <= v <= hi]
            m = terms.search(text)
            word = m.group(0).lower() if m else None
            grade, why = 0, ""
            if source_type in COMMENTARY and covered:
                where = f"covers {_ref(covered)}, listed by Nave's under {listed[covered[0]]}"
                grade, why = (3, f"{where}; names the topic ('{word}')") if word else (1, f"{where}; does not name it")
            elif source_type in CHAINS and source_id in own:
                grade, why = 2, f"Nave's own entry {source_id[5:]}: the topic's verses in one book"
            elif source_type in CHAINS and word:
                if covered:
                    where = f"{_ref(covered)} (Nave's {listed[covered[0]]})"
                    grade, why = 2, f"a topical chain covering {where}, names '{word}'"
                else:
                    grade, why = 1, f"a topical chain naming '{word}', on no verse Nave's lists"
            elif source_type in DICTIONARY:
                head = terms.search(" ".join(text.lstrip().split("\n")[:2])[:300])
                if head:
                    grade, why = 1, f"a dictionary entry whose head names the topic ('{head.group(0).lower()}')"
            if grade:
                judgments[chunk_id] = grade
                rationale[chunk_id] = why
        base = {"topic_id": topic["id"], "split": halves[topic["id"]], "nave": topic["nave"],
                "source": "rule-judged from Nave's Topical Bible (scripts/golden/bible_judge.py)"}
        for kind, text, prefix in (("topic", topic["topic"], "bt"), ("question", topic["question"], "bq")):
            queries.append({"id": f"{prefix}-{topic['id']}", "query": text, "kind": kind, **base,
                            "judgments": dict(sorted(judgments.items())), "rationale": dict(sorted(rationale.items()))})
    return queries


PROVENANCE = (
    "Whole-Bible topical questions (issue 33 item 7): {n} topics written before any ranking ran on a whole-Bible "
    "library (scripts/golden/bible_topics.json), each asked as its name (kind topic, ids bt-) and as a full question "
    "(kind question, ids bq-). Judged by rule from Nave's Topical Bible (SWORD module sword-dict-naves), with no "
    "retrieval system consulted (scripts/golden/bible_judge.py): a commentary note covering a verse Nave's lists "
    "under the topic and naming it (the topic's terms) 3, covering one without naming it 1; the topic's own Nave's "
    "entry 2; a chain covering a listed verse and naming the topic 2, naming it only 1; a word study or lexicon "
    "entry whose head names the topic 1; every other chunk 0 by rule. Each judgment's reason names the verses and "
    "the word that decided it. Each query's split (train / held-out: the topics sorted by the SHA-256 of their "
    "ids, alternately) keeps half the topics out of any tuning."
)


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--db", type=Path, required=True)
    p.add_argument("--topics", type=Path, default=Path("scripts/golden/bible_topics.json"))
    p.add_argument("--out", type=Path, required=True)
    a = p.parse_args()
    topics = json.loads(a.topics.read_text())["topics"]
    queries = judge(a.db, topics, Library())
    out = {"name": "bible-topics", "provenance": PROVENANCE.format(n=len(topics)), "queries": queries}
    a.out.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n")
    for q in queries[::2]:
        g = list(q["judgments"].values())
        print(f"{q['topic_id']:<14} {q['split']:<9} 3:{g.count(3):4d} 2:{g.count(2):4d} 1:{g.count(1):5d}")


if __name__ == "__main__":
    main()
