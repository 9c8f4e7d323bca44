"""What a visitor sees on the home page, on a phone-sized screen, in English and Korean."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)


def test_home_page_shows_what_knock_is(page):
    page.goto("/")
    assert page.title().startswith("Knock")
    heading = page.locator("h1")
    assert heading.inner_text() == "Every hand recorded. Every point trusted."
    assert page.locator(".cards article").count() == 3
    assert page.get_by_role("link", name="API").is_visible()


def test_visitor_can_switch_to_korean(page):
    page.goto("/")
    page.get_by_role("button", name="한국어").click()
    page.wait_for_load_state()
    assert page.locator("html").get_attribute("lang") == "ko"
    assert page.locator("h1").inner_text() == "모든 핸드를 기록하고, 모든 점수를 믿을 수 있게."
