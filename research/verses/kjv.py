"""Dense verse search over the KJV text vs the WEB text, on the same judgments (verse ids)."""
from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import signals as sg
from data import load, split
from explore2 import show

from amicus_desktop.core.books import BY_ID
from amicus_desktop.corpus.sword import ZVerseModule, find_module, get_versification, verse_tokens
from amicus_desktop.embedding.local import LocalMiniLMBackend


def kjv_texts(ids):
    conf = find_module("engKJV2006eb", package="sword-text-kjv")
    mod = ZVerseModule(conf.data_path, get_versification(conf.versification), encoding=conf.encoding)
    out = {}
    for book in sorted({i.split(":")[0] for i in ids}):
        for e in mod.entries(BY_ID[book].osis):
            if e.chapter and e.verse:
                text, _ = verse_tokens(e.raw)
                out[f"{book}:{e.chapter}:{e.verse}"] = " ".join(text.split())
    return [out.get(i, "") for i in ids]


def main():
    d = load(Path(sys.argv[1]), Path("resources/golden/verses.json"), Path("/work/data/verses-research"))
    train, test = split(d.queries)
    texts = kjv_texts(d.ids)
    print("missing KJV verses:", sum(1 for t in texts if not t), "e.g.", texts[d.ids.index("john:3:16")])
    model = LocalMiniLMBackend()
    K = np.vstack([model.embed(texts[i:i + 64]) for i in range(0, len(texts), 64)])
    show("dense WEB", d, sg.dense(d), train, test)
    show("dense KJV", d, d.Q @ K.T, train, test)
    show("bm25 WEB", d, sg.Lexical(d.texts).matrix(d), train, test)
    show("bm25 KJV", d, sg.Lexical(texts).matrix(d), train, test)
    show("dense mean(WEB,KJV)", d, (sg.dense(d) + d.Q @ K.T) / 2, train, test)


if __name__ == "__main__":
    main()
