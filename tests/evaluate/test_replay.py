"""Snapshots that replay, on the real demo library and the real local proxy, through ``amicus-desktop eval``:
``--snapshot`` keeps a run with its configuration, library and metrics; ``--replay`` asks it again (the same
library: nothing moved; another library: the judged chunks it lost, said per question; new judgments: said);
``--compare`` with several SPECs and snapshots sets N rankings side by side against ``--baseline``."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from amicus_desktop import paths
from amicus_desktop.evaluate import golden as golden_io
from amicus_desktop.evaluate.golden import GoldenSet
from amicus_desktop.evaluate.snapshots import load
from amicus_desktop.resources import resource_path
from tests.support.cli import run


def small_set(tmp_path: Path) -> Path:
    """Twelve questions of the shipped set, of every kind it has (a replay asks each one)."""
    shipped = golden_io.load(resource_path("golden", "demo.json"))
    by_kind: dict[str, list[Any]] = {}
    for q in shipped.queries:
        by_kind.setdefault(q.kind, []).append(q)
    picked = [q for qs in by_kind.values() for q in qs[:3]][:12]
    path = tmp_path / "twelve.json"
    golden_io.save(GoldenSet("twelve", tuple(picked)), path)
    return path


def test_a_snapshot_replays_and_n_rankings_line_up(tmp_path: Path, demo_db: Path, sample_db: Path,
                                                   local_proxy: Any) -> None:
    golden = small_set(tmp_path)
    base = ("eval", str(golden), "--db", str(demo_db), "--proxy", local_proxy.url, "--no-history")
    code, _, err = run(*base, "--mode", "hybrid", "--chapter-boost", "1.25", "--snapshot", "before")
    assert code == 0, err
    assert "kept as the snapshot before" in err
    kept = load(paths.snapshot_dir() / "before.json")
    assert kept.replayable and kept.settings["knobs"]["mode"] == "hybrid"
    assert kept.settings["knobs"]["chapter_boost"] == 1.25
    assert kept.library["id"] and kept.library["chunks"] > 1000 and kept.library["model"] == kept.model
    assert set(kept.metrics["questions"]) == {q.id for q in golden_io.load(golden).queries}

    # the same library, the same judgments: nothing moved, and the reason is said
    code, out, err = run(*base, "--replay", "before", "--json")
    assert code == 0, err
    same = json.loads(out)
    assert (same["better"], same["worse"], same["changes"]) == (0, 0, [])
    assert all(q["moved"] == [] for q in same["questions"])
    code, text, _ = run(*base, "--replay", "before")
    assert "The library, the model and the judgments are as they were." in text and "0 better, 0 worse" in text

    # another library: the judged chunks it does not hold left the top 10s, question by question
    code, out, err = run("eval", str(golden), "--db", str(sample_db), "--proxy", local_proxy.url, "--no-history",
                         "--replay", "before", "--json")
    assert code == 0, err
    other = json.loads(out)
    assert any("another build" in c for c in other["changes"]) and any("chunks, now" in c for c in other["changes"])
    lost = [m for q in other["questions"] for m in q["moved"]]
    assert lost and all(m["gone"] and m["after"] is None for m in lost)
    assert other["worse"] >= 1

    # a grade given since: the snapshot is scored on today's judgments, and the change is said
    regraded = golden_io.load(golden)
    first = regraded.queries[0]
    unjudged = next(c for c in kept.ranked(first.id) or () if c not in first.judgments)
    golden_io.save(regraded.with_query(first.judge(unjudged, 3)), golden)
    code, out, err = run(*base, "--replay", "before", "--json")
    assert code == 0, err
    assert any("the judgments changed" in c for c in json.loads(out)["changes"])

    # N rankings: the flags' run, semantic, the snapshot as saved and replayed — against the snapshot
    code, out, err = run(*base, "--mode", "hybrid", "--chapter-boost", "1.25", "--compare", "mode=semantic",
                         "--compare", "snapshot=before", "--compare", "replay=before", "--baseline", "2", "--json")
    assert code == 0, err
    found = json.loads(out)
    assert [r["name"] for r in found["rankings"]] == ["as given", "mode=semantic", "before", "before, replayed"]
    assert found["baseline"] == "before"
    assert found["kinds"][0]["kind"] == "all" and len(found["kinds"]) > 2  # every question, then each kind
    everything = found["kinds"][0]["rankings"]
    for same_as_saved in (0, 3):  # asked again today under the snapshot's configuration: the same numbers
        cell = everything[same_as_saved]["ndcg@10"]
        assert cell["delta"] == 0 and cell["ci95"] == [0, 0] and not cell["significant"]
    assert "delta" not in everything[2]["ndcg@10"]
    for q in found["questions"]:
        ranked = kept.ranked(q["id"]) or ()
        for c in q["chunks"]:
            assert c["ranks"][2] == (ranked.index(c["chunk_id"]) + 1 if c["chunk_id"] in ranked else None)
            assert c["ranks"][3] == c["ranks"][2]
    code, text, _ = run(*base, "--compare", "mode=semantic", "--compare", "snapshot=before")
    assert code == 0 and "0: as given (baseline)" in text and "ndcg@10: mean" in text

    code, _, err = run(*base, "--compare", "snapshot=nowhere", "--compare", "mode=keyword")
    assert code == 2 and "there is no snapshot called nowhere" in err
    code, _, err = run(*base, "--compare", "mode=keyword", "--baseline", "5")
    assert code == 2 and "--baseline" in err
