"""The first game as players meet it (issue 19): the help of retreats and adjustments, who has
given orders, "my games", toasts and notifications, unread press and its time of day, the map on
a phone, the unit menu beside the destinations, and the centre chart's labels."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from test_web_play import PHONE, WIDE, click_province, new_page, shots_dir

pytestmark = pytest.mark.browser

# What the page's user would see at a point: is it inside the unit menu?
_COVERED_BY_MENU_JS = """() => {
  const menu = document.querySelector('.menu:not([hidden])');
  const lit = new Set([...document.querySelectorAll('#rp-hl .hl-dest')]
    .map(p => p.dataset.province));
  const out = [];
  for (const t of document.querySelectorAll('#map svg #labels > g:last-child text')) {
    const prov = t.textContent.trim().toLowerCase();
    if (!lit.has(prov)) continue;
    const r = t.getBoundingClientRect();
    const x = r.x + r.width / 2, y = r.y + r.height / 2;
    const hit = document.elementFromPoint(x, y);
    out.push([prov, !!(hit && menu && menu.contains(hit))]);
  }
  return out;
}"""


class Players:
    """Two accounts made through the API, and a way to open the page as either of them."""

    def __init__(self, browser: Any, server: Any, names: tuple[str, str]) -> None:
        self.browser, self.server = browser, server
        self.tokens = {n: server.api("POST", "/auth/signup",
                                     {"username": n, "password": "correct horse"})["token"]
                       for n in names}

    def api(self, who: str, method: str, path: str, body: Any = None) -> Any:
        return self.server.api(method, path, body, self.tokens[who])

    def orders(self, who: str, game: int, power: str, text: str) -> None:
        answer = self.api(who, "PUT", f"/games/{game}/orders", {"power": power, "text": text})
        assert answer["errors"] == 0, answer

    def ready(self, game: int, *who: str) -> None:
        for name in who:
            self.api(name, "POST", f"/games/{game}/ready", {})

    def page(self, who: str, path: str = "/", viewport: dict[str, int] = WIDE,
             context_options: dict[str, Any] | None = None) -> Any:
        page = new_page(self.browser, self.server, viewport) if context_options is None else \
            _page_with(self.browser, self.server, viewport, context_options)
        page.evaluate("([t, u]) => { localStorage.setItem('rp:token', t); "
                      "localStorage.setItem('rp:user', u); }", [self.tokens[who], who])
        page.goto(self.server.url + path)
        return page


def _page_with(browser: Any, server: Any, viewport: dict[str, int],
               options: dict[str, Any]) -> Any:
    init = options.pop("init_script", None)
    context = browser.new_context(viewport=viewport, **options)
    if init:
        context.add_init_script(init)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.on("dialog", lambda d: d.accept())
    page.set_default_timeout(15000)
    page.goto(server.url + "/")
    return page


def two_player_game(players: Players, gm: str, other: str, name: str) -> int:
    """The 1914 game: ``gm`` plays England, France and Russia; ``other`` Austria, Germany and
    Turkey."""
    game = int(players.api(gm, "POST", "/games", {"name": name, "players": "2",
                                                  "join_as": "england"})["id"])
    players.api(other, "POST", f"/games/{game}/join", {"power": "austria"})
    return game


def test_retreat_and_adjustment_help(browser: Any, server: Any, tmp_path: Path) -> None:
    """Playing 2: retreats say that unordered dislodged units are disbanded; adjustments say
    how many builds or removals are due; the winter example reads as what is due."""
    shots = shots_dir(tmp_path)
    players = Players(browser, server, ("hana", "ivan"))
    game = two_player_game(players, "hana", "ivan", "Help test")
    # Spring: Austria to Galicia, Turkey to the Black Sea and Armenia, Russia's army out of
    # Warsaw. Fall: Austria takes Warsaw; Turkey dislodges the fleet in Sevastopol.
    players.orders("hana", game, "russia", "A War-Ukr")
    players.orders("ivan", game, "austria", "A Bud-Gal")
    players.orders("ivan", game, "turkey", "F Ank-Bla\nA Smy-Arm")
    players.ready(game, "hana", "ivan")
    players.orders("ivan", game, "austria", "A Gal-War")
    players.orders("ivan", game, "turkey", "A Arm-Sev\nF Bla S A Arm-Sev")
    players.ready(game, "hana", "ivan")
    assert players.api("hana", "GET", f"/games/{game}")["phase"] == "F1914R"

    hana = players.page("hana", f"/#/game/{game}")
    hana.wait_for_selector("#orders-h:has-text('Russia')")
    hana.wait_for_selector("#live.on")  # events from now on reach the page
    due = hana.inner_text("#orders-due")
    assert "1 dislodged unit to retreat or disband" in due
    assert "disbanded" in hana.inner_text("#orders-default")
    assert "hold" not in hana.inner_text("#orders-default")
    assert "F SEV R RUM\nF SEV D" in hana.get_attribute("#order-text", "placeholder")
    hana.screenshot(path=str(shots / "web-retreat-help.png"))

    players.ready(game, "hana")  # the fleet is left without an order: it is disbanded
    hana.wait_for_selector("#phase:has-text('Winter 1914 adjustments')")
    hana.wait_for_selector("#orders-due:has-text('Removals')")
    # Russia: Moscow and St Petersburg left, three units.
    assert "1 unit must be removed (2 centres, 3 units); 0 given" in hana.inner_text("#orders-due")
    assert "farthest from your home centres" in hana.inner_text("#orders-default")
    placeholder = hana.get_attribute("#order-text", "placeholder")
    assert "one line per unit to remove: 1 due" in placeholder
    hana.select_option("#sel-russia-ukr", "A UKR D")
    hana.wait_for_selector("#orders-due:has-text('1 given')")

    ivan = players.page("ivan", f"/#/game/{game}")
    ivan.wait_for_selector("#orders-due")
    ivan.click(".powers button:has-text('Austria')")
    ivan.wait_for_selector("#orders-due:has-text('Builds')")
    assert "1 build allowed (4 centres, 3 units)" in ivan.inner_text("#orders-due")
    assert "given up" in ivan.inner_text("#orders-default")
    assert re.search(r"[AF] \w{3} B\n\(one line per build\)",
                     ivan.get_attribute("#order-text", "placeholder"))
    ivan.screenshot(path=str(shots / "web-adjustment-help.png"))
    assert not hana.errors and not ivan.errors, (hana.errors, ivan.errors)


NOTIFICATION_RECORDER = """
window.__notes = [];
class RecordedNotification {
  constructor(title, options) { window.__notes.push({ title, body: options && options.body }); }
  close() {}
  static get permission() { return "granted"; }
  static requestPermission() { return Promise.resolve("granted"); }
}
window.Notification = RecordedNotification;
document.hasFocus = () => false;  // the player is looking at another window
"""


def test_orders_in_my_games_toasts_and_notifications(browser: Any, server: Any,
                                                      tmp_path: Path) -> None:
    """Playing 3: the seats say whose orders are in; "my games" says what is owed, the deadline
    and the unread press; toasts go away, never pile up and stay off the orders; a notification
    when a phase is played while the page is in the background (if allowed)."""
    shots = shots_dir(tmp_path)
    players = Players(browser, server, ("jane", "kurt"))
    game = two_player_game(players, "jane", "kurt", "Seats test")
    players.orders("jane", game, "france", "A Par-Bur")

    kurt = players.page("kurt", f"/#/game/{game}", context_options={
        "permissions": ["notifications"], "init_script": NOTIFICATION_RECORDER})
    kurt.wait_for_selector("#orders-h")
    kurt.wait_for_selector("#live.on")
    kurt.click("#tab-game")
    jane_row = kurt.locator("table.seats tbody tr").nth(0)
    assert jane_row.locator(".seat-state").inner_text() == \
        "no orders yet / orders in / no orders yet"
    players.ready(game, "jane")
    kurt.wait_for_function("() => document.querySelector('table.seats .seat-state')"
                           ".innerText.includes('ready ✓')")
    assert kurt.locator("#notify-state").count() == 1  # allowed already: says so

    # My games, for Jane: what is owed, the deadline, unread press (one message from Kurt).
    players.api("kurt", "POST", f"/games/{game}/press",
                {"sender": "germany", "to": ["france"], "body": "Hello France"})
    players.api("jane", "POST", f"/games/{game}/ready", {"ready": False})
    jane = players.page("jane", "/")
    jane.wait_for_selector(f"#mine tr[data-game='{game}']")
    row = jane.inner_text(f"#mine tr[data-game='{game}']")
    assert "Orders needed: England, Russia" in row
    assert re.search(r"\d+:\d{2} left", row)
    assert jane.inner_text(f"#mine tr[data-game='{game}'] .badge.unread") == "1"
    jane.screenshot(path=str(shots / "web-my-games-owed.png"))

    # Toasts: five at once leave three, none over the map (issue 32: a click meant for a unit
    # hit a notice there) but at the top of the side panel, above the orders; all go away.
    kurt.click("#tab-orders")
    kurt.evaluate("""async () => { const m = await import('/static/api.js');
      for (let i = 0; i < 5; i++) m.toast(`message ${i}`); m.toast('message 4'); }""")
    assert kurt.locator(".toast").count() == 3
    assert kurt.locator(".toast >> text=message 4").count() == 1
    side = kurt.locator(".side").bounding_box()
    map_box = kurt.locator("#map").bounding_box()
    orders_top = kurt.locator("#panel-orders").bounding_box()["y"]
    for box in (kurt.locator(".toast").nth(i).bounding_box() for i in range(3)):
        assert box["x"] >= map_box["x"] + map_box["width"], (box, map_box)
        assert side["x"] <= box["x"] and box["y"] + box["height"] <= orders_top, (box, side)
    kurt.wait_for_selector(".toast", state="detached", timeout=11000)

    # A phase played while Kurt's page is in the background: a notification.
    players.orders("kurt", game, "germany", "A Mun-Ruh")
    players.ready(game, "jane", "kurt")
    kurt.wait_for_selector("#phase:has-text('Fall 1914 movement')")
    kurt.wait_for_function("() => window.__notes.length > 0")
    notes = kurt.evaluate("window.__notes")
    assert notes == [{"title": "Seats test",
                      "body": "Spring 1914 movement was adjudicated: now Fall 1914 movement."}]
    assert not kurt.errors and not jane.errors, (kurt.errors, jane.errors)


def test_unread_clears_in_an_open_thread_and_press_has_a_time(browser: Any, server: Any) -> None:
    """Playing 5: opening the press tab shows the unread thread and counts it read; a message
    arriving in the open thread is read at once; each message shows its time of day."""
    players = Players(browser, server, ("lena", "milo"))
    game = two_player_game(players, "lena", "milo", "Press test")
    lena = players.page("lena", f"/#/game/{game}")
    lena.wait_for_selector("#orders-h")
    lena.wait_for_selector("#live.on")
    players.api("milo", "POST", f"/games/{game}/press",
                {"sender": "germany", "to": ["france"], "body": "First"})
    lena.wait_for_selector("#unread:not([hidden])")
    lena.click("#tab-press")  # opens the thread with the unread message
    lena.wait_for_selector(".thread >> text=First")
    lena.wait_for_selector("#unread", state="hidden")
    players.api("milo", "POST", f"/games/{game}/press",
                {"sender": "germany", "to": ["france"], "body": "Second"})
    lena.wait_for_selector(".thread >> text=Second")
    assert lena.locator("#unread").is_hidden()
    assert lena.locator(".conv .badge").count() == 0
    meta = lena.inner_text(".thread .msg >> nth=0 >> .meta")
    assert re.search(r"\d{1,2}:\d{2}", meta), meta
    assert not lena.errors, lena.errors


def test_phone_map_is_readable_and_the_menu_spares_the_destinations(
        browser: Any, server: Any, tmp_path: Path) -> None:
    """Playing 6: on a 390 x 844 screen the map starts zoomed in (names about their drawn
    size, the board scrolls), a unit is tapped and its destinations stay uncovered by the
    menu; the same on a wide screen."""
    shots = shots_dir(tmp_path)
    players = Players(browser, server, ("nora", "otto"))
    game = two_player_game(players, "nora", "otto", "Phone test")
    phone = players.page("nora", f"/#/game/{game}", PHONE)
    phone.wait_for_selector("#map svg #spaces")
    phone.wait_for_selector("#orders-h")
    sizes = phone.evaluate("""() => {
      const map = document.querySelector('#map'), svg = map.querySelector('svg');
      const label = [...svg.querySelectorAll('#labels > g:last-child text')]
        .find(t => t.textContent === 'PAR');
      return { svg: svg.getBoundingClientRect().width, view: map.clientWidth,
               scroll: map.scrollWidth, text: label.getBoundingClientRect().height,
               zoom: document.querySelector('#zoom').getAttribute('aria-pressed') };
    }""")
    assert sizes["zoom"] == "true"
    assert sizes["svg"] >= 1100 and sizes["scroll"] > sizes["view"] * 2, sizes
    assert sizes["text"] >= 9, sizes  # the names at (about) their drawn 9.5 px
    assert phone.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert "None yet: units without orders hold." in phone.inner_text("#panel-orders")
    assert "null" not in phone.inner_text("#panel-orders")
    phone.screenshot(path=str(shots / "web-phone-zoomed.png"))

    for page, unit, dest in ((phone, "par", "bur"),
                             (players.page("nora", f"/#/game/{game}"), "war", "sil")):
        page.wait_for_selector("#map svg #spaces")
        page.wait_for_selector("#orders-h")
        click_province(page, unit)
        page.wait_for_selector(".menu:not([hidden])")
        covered = page.evaluate(_COVERED_BY_MENU_JS)
        assert len(covered) >= 3 and not [p for p, hit in covered if hit], covered
        click_province(page, dest)
        page.wait_for_selector(f"#order-lines >> text={unit.upper()} - {dest.upper()}")
        assert not page.errors, page.errors
    phone.reload()
    phone.click(".powers button:has-text('France')")
    phone.wait_for_selector("#order-lines >> text=A PAR - BUR")


def test_centre_chart_labels_do_not_overlap(browser: Any, server: Any) -> None:
    """Playing 7 (the page's part): seven powers with three or four centres each still get
    labels that neither overlap nor leave the chart."""
    players = Players(browser, server, ("pia", "quinn"))
    game = int(players.api("pia", "POST", "/games", {"name": "Chart test",
                                                     "join_as": "france"})["id"])
    players.api("pia", "POST", f"/games/{game}/gm/start", {})
    players.api("pia", "POST", f"/games/{game}/gm/process", {})
    page = players.page("pia", f"/#/game/{game}")
    page.wait_for_selector("#orders-h")
    page.click("#tab-history")
    page.wait_for_selector("#sc-chart text.legend")
    check_chart_labels(page, 7)
    # Late in a game five powers are down to one centre or none: their labels crowd the foot
    # of the chart, above the years (the page's own chart code, drawn from made-up history).
    page.evaluate("""async () => {
      const { HistoryPanel } = await import('/static/history.js');
      const powers = ['austria', 'england', 'france', 'germany', 'italy', 'russia', 'turkey'];
      const year = (y, counts) => ({ phase: `S${y}M`, position: { centers: Object.fromEntries(
        powers.map((p) => [p.toUpperCase(), Array(counts[p]).fill('x')])) } });
      const start = Object.fromEntries(powers.map((p) => [p, 3]));
      const now = { austria: 0, england: 0, france: 0, germany: 1, italy: 1, russia: 16,
                    turkey: 16 };
      const page = { game: { variant: 'classical', powers, centers: now },
                     catalogue: { variants: [] } };
      const panel = new HistoryPanel(page, document.createElement('div'));
      panel.entries = [year(1901, start), year(1902, start)];
      const figure = panel.chart();
      figure.querySelector('svg').id = 'crowded-chart';
      document.querySelector('#panel-history').append(figure);
    }""")
    check_chart_labels(page, 7, "#crowded-chart")
    assert not page.errors, page.errors


def check_chart_labels(page: Any, count: int, chart: str = "#sc-chart") -> None:
    """The chart's power labels overlap neither each other nor the years, and stay inside."""
    boxes = page.evaluate("""(chart) => {
      const svg = document.querySelector(chart);
      const frame = svg.getBoundingClientRect();
      const years = [...svg.querySelectorAll('text.axis')]
        .filter(t => /^(\\d{4}|now)$/.test(t.textContent)).map(t => t.getBoundingClientRect());
      return { frame, years, labels: [...svg.querySelectorAll('text.legend')].map(t => {
        const r = t.getBoundingClientRect();
        return [t.textContent, r.x, r.y, r.width, r.height]; }) };
    }""", chart)
    labels = boxes["labels"]
    assert len(labels) == count, labels

    def overlap(a: list[Any], b: list[Any]) -> bool:
        return a[1] < b[1] + b[3] and b[1] < a[1] + a[3] and a[2] < b[2] + b[4] and \
            b[2] < a[2] + a[4]

    for i, a in enumerate(labels):
        for b in labels[i + 1:]:
            assert not overlap(a, b), (a, b)
        frame = boxes["frame"]
        assert frame["y"] <= a[2] and a[2] + a[4] <= frame["y"] + frame["height"], a
        for year in boxes["years"]:
            assert not overlap(a, ["", year["x"], year["y"], year["width"], year["height"]]), \
                (a, year)
