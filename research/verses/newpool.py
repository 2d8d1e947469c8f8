"""How many unjudged verses the candidate systems put in their top N (the verses to pool and judge)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load
from explore6 import lexicon_top, topn


def systems(d):
    D = sg.dense(d)
    B = sg.Lexical(d.texts).matrix(d)
    rows, cover = sg.commentary_cover(d)
    sims = d.Q @ d.C[rows].T
    cl = sg.Lexical([d.chunks[r].text for r in rows])
    CL = np.vstack([cl.scores(q["query"]) for q in d.queries])
    nb = sg.neighbours
    H = sg.propagate(topn(sims, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    HL = sg.propagate(topn(CL, 100), list(range(len(rows))), cover, len(d.ids), span_power=0.25)
    L = lexicon_top(d, 50)
    Lall = lexicon_top(d, None)
    return {
        "hybrid": nb(d, D + 0.5 * H + 0.5 * L + 0.1 * B + 0.2 * HL, 0.3),
        "hybrid-lexall": nb(d, D + 0.5 * H + 0.5 * Lall + 0.1 * B + 0.2 * HL, 0.3),
        "hybrid-heavy": nb(d, D + 0.7 * H + 0.7 * L + 0.2 * B + 0.2 * HL, 0.3),
        "semantic": nb(d, D + 0.7 * H + 0.7 * L, 0.3),
        "keyword": nb(d, B + 0.5 * HL, 0.3),
        "commentary": nb(d, D + 0.5 * H, 0.3),
        "lexicon": nb(d, D + 0.5 * L, 0.3),
    }


def pool(dbs, depth):
    new = {}
    for db in dbs:
        d = load(Path(db), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
        S = systems(d)
        for qi, q in enumerate(d.queries):
            for M in S.values():
                for i in np.argsort(-M[qi], kind="stable")[:depth]:
                    if d.ids[i] not in q["judgments"]:
                        new.setdefault(q["id"], set()).add(d.ids[i])
    return new


def main():
    depth = int(sys.argv[1])
    new = pool(sys.argv[2:], depth)
    print(depth, "new verses:", sum(map(len, new.values())), "questions:", len(new))


if __name__ == "__main__":
    main()


def dump(dbs, depth, out):
    """Every system's top ``depth`` per question, on each database: {"db:system": {qid: [verse ids]}}."""
    import json
    rankings = {}
    for db in dbs:
        d = load(Path(db), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
        for name, M in systems(d).items():
            rankings[f"{Path(db).stem}:{name}"] = {
                q["id"]: [d.ids[i] for i in np.argsort(-M[qi], kind="stable")[:depth]]
                for qi, q in enumerate(d.queries)}
    Path(out).write_text(json.dumps(rankings))
