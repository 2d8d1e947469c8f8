"""The curator workbench's state: what-if weights, judging into a golden set, A/B, evaluation,
snapshots. No Qt.

:class:`Workbench` (``facade.py``) sits beside the :class:`~amicus_desktop.session.Session` it reads
(the question on screen, the open chapter, the saved weights, the engine) and composes one job per
module: ``whatif.py`` (try weights on the question on screen), ``golden.py`` (the golden set and
judging), ``ab.py`` (two configurations side by side), ``evaluation.py`` ("Evaluate set"),
``snapshots.py``, ``history.py`` (every run kept), ``preview.py`` (the selected chunk), ``review.py``
(judgment gaps, agreement), ``tuning.py`` (the weight search) and ``interchange.py`` (Quepid, TREC,
``_rank_eval``). It never changes retrieval semantics: every ranking it shows comes from
:func:`~amicus_desktop.retrieval.rerank_result` (what-if: the kept candidates, no embedding, no
search) or :meth:`Retriever.retrieve <amicus_desktop.retrieval.Retriever.retrieve>` (the A/B sides
and "Evaluate set", on the engine's tasks, so the DB work runs on its thread and the UI never waits).

Files (all plain JSON, written atomically, never inside ``scripture.db``): golden sets in
``data_dir()/golden/``, snapshots in ``data_dir()/snapshots/``, runs in ``data_dir()/history/``. Query
text never reaches the log.
"""

from .ab import ABResult, Side
from .evaluation import Progress
from .facade import Workbench
from .tuning import TuneProgress
from .whatif import WhatIf

__all__ = ["ABResult", "Progress", "Side", "TuneProgress", "WhatIf", "Workbench"]
