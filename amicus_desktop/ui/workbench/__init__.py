"""The curator workbench's widgets: what-if weights and judging, A/B, evaluation chart, snapshots.

The state is :class:`~amicus_desktop.session.workbench.Workbench` (no Qt); these widgets render it.
"""

from .chart import EvalChart
from .models import ChangesModel, RankingModel, SideModel
from .panel import WorkbenchPanel

__all__ = ["ChangesModel", "EvalChart", "RankingModel", "SideModel", "WorkbenchPanel"]
