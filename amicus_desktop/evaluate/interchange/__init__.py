"""Judgments that travel: a golden set to and from Quepid's CSV, TREC qrels and Elasticsearch's
``_rank_eval`` rated documents, with every rating scale mapped explicitly. No Qt.

:func:`import_file` reads one file into a golden set (a new one or one already open) under a judge's name;
:func:`export_file` writes a set's grades in a format, atomically. The formats are :mod:`.formats`, the
scales :mod:`.scales`, the rules of merging :mod:`.merge`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ...files import FileReadError, check_target, read_small, write_atomic
from ..gaps import Gap
from ..golden import GoldenSet
from ..judges import now
from . import formats
from .formats import InterchangeError, Rated
from .merge import MergeSummary, merge
from .scales import NAMED, Scale, ScaleError, scale

#: a ratings file of a million lines is ~60 MB; past this a file is not one (and is not read into memory)
MAX_FILE_BYTES = 64 << 20


@dataclass(frozen=True)
class Format:
    name: str
    label: str
    suffixes: tuple[str, ...]
    read: Callable[[str], list[Rated]]


FORMATS: dict[str, Format] = {
    "quepid": Format("quepid", "Quepid ratings (CSV: query,docid,rating)", (".csv",), formats.read_quepid),
    "trec": Format("trec", "TREC qrels", (".qrels", ".txt", ".tsv"), formats.read_trec),
    "rank-eval": Format("rank-eval", "Elasticsearch _rank_eval request (JSON)", (".json",), formats.read_rank_eval),
}


def _text(path: Path) -> str:
    try:
        return read_small(path, MAX_FILE_BYTES).decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InterchangeError(f"{path.name} is not UTF-8 text (byte {exc.start})") from None
    except FileReadError as exc:
        raise InterchangeError(str(exc)) from None


def import_file(path: str | Path, fmt: str, into: GoldenSet | None, scale: Scale, *, judge: str | None = None,
                topics: str | Path | None = None, replace_grades: bool = False,
                at: str | None = None) -> tuple[GoldenSet, MergeSummary]:
    """Read ``path`` in format ``fmt`` into ``into`` (or a new set named after the file). The ratings are
    recorded as ``judge``'s, or as the judge each line names (a Quepid CSV's ``judge`` column); a rating
    whose judge neither says is refused — a judge is a person, never the file's name.
    ``InterchangeError``/``ScaleError`` name what is wrong; ``OSError`` when a file cannot be read."""
    path = Path(path)
    rated = FORMATS[fmt].read(_text(path))
    topic_text = formats.read_topics(_text(Path(topics))) if topics is not None else None
    golden = into if into is not None else GoldenSet(path.stem, ())
    return merge(golden, rated, scale, judge, at or now(), replace_grades=replace_grades, topics=topic_text)


def named_judges(path: str | Path, fmt: str) -> list[str]:
    """The judges the file at ``path`` names (a Quepid CSV's ``judge`` column), in the order first met;
    ``[]`` when it names none (TREC qrels, ``_rank_eval`` and Quepid's own CSV never do). Raises as
    :func:`import_file` for a file that cannot be read."""
    return formats.judges_named(FORMATS[fmt].read(_text(Path(path))))


def render(golden: GoldenSet, fmt: str, scale: Scale, *, index: str = "amicus", field: str = "text") -> str:
    """``golden``'s grades as ``fmt`` text."""
    if fmt == "quepid":
        return formats.write_quepid(golden, scale)
    if fmt == "trec":
        return formats.write_trec(golden, scale)
    return formats.write_rank_eval(golden, scale, index, field)


def export_file(golden: GoldenSet, path: str | Path, fmt: str, scale: Scale, *, topics: str | Path | None = None,
                index: str = "amicus", field: str = "text") -> None:
    """Write ``golden``'s grades to ``path`` as ``fmt`` (and, for TREC, the questions to ``topics``), each
    atomically; :class:`~amicus_desktop.files.FileWriteError` when a target is refused or cannot be written."""
    text = render(golden, fmt, scale, index=index, field=field)
    targets = [(Path(path), text)]
    if topics is not None:
        targets.append((Path(topics), formats.write_topics(golden)))
    for target, _ in targets:
        check_target(target, what="judgments", hint="a ratings file name")
    for target, body in targets:
        write_atomic(target, body)


def export_unjudged(gaps: list[Gap], path: str | Path, fmt: str, *, topics: str | Path | None = None) -> None:
    """Write the queue of unjudged chunks (:func:`~amicus_desktop.evaluate.gaps.queue`) to ``path`` as ``fmt``
    (``quepid`` or ``trec``, and for TREC its questions to ``topics``), each atomically, ratings left blank for
    a judge to fill in; imported back with :func:`import_file`, only the lines given a rating count."""
    if fmt == "quepid":
        targets = [(Path(path), formats.write_unjudged_quepid(gaps))]
    elif fmt == "trec":
        qrels, topic_text = formats.write_unjudged_trec(gaps)
        targets = [(Path(path), qrels)] + ([(Path(topics), topic_text)] if topics is not None else [])
    else:
        raise InterchangeError(f"unjudged chunks travel as quepid or trec, not {fmt}")
    for target, _ in targets:
        check_target(target, what="judgments", hint="a ratings file name")
    for target, body in targets:
        write_atomic(target, body)


__all__ = ["FORMATS", "NAMED", "Format", "InterchangeError", "MergeSummary", "Rated", "Scale", "ScaleError",
           "export_file", "export_unjudged", "import_file", "merge", "named_judges", "render", "scale"]
