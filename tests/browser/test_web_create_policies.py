"""The create form offers a variant's policies (its readings of unclear rules), each starting at
the variant's own reading, sends only those changed, and shows none for the classical game."""

from __future__ import annotations

import json
import urllib.request
from typing import Any

import pytest
from test_web_play import new_page, sign_up

pytestmark = pytest.mark.browser


def test_the_create_form_chooses_a_variants_policies(browser: Any, server: Any) -> None:
    page = new_page(browser, server)
    sign_up(page, "polly")
    page.wait_for_selector("#create-form")
    assert page.locator("#policies").is_hidden()  # the classical game has none
    page.select_option("#create-form select[name=variant]", "colonial_winters")
    assert page.locator("#policies").is_visible()
    choices = page.locator("#policies select")
    assert choices.count() == 13
    second = page.locator("#policies select[data-policy=second_place]")
    assert second.input_value() == "rank"
    assert "rank (the variant's)" in second.inner_text()
    second.select_option("count")
    page.fill("#create-form input[name=name]", "Counted second places")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/#/game/*")
    game = page.url.rsplit("/", 1)[1]
    with urllib.request.urlopen(f"{server.url}/games/{game}") as answer:
        view = json.load(answer)
    assert view["policies"]["second_place"] == "count"
    assert view["policies"]["corner_blocking"] == "order"  # left as the variant reads it
    # the game page marks the policy this game changed, with the variant's own reading
    page.click("#tab-game")
    page.wait_for_selector("dd:has-text('second place: count (this game; the variant')")
    policies = page.inner_text("dd:has-text('second place: count')")
    assert "second place: count (this game; the variant's own: rank)" in policies
    assert "corner blocking: order;" in policies or policies.endswith("corner blocking: order")
    assert page.errors == []


def test_the_create_form_offers_daide_bots_only_where_the_server_takes_them(
        browser: Any, server: Any) -> None:
    page = new_page(browser, server)
    sign_up(page, "dana")
    page.wait_for_selector("#create-form")
    assert page.locator("#daide-bots").is_visible()  # classical, a power a player
    page.check("#create-form input[name=daide_bots]")
    page.select_option("#create-form select[name=players]", "4")  # a player has several
    assert page.locator("#daide-bots").is_hidden()
    page.select_option("#create-form select[name=players]", "7")
    assert page.locator("#daide-bots").is_visible()
    # hiding it took the tick away: it is never sent where it would be refused
    assert not page.locator("#create-form input[name=daide_bots]").is_checked()
    page.select_option("#create-form select[name=variant]", "colonial_winters")
    assert page.locator("#daide-bots").is_hidden()
    assert page.errors == []
