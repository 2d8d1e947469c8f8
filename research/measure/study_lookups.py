"""How long the study aids take on a library: the cross-reference index's build, a verse's cross-references,
a Strong's study and a verse's tagged words (docs/PERFORMANCE.md, "Study aids").

    .venv/bin/python research/measure/study_lookups.py --db PATH/scripture.db

Every verse of the library's books (or ``--sample N`` of them, evenly spread: the whole Bible's 31,102 would
take most of an hour on a busy machine) is looked up once (cross-references, words) after one warm-up; the
Strong's numbers are those of one chapter's words plus the most frequent ones. Prints p50/p95/max in ms,
the index's size and the numbers the whole Bible would scale by (the library's share of verses).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

WHOLE_BIBLE_VERSES = 31_102


def _ms(samples: list[float]) -> str:
    s = sorted(samples)
    p95 = s[min(len(s) - 1, round(0.95 * (len(s) - 1)))]
    return f"n={len(s)} p50={statistics.median(s):.1f} p95={p95:.1f} max={s[-1]:.1f} ms"


def _timed(fn: Callable[[], object]) -> float:
    started = time.perf_counter()
    fn()
    return (time.perf_counter() - started) * 1000


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=0, help="at most this many verses (0: all)")
    parser.add_argument("--sample", type=int, default=0,
                        help="this many verses spread evenly over the library's books instead (0: every verse)")
    args = parser.parse_args()
    os.environ.setdefault("AMICUS_HOME", tempfile.mkdtemp(prefix="amicus-measure-"))  # a cold index cache

    from amicus_desktop.core.references import PassageRef
    from amicus_desktop.store.scripture import ScriptureStore
    from amicus_desktop.store.verses import VerseIndex
    from amicus_desktop.study import cross_references, strongs_study, verse_words
    from amicus_desktop.study.xref_index import XrefIndex

    with ScriptureStore(args.db) as store:
        index = VerseIndex.for_store(store)
        keys = [k for k in index.keys[1:] if k[0]]
        if args.limit:
            keys = keys[: args.limit]
        if args.sample and args.sample < len(keys):
            step = len(keys) / args.sample
            keys = [keys[int(i * step)] for i in range(args.sample)]
        build = _timed(lambda: XrefIndex.for_store(store))
        print(f"cross-reference index built in {build / 1000:.1f} s for {len(index.keys) - 1} verses "
              f"(whole Bible, scaled: ~{build / 1000 * WHOLE_BIBLE_VERSES / max(1, len(index.keys) - 1):.0f} s)")
        current = _timed(lambda: XrefIndex.for_store(store))
        print(f"the index opened again, current: {current:.2f} ms (a stat and one row)")
        from collections import defaultdict

        from amicus_desktop.store.study import NoteRow, note_rows
        from amicus_desktop.study.xref_index import COMMENTATORS, groups
        by_book: dict[str | None, list[NoteRow]] = defaultdict(list)
        for row in note_rows(store, list(COMMENTATORS)):
            by_book[row[5]].append(row)

        def read(rows: list[NoteRow]) -> float:
            return _timed(lambda: list(groups(rows)))

        per_book = [read(rows) for rows in by_book.values()]
        print(f"one book's notes read (what the builder adds to the index after each book), over {len(by_book)} "
              f"books: {_ms(per_book)}")
        cross_references(store, PassageRef(*keys[0], keys[0][2]))  # warm
        xrefs = [_timed(lambda k=k: cross_references(store, PassageRef(k[0], k[1], k[2], k[2]))) for k in keys]
        print(f"cross_references per verse: {_ms(xrefs)}")
        words = [_timed(lambda k=k: verse_words(store, *k)) for k in keys]
        print(f"verse_words per verse: {_ms(words)}")
        numbers = sorted({n for w in verse_words(store, "john", 3, 16)[1] for n in w.numbers}
                         | {"G3588", "G2532", "G846", "G26", "G25", "G2316"})
        studies = []
        for n in numbers:
            studies.append(_timed(lambda n=n: strongs_study(store, n)))
        print(f"strongs_study ({', '.join(numbers[:8])}…): {_ms(studies)}")
        # nearest in meaning at the whole Bible's size: the same product over 31,102 verse vectors, beside
        # the vec0 table's nearest-neighbour search over this library's (the baseline, same run)
        import numpy as np

        from amicus_desktop.core.vectors import products
        matrix = np.random.default_rng(0).standard_normal((WHOLE_BIBLE_VERSES, store.info.dims)).astype(np.float32)
        query = matrix[7]
        product = [_timed(lambda: np.argpartition(-products(matrix, query), 20)[:20]) for _ in range(50)]
        print(f"meaning over {WHOLE_BIBLE_VERSES} vectors (one product + top 20): {_ms(product)}")
        vector = np.frombuffer(store.rows("SELECT embedding FROM verse_embeddings LIMIT 1")[0][0], dtype="<f4")
        knn = [_timed(lambda: index.nearest(vector, 13)) for _ in range(50)]
        print(f"baseline: vec0 KNN over this library's {len(index.keys) - 1} verses: {_ms(knn)}")
        big = strongs_study(store, "G3588")
        print(f"G3588 (the article): {big.total} verses in this library; "
              f"~{big.total * WHOLE_BIBLE_VERSES // max(1, len(index.keys) - 1)} scaled to the whole Bible")
    return 0


if __name__ == "__main__":
    sys.exit(main())
