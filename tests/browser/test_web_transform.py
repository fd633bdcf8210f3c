"""A variant's own kind of order and its rules in words on the page, with nothing of the variant
in the page's code (issue 29, item 1): in a winter of the transform variant
(tests/variants/transform, offered through REALPOLITIK_VARIANTS_PATH) the box "Rules acting
now" shows the note its hooks' ``rule_notes`` give (which units may transform, a count of the
transforms given), the unit is marked in the lists, and a transform given is counted against
the builds in the kind's own words ("1 used to transform")."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_play import new_page, play_against_hold_bots, shots_dir, sign_up

# the server offers tests/variants (the conftest's server fixture)
pytestmark = [pytest.mark.browser, pytest.mark.test_variants]


def _play(page: Any, now: str, orders: str, then: str, unit: str) -> None:
    """Give ``orders`` in the phase ``now``, mark ready and wait for the phase ``then``.
    ``unit``: where a unit of France is in ``now`` and was not in the phase before."""
    page.wait_for_selector(f"#phase:has-text('{now}')")
    # the head names the phase as soon as the game is loaded, the orders panel follows with the
    # phase's legal orders: orders typed and lines read before it would be the last phase's
    # panel's (its lines already there, so "ready" went before the orders were in)
    page.wait_for_selector(f"#sel-france-{unit}")
    page.fill("#order-text", orders)
    page.click("#send-orders")
    page.wait_for_selector(f"#order-lines li.ok >> nth={orders.count(chr(10))}")
    page.click("#ready")
    page.wait_for_selector(f"#phase:has-text('{then}')", timeout=30000)


def test_a_transform_is_explained_and_counted_against_the_builds(browser: Any, server: Any,
                                                                 tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = new_page(browser, server)
    sign_up(page, "transformer")
    play_against_hold_bots(page, "transform", "france")
    # no rule acts in a movement phase: no box
    page.wait_for_selector("#orders-h")
    assert page.locator("#rules-box").count() == 0
    _play(page, "Spring 1901 movement", "A Mar-Spa\nF Bre-MAO\nA Par-Bur", "Fall 1901 movement",
          "par")
    # Spain and Portugal taken, and an army back in Marseilles: 5 centres, 3 units
    _play(page, "Fall 1901 movement", "F MAO-Por\nA Bur-Mar", "Winter 1901 adjustments", "mao")

    page.wait_for_selector("#rules-transform")
    note = page.inner_text("#rules-transform")
    assert note.startswith("Transforming: A unit on one of France's own coastal home centres"), note
    assert "A Marseilles" in note and "0 of 2 given" in note, note
    assert "2 may transform" not in page.inner_text("#rules-box summary")  # one unit may
    assert "1 may transform" in page.inner_text("#rules-box summary")
    marks = page.eval_on_selector_all("ul.units .unit-note", "els => els.map(e => e.textContent)")
    assert marks == ["may transform"]
    due = page.inner_text("#orders-due")
    assert due.startswith("Builds: 2 builds allowed (5 centres, 3 units)"), due
    assert "used to" not in due

    page.fill("#order-text", "A Mar TRANSFORM")
    page.click("#send-orders")
    page.wait_for_selector("#rules-transform:has-text('1 of 2 given')")
    due = page.inner_text("#orders-due")
    assert due.startswith("Builds: 1 build allowed (5 centres, 3 units); 1 used to transform"), due
    page.screenshot(path=str(shots / "web-transform-winter.png"))
    assert not page.errors  # type: ignore[attr-defined]
