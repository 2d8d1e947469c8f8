"""The retrieval bundle beside the results (CONTRACT sections 7 and 12): warnings, diagnostics, provenance.

Pure functions of the ranked results, the candidate pool and the rejected list: no I/O, no Qt.
Each warning rule is one small function in :mod:`.warnings`; the floors below which a match is not
a strong one are in :mod:`.floors`.
"""

from .diagnostics import diagnostics
from .floors import floor_for
from .provenance import provenance
from .warnings import lasting_warnings, ranking_warnings

__all__ = ["diagnostics", "floor_for", "lasting_warnings", "provenance", "ranking_warnings"]
