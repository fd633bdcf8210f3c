"""Every DATC v3.0 case (tests/data/datc_v3.0.jsonl), one test each, with the DATC id as test id.

The orders are read by the project's own parser; a case whose id ends in ``@edition`` runs under
that rule edition. docs/adjudicate-json.md says how results are compared with ``expect``:
a void order meets an expected ``fails``.
"""

from __future__ import annotations

from typing import Any

import pytest
from datc_cases import check_case, failure_report, load_cases, run_case

from realpolitik.variant import load_variant

CASES = load_cases()
VARIANT = load_variant("classical")


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_datc(case: dict[str, Any]) -> None:
    outcome = run_case(case, VARIANT)
    problems = check_case(case, outcome)
    assert not problems, failure_report(case, outcome, problems)


def test_all_cases_present() -> None:
    assert len(CASES) == 175
    assert len({c["id"] for c in CASES}) == len(CASES)
