"""The page names a variant's own seasons (issue 29, item 2): a game of Summer Campaigns
(tests/variants/summer, offered through REALPOLITIK_VARIANTS_PATH) against hold bots goes
from "Spring 1901 movement" to "Summer 1901 movement" to "Fall 1901 movement", each name taken
from the game's view, not from a list in the page."""

from __future__ import annotations

from typing import Any

import pytest
from test_web_play import new_page, play_against_hold_bots, sign_up

# the server offers tests/variants (the conftest's server fixture)
pytestmark = [pytest.mark.browser, pytest.mark.test_variants]


def _ready(page: Any, now: str, then: str) -> None:
    page.click("#tab-orders")
    page.wait_for_selector(f"#phase:has-text('{now}')")
    page.click("#ready")
    page.wait_for_selector(f"#phase:has-text('{then}')")


def test_a_summer_turn_is_named_by_the_page(browser: Any, server: Any) -> None:
    page = new_page(browser, server)
    sign_up(page, "summer")
    play_against_hold_bots(page, "summer", "france")
    page.wait_for_selector("#phase:has-text('Spring 1901 movement')")
    page.fill("#order-text", "A Par-Bur")
    page.click("#send-orders")
    page.wait_for_selector("#order-lines >> text=A PAR - BUR")
    _ready(page, "Spring 1901 movement", "Summer 1901 movement")
    assert "Summer 1901 movement" in page.title()
    _ready(page, "Summer 1901 movement", "Fall 1901 movement")
    assert not page.errors  # type: ignore[attr-defined]
