"""The filter bar on its own: a real widget offscreen, choices as a database's facets would give them."""

from __future__ import annotations

from amicus_desktop.core.names import Names
from amicus_desktop.core.query import MAX_FILTER_VALUES, Filters
from amicus_desktop.ui.filter_bar import FilterBar


def test_more_scholars_than_a_search_takes_are_refused_with_a_sentence(qtbot) -> None:
    """Filter values are bounded (core/query.py): the bar keeps the filters it had and says why."""
    bar = FilterBar()
    qtbot.addWidget(bar)
    ids = [f"scholar-{i:04d}" for i in range(MAX_FILTER_VALUES + 1)]
    bar.set_choices({"scholar_id": [(sid, 1) for sid in ids]}, [], Names())
    full = Filters.of(scholars=ids[:MAX_FILTER_VALUES])
    bar.set_filters(full)
    emitted: list[Filters] = []
    bar.filtersChanged.connect(emitted.append)
    last = next(a for a in bar.menus["scholars"].actions() if a.data() == ("scholars", ids[-1]))
    last.trigger()
    assert emitted == [] and bar.filters == full  # nothing asked, nothing changed
    assert not last.isChecked()
    assert bar.summary.text() == (
        f"A search can be limited to at most {MAX_FILTER_VALUES:,} scholars at once; "
        f"{MAX_FILTER_VALUES + 1:,} were given."
    )
    first = next(a for a in bar.menus["scholars"].actions() if a.data() == ("scholars", ids[0]))
    first.trigger()  # one fewer is fine again
    assert emitted == [Filters.of(scholars=ids[1:MAX_FILTER_VALUES])]
