"""Issue 34, item 12, on the page: the lobby's Account card changes the password (the policy's
refusal said in plain words), lists one's log-ins and ends one, and signs out everywhere; the
log-in and sign-up forms say why the server refused (a weak password, too many failed log-ins:
how long to wait) and keep what was typed."""

from __future__ import annotations

import json
import re
import urllib.error
from typing import Any

import pytest
from test_web_play import PHONE, WIDE

pytestmark = pytest.mark.browser

PASSWORD = "correct horse"
NEW_PASSWORD = "amber kettle lantern"


def status(server: Any, method: str, path: str, body: Any = None, token: str | None = None) -> int:
    """The HTTP status of one API request (200 family or the error's)."""
    try:
        server.api(method, path, body, token)
    except urllib.error.HTTPError as exc:
        return int(exc.code)
    return 200


def sign_up(server: Any, name: str) -> str:
    """A new account (through the API, as another device would); its token."""
    answer = server.api("POST", "/auth/signup", {"username": name, "password": PASSWORD})
    return str(answer["token"])


def new_page(browser: Any, server: Any) -> Any:
    """A page of a browser that has never logged in, showing the lobby."""
    page = browser.new_context(viewport=WIDE).new_page()
    page.errors = []
    page.on("pageerror", lambda e: page.errors.append(str(e)))
    page.set_default_timeout(15000)
    page.goto(server.url + "/")
    page.wait_for_selector("#login-form")
    return page


def log_in(page: Any, name: str, password: str) -> None:
    """Log in through the page's form and wait for the Account card."""
    page.fill("#login-form input[name=username]", name)
    page.fill("#login-form input[name=password]", password)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#account #sessions table")


def page_token(page: Any) -> str | None:
    token = page.evaluate("localStorage.getItem('rp:token')")
    return None if token is None else str(token)


def test_a_new_password_is_refused_in_plain_words_then_changed(browser: Any, server: Any) -> None:
    other_device = sign_up(server, "petra")
    page = new_page(browser, server)
    log_in(page, "petra", PASSWORD)
    # the length rule is told while typing
    page.fill("#pw-new", "abc")
    assert "5 more characters needed" in page.inner_text("#pw-hint")
    # a wrong current password: said, and the new one typed is kept
    page.fill("#pw-current", "not my password")
    page.fill("#pw-new", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#pw-msg:has-text('current password is wrong')")
    assert page.input_value("#pw-new") == NEW_PASSWORD
    # a common password: refused, with the reason, and both fields kept
    page.fill("#pw-current", PASSWORD)
    page.fill("#pw-new", "password")
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#pw-msg:has-text('too easy to guess')")
    said = page.inner_text("#pw-msg")
    assert said.startswith(
        "The server refused this password: this password is too easy to guess"), said
    assert page.input_value("#pw-current") == PASSWORD
    assert page.input_value("#pw-new") == "password"
    # the one it has now: refused, saying so
    page.fill("#pw-new", PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#pw-msg:has-text('the one you have now')")
    assert page.inner_text("#pw-msg").startswith(
        "The new password is the one you have now: choose a different one")
    assert page.input_value("#pw-new") == PASSWORD
    # a good one: changed; the other device's log-in ends, this page stays signed in
    page.fill("#pw-new", NEW_PASSWORD)
    page.click("#password-form button[type=submit]")
    page.wait_for_selector("#pw-done:has-text('Password changed.')")
    assert page.inner_text("#pw-done") == (
        "Password changed. 1 other log-in ended; this page stays signed in.")
    assert page.inner_text("#pw-msg") == ""
    assert page.input_value("#pw-new") == "" and page.input_value("#pw-current") == ""
    assert status(server, "GET", "/auth/me", token=other_device) == 401
    assert status(server, "GET", "/auth/me", token=page_token(page)) == 200
    # the list of log-ins is loaded again after "Password changed." is written: its one row
    # is waited for, not counted before the new list comes
    page.wait_for_function("document.querySelectorAll('#sessions tbody tr').length === 1")
    # the old password no longer opens the account; the new one does, in a fresh browser
    assert status(server, "POST", "/auth/login", {"username": "petra", "password": PASSWORD}) == 401
    fresh = new_page(browser, server)
    log_in(fresh, "petra", NEW_PASSWORD)
    assert "Signed in as petra" in fresh.inner_text("#who")
    assert page.errors == [] and fresh.errors == []


def test_a_second_log_in_is_listed_and_ended(browser: Any, server: Any) -> None:
    phone = sign_up(server, "quentin")  # the log-in of sign-up, from a program
    page = new_page(browser, server)
    log_in(page, "quentin", PASSWORD)
    rows = page.locator("#sessions tbody tr")
    assert rows.count() == 2
    mine = page.locator("#sessions tbody tr.current")
    assert mine.count() == 1
    assert "(this session)" in mine.inner_text()
    assert "Chrome on Linux" in mine.inner_text() and "127.0.0.1" in mine.inner_text()
    assert "Last used" in page.inner_text("#sessions thead")
    assert mine.locator("td.last-used").inner_text() == "just now"
    other = page.locator("#sessions tbody tr:not(.current)")
    assert "Python-urllib" in other.inner_text()
    assert "(this session)" not in other.inner_text()
    page.set_viewport_size(PHONE)  # the card fits a phone: no sideways scrolling
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    other.locator("button.end-session").click()
    page.wait_for_function("document.querySelectorAll('#sessions tbody tr').length === 1")
    assert "(this session)" in page.inner_text("#sessions tbody tr")
    assert status(server, "GET", "/auth/me", token=phone) == 401  # its token is refused now
    assert status(server, "GET", "/auth/me", token=page_token(page)) == 200
    assert page.errors == []


def test_sign_out_everywhere_ends_this_page_too(browser: Any, server: Any) -> None:
    laptop = sign_up(server, "rosa")
    page = new_page(browser, server)
    log_in(page, "rosa", PASSWORD)
    mine = page_token(page)
    page.click("#logout-everywhere")
    page.wait_for_selector("#signed-out")
    assert page.inner_text("#signed-out") == (
        "Signed out everywhere: 2 log-ins ended, this page's too. Log in again to play.")
    assert page.is_visible("#login-form") and page.locator("#account").count() == 0
    assert "Log in or sign up" in page.inner_text("#who")
    assert page_token(page) is None
    assert status(server, "GET", "/auth/me", token=laptop) == 401
    assert status(server, "GET", "/auth/me", token=mine) == 401
    assert page.errors == []


def test_sign_up_says_why_a_password_is_weak_and_keeps_it(browser: Any, server: Any) -> None:
    page = new_page(browser, server)
    page.fill("#signup-form input[name=username]", "sigrid")
    page.fill("#signup-form input[name=password]", "1234567")
    assert "1 more character needed" in page.inner_text("#signup-hint")
    page.fill("#signup-form input[name=password]", "12345678")
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#signup-msg:has-text('too easy to guess')")
    assert page.input_value("#signup-form input[name=username]") == "sigrid"
    assert page.input_value("#signup-form input[name=password]") == "12345678"
    assert page_token(page) is None
    page.fill("#signup-form input[name=password]", NEW_PASSWORD)
    page.click("#signup-form button[type=submit]")
    page.wait_for_selector("#account")
    assert "Signed in as sigrid" in page.inner_text("#who")
    assert page.errors == []


def test_too_many_failed_log_ins_say_how_long_to_wait(browser: Any, server: Any) -> None:
    sign_up(server, "tomas")
    for _ in range(10):  # the limit per account and address (10 per 15 minutes)
        wrong = {"username": "tomas", "password": "wrong"}
        assert status(server, "POST", "/auth/login", wrong) == 401
    page = new_page(browser, server)
    page.fill("#login-form input[name=username]", "tomas")
    page.fill("#login-form input[name=password]", PASSWORD)
    page.click("#login-form button[type=submit]")
    page.wait_for_selector("#login-msg:has-text('Wait')")
    said = page.inner_text("#login-msg")
    assert said.startswith(
        "Too many failed log-ins for this account from your address. Wait "), said
    # the limit's window is fixed (15 minutes on the clock), so the wait left is anything from
    # a second to 15 minutes, said in the unit that fits
    assert re.search(r"Wait \d+ (second|minute)s?, then try again\.$", said), said
    assert page.input_value("#login-form input[name=username]") == "tomas"
    assert page.input_value("#login-form input[name=password]") == PASSWORD
    assert page_token(page) is None
    assert page.errors == []


def test_the_refusal_wording_of_each_code(browser: Any, server: Any) -> None:
    """account.js's ``refusal`` for the codes the account routes answer."""
    refusals = [
        (429, "too_many_requests",
         "too many sign-ups from your address (10 per 1 hour); try again in 45 s",
         {"retry_after": 45}),
        (429, "too_many_requests",
         "too many failed log-ins from your address (30 per 15 minutes); try again in 61 s",
         {"retry_after": 61}),
        (409, "username_taken", "the user name 'ann' is taken", {}),
        (401, "bad_credentials", "wrong user name or password", {}),
    ]
    page = new_page(browser, server)
    said = page.evaluate("""async (refusals) => {
      const { refusal } = await import('/static/account.js');
      const { ApiError } = await import('/static/api.js');
      return refusals.map(([status, code, message, detail]) =>
        refusal(new ApiError(status, code, message, detail)));
    }""", refusals)
    assert said == [
        "Too many sign-ups from your address. Wait 45 seconds, then try again.",
        "Too many failed log-ins from your address. Wait 2 minutes, then try again.",
        "The user name 'ann' is taken. Choose another name.",
        "Wrong user name or password.",
    ], json.dumps(said)
