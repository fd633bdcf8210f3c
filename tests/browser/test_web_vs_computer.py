"""A new player plays against the computer in the browser: sign up, one click, France against
six heuristic bots; each phase moves on as soon as the player is ready, and the bots are shown
as the computer (issue 17).

Screenshots go to a temporary folder, or to ``$REALPOLITIK_WEB_SCREENSHOTS`` when set.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from test_web_play import new_page, shots_dir, sign_up

pytestmark = pytest.mark.browser


def test_play_against_the_computer_in_one_click(browser: Any, server: Any,
                                                tmp_path: Path) -> None:
    shots = shots_dir(tmp_path)
    page = new_page(browser, server)
    sign_up(page, "newcomer")
    page.wait_for_selector("#vs-computer")
    page.select_option("#vs-power", "france")
    page.screenshot(path=str(shots / "web-vs-computer.png"))
    page.click("#vs-start")
    page.wait_for_selector("#map svg #spaces")
    page.wait_for_selector("#orders-h:has-text('France')")
    # the lobby's notice comes along into the side panel, not over the map (issue 32)
    assert page.locator("#notices .toast", has_text="You play France").count() == 1
    head = page.inner_text(".game-head")
    assert "waiting for players" not in head and "Spring 1901" in head

    # The seats show the computer on the six other powers, and every bot is already ready.
    page.click("#tab-game")
    page.wait_for_selector("table.seats")
    seats = page.inner_text("table.seats")
    assert seats.count("computer (heuristic)") == 6 and "newcomer" in seats
    assert seats.count("ready") == 6

    # Press to a bot says it will not be answered.
    page.click("#tab-press")
    page.check(".new-conv input[value=germany]")
    page.click(".new-conv button[type=submit]")
    page.wait_for_selector("#press-bots:has-text('played by the computer')")

    # Orders, then ready: the phase is adjudicated at once, without waiting for a deadline.
    page.click("#tab-orders")
    page.fill("#order-text", "A Par-Bur\nA Mar-Spa\nF Bre-Mao")
    page.click("#send-orders")
    page.wait_for_selector("#order-lines >> text=A PAR - BUR")
    page.click("#ready")
    page.wait_for_selector("#phase:has-text('Fall 1901 movement')")
    page.screenshot(path=str(shots / "web-vs-computer-fall.png"))
    # Then ready in each phase France has something to do (its units hold, its builds are
    # waived): phases where only the computer has something to do pass at once, and 1902 comes.
    # Each step waits until the page either offers "Mark ready" in the phase read or has moved
    # on by itself, so that no click meant for one phase marks France ready for the next.
    for _ in range(6):
        phase = page.inner_text("#phase")
        if "1902" in phase:
            break
        offered = page.wait_for_function(
            "(before) => document.querySelector('#phase').innerText !== before ? 'moved'"
            " : document.querySelector('#ready') ? 'offered' : false", arg=phase).json_value()
        if offered == "offered":
            page.click("#ready")
            page.wait_for_function(
                "(before) => document.querySelector('#phase').innerText !== before", arg=phase)
    page.wait_for_selector("#phase:has-text('Spring 1902 movement')")
    page.screenshot(path=str(shots / "web-vs-computer-1902.png"))
    assert not page.errors, page.errors  # type: ignore[attr-defined]


def test_the_power_can_be_drawn_at_random(browser: Any, server: Any) -> None:
    page = new_page(browser, server)
    sign_up(page, "gambler")
    page.wait_for_selector("#vs-computer")
    page.select_option("#vs-bot", "random")
    page.click("#vs-start")
    page.wait_for_selector("#orders-h:has-text('Orders for')")
    power = page.inner_text("#orders-h").split("Orders for")[1].strip().split()[0]
    assert power in {"Austria", "England", "France", "Germany", "Italy", "Russia", "Turkey"}
    page.click("#tab-game")
    assert page.inner_text("table.seats").count("computer (random)") == 6
    assert not page.errors, page.errors  # type: ignore[attr-defined]
