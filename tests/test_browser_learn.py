"""Browser tests of the "Learn to play" page (``/learn``), with the server, browser and page
fixtures of ``test_browser.py``: from the start page's link to how to play and the British rules,
a table's "Rules" link, and the page at a phone's and a desktop's size."""

from __future__ import annotations

from typing import TYPE_CHECKING

import httpx
from test_browser import DESKTOP, LEVEL, PHONE, Pages, browser, pages, server, shots_dir

if TYPE_CHECKING:
    from playwright.sync_api import Page

__all__ = ["browser", "server", "shots_dir", "pages"]  # the fixtures, imported for pytest

NOT_WIDER = "() => document.documentElement.scrollWidth - document.documentElement.clientWidth"


def rules_text(page: Page) -> str:
    page.wait_for_function("() => !!document.querySelector('#rules-body .learn-part')")
    return " ".join(page.inner_text("#rules-body").split())


def test_learn_from_the_start_page(pages: Pages) -> None:
    page = pages.page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    page.goto("/")
    page.wait_for_selector("#preset option", state="attached")
    page.click("#learn-link")
    page.wait_for_url("**/learn")
    page.wait_for_function("() => !!document.querySelector('#how-body .learn-part')")
    how = " ".join(page.inner_text("#how-body").split())
    assert "right bower" in how and "left bower" in how and "at least three of the five tricks" in how
    assert page.evaluate(NOT_WIDER) <= 0, "the page scrolls sideways on a phone"
    pages.shot(page, "phone-top")

    page.select_option("#learn-preset", "british")
    page.wait_for_function("() => document.getElementById('rules-title').textContent.includes('British')")
    words = rules_text(page)
    assert "Joker" in words and "The first side to reach 11 points wins the game." in words
    assert "Canadian loner" in words
    assert page.url.endswith("/learn?preset=british")
    assert page.evaluate(NOT_WIDER) <= 0
    page.locator("#rules").scroll_into_view_if_needed()
    pages.shot(page, "phone-british")
    pages.shot(page, "phone-full", full_page=True)
    for sel in ("#how-to-play", "#rules", "h1"):
        box = page.locator(sel).bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] + 0.5, (sel, box)


def test_learn_with_a_preset_and_switches_at_desktop_size(pages: Pages) -> None:
    page = pages.page(viewport={"width": 1280, "height": 800})
    page.goto("/learn?preset=cutthroat&stick_the_dealer=yes")
    words = rules_text(page)
    assert "Three players" in words and "the dealer must name a trump if everyone passes twice" in words
    assert page.inner_text("#rules-title") == "The rules of Cut-throat Euchre"
    assert "with some switches changed" in page.inner_text("#table-note")
    assert page.input_value("#learn-preset") == "cut-throat"  # the alias is the server's to resolve
    # the asked-for rules come first, then how to play
    rules_y = page.locator("#rules").bounding_box()
    how_y = page.locator("#how-to-play").bounding_box()
    assert rules_y is not None and how_y is not None and rules_y["y"] < how_y["y"]
    assert page.evaluate(NOT_WIDER) <= 0
    pages.shot(page, "desktop-cut-throat")

    # another game from the list: its own rules, without the switches of the address
    page.select_option("#learn-preset", "two-handed")
    page.wait_for_function("() => document.getElementById('rules-title').textContent.includes('Two-handed')")
    words = rules_text(page)
    assert "Two players" in words and "must name a trump" not in words
    assert page.locator("#table-note").is_hidden() and page.url.endswith("/learn?preset=two-handed")

    page.goto("/learn?preset=nosuch")
    page.wait_for_selector("#error:not(.hidden)")
    assert "unknown rules preset" in page.inner_text("#error")


def test_a_tables_rules_link_opens_its_rules(pages: Pages) -> None:
    r = httpx.post(pages.server.base + "/api/tables", timeout=10, json={
        "mode": "bots", "preset": "british", "rules": {"stick_the_dealer": True}, "level": LEVEL, "name": "Lee"})
    assert r.status_code == 201, r.text
    t = r.json()
    page = pages.page(viewport=DESKTOP, name="Lee")
    page.goto(t["url"])
    link = page.locator("#rules-link")
    page.wait_for_function("() => document.getElementById('rules-link').href.includes('table=')")
    assert link.get_attribute("href") == f"/learn?table={t['id']}"
    assert link.get_attribute("target") == "_blank"
    with page.context.expect_page() as opened:
        link.click()
    learn = opened.value
    learn.wait_for_load_state()
    words = rules_text(learn)
    assert learn.inner_text("#rules-title") == "The rules of this table"
    assert "The rules of British Euchre, with some switches changed." in learn.inner_text("#table-note")
    assert "Joker" in words and "11 points" in words and "must name a trump" in words
    assert learn.locator("#learn-choose").is_hidden()
    pages.shot(learn, "table-rules")

    # on a phone the link is in the top bar too, inside the screen
    phone = pages.page(viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2, name="Lee")
    phone.goto(t["url"])
    phone.wait_for_function("() => document.getElementById('rules-link').href.includes('table=')")
    box = phone.locator("#rules-link").bounding_box()
    assert phone.locator("#rules-link").is_visible() and box is not None
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"] and box["y"] + box["height"] <= 60, box
    pages.shot(phone, "table-phone")

    learn.goto("/learn?table=nosuchtable1")
    learn.wait_for_selector("#error:not(.hidden)")
    assert "Could not load the rules of this table" in learn.inner_text("#error")
    learn.wait_for_function("() => !!document.querySelector('#how-body .learn-part')")
