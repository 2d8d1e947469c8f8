"""The results column: the answer's results and rejected candidates, and the detail panes below them.

:class:`ResultsPane` (``pane.py``) composes the rest: the item models (``models.py``), what they paint
beyond text — the score bar, the mark of the reader's notes (``paint.py``), the tables' set-up and width
fitting (``tables.py``), the header's chapter toggle (``toggle.py``), the passage and breakdown panes or two
results compared (``detail.py``), the *Copy as Amicus context* / *Export results…* row (``bundle_bar.py``)
and the splitters (``splitter.py``).
"""

from .models import ChunkRole, RejectedModel, ResultsModel, SortProxy, SortRole
from .paint import ScoreBarDelegate
from .pane import ResultsPane
from .splitter import ResultsSplitter

__all__ = ["ChunkRole", "RejectedModel", "ResultsModel", "ResultsPane", "ResultsSplitter", "ScoreBarDelegate",
           "SortProxy", "SortRole"]
