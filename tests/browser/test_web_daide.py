"""A DAIDE bot on the page (issue 31, item 2): the creator opens a game's free seats to DAIDE
bots in the create form; a DAIDE bot that joins through the server's DAIDE port is shown as a
bot, by the name and version it gave, in the seats, the lobby and the seat changes."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from test_web_play import new_page, shots_dir, sign_up

from realpolitik.bots import make_bot
from realpolitik.daide.client import play_bots

pytestmark = pytest.mark.browser


def test_a_daide_bot_takes_a_free_seat_and_is_shown_as_a_bot(browser: Any, server: Any,
                                                             tmp_path: Path) -> None:
    page = new_page(browser, server)
    sign_up(page, "dora")
    page.fill("#create-form input[name=name]", "With DumbBot")
    page.select_option("#create-form select[name=join_as]", "france")
    page.check("#create-form input[name=daide_bots]")
    page.click("#create-form button[type=submit]")
    page.wait_for_selector("#orders-h:has-text('France')")
    game = int(page.evaluate("location.hash").split("/")[-1])
    token = page.evaluate("localStorage.getItem('rp:token')")
    for power in ("austria", "england", "germany", "italy", "russia"):
        server.api("POST", f"/games/{game}/gm/bot", {"power": power}, token)
    page.click("#tab-game")
    page.wait_for_selector("dd:has-text('may take free seats: connect to port')")

    # our DAIDE client, as any DAIDE bot would: it names the game and takes Turkey
    threading.Thread(target=lambda: asyncio.run(play_bots(
        "127.0.0.1", server.daide_port, [make_bot("heuristic", seed=2)], game=str(game))),
        daemon=True).start()
    page.wait_for_selector("table.seats .bot.daide")
    row = page.inner_text("table.seats tr:has(.daide)")
    assert "Turkey" in row and "computer: realpolitik v" in row and "(DAIDE)" in row
    page.wait_for_selector(".seat-changes li:has-text('taken by the DAIDE bot realpolitik v')")
    page.screenshot(path=str(shots_dir(tmp_path) / "web-daide-seat.png"), full_page=True)
    page.goto(server.url + "/")
    page.wait_for_selector(f"a[href='#/game/{game}']")
    lobby = page.inner_text(f"#mine tr:has(a[href='#/game/{game}'])")
    assert "(DAIDE)" in lobby, lobby
    assert not page.errors, page.errors
