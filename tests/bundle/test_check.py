"""The bundle schema (``resources/schemas/bundle.schema.json``) agrees with the code, and the suite's check of
every bundle it produces (``tests/support/bundles.py``, wired in ``tests/conftest.py``) does catch a bad one."""

from __future__ import annotations

from amicus_desktop.core.governance import ForbiddenRule
from amicus_desktop.core.query import SearchMode
from amicus_desktop.core.results import RejectReason, WarningCode
from amicus_desktop.schemas import schema
from tests.support import bundles


def test_the_schemas_words_are_the_codes() -> None:
    defs = schema("bundle")["$defs"]
    assert defs["rejected"]["properties"]["reason"]["enum"] == [r.value for r in RejectReason]
    assert defs["rejected"]["properties"]["rule"]["enum"] == [r.value for r in ForbiddenRule]
    assert defs["warning"]["properties"]["code"]["enum"] == [w.value for w in WarningCode]
    assert defs["breakdown"]["properties"]["mode"]["enum"] == [m.value for m in SearchMode]
    assert defs["diagnostics"]["properties"]["rejected_by_reason"]["propertyNames"]["enum"] == \
        [r.value for r in RejectReason]


def test_the_suites_check_records_a_bad_bundle_with_the_test_that_made_it() -> None:
    before = len(bundles.LEDGER.invalid)
    try:
        bundles.check_printed(("query", "q", "--json"), 0, '{"query": "q", "results": []}')
        bundles.check_printed(("query", "q", "--json"), 0, "not json")
        bundles.check_printed(("query", "q", "--json"), 1, '{"error": {"code": "OFFLINE", "message": "m"}}')
        bundles.check_printed(("context", "q"), 0, "a block of text")
        bad = bundles.LEDGER.invalid[before:]
        assert len(bad) == 2
        assert bad[0][0].endswith("records_a_bad_bundle_with_the_test_that_made_it (query --json)")
        assert "/model: missing (required)" in bad[0][1]
        bundles.check_service_answer({"query": "q"})
        assert len(bundles.LEDGER.invalid) == before + 3
    finally:
        del bundles.LEDGER.invalid[before:]  # recorded on purpose: not a failure of the run
