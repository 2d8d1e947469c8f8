"""Per-question nDCG@10 of dense and of the combined ranking for one kind, with the combined top 6."""
import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load

from amicus_desktop.evaluate.metrics import ndcg

d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
D = sg.dense(d)
B = sg.Lexical(d.texts).matrix(d)
H = sg.commentary(d, span_power=0.25)
L = sg.lexicon(d, ("strongs:", "abbott-smith:"), idf_power=1.0)
S = sg.neighbours(d, D + 0.5 * H + 0.3 * L + 0.1 * B, 0.2)
for qi, q in enumerate(d.queries):
    if q["kind"] != sys.argv[2]:
        continue
    o1 = np.argsort(-D[qi])[:10]
    o2 = np.argsort(-S[qi])[:10]
    n1 = ndcg([d.ids[i] for i in o1], q["judgments"], 10)
    n2 = ndcg([d.ids[i] for i in o2], q["judgments"], 10)
    top = " ".join(f"{d.ids[i]}({q['judgments'].get(d.ids[i], '?')})" for i in o2[:6])
    print(f"{q['query'][:50]:<50} {n1:.2f} -> {n2:.2f}  top: {top}")
