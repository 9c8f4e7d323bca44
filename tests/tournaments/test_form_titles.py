"""The event forms show each field's help (translated) under it, never a code name as a
tooltip (``title="knock_limit"``, ``title="gin_bonus"``)."""

from __future__ import annotations

import html as html_lib
import re

import pytest

from clubs.models import ClubRole
from tests.clubs.factories import ClubRoleFactory
from tests.clubs.helpers import page_client
from tests.tournaments.factories import swiss_event
from tournaments.forms import RULE_PARAMS

pytestmark = pytest.mark.django_db

CODE_NAME = re.compile(r"^[a-z0-9]+(_[a-z0-9]+)+$")


def _titles(html: str) -> list[str]:
    return [html_lib.unescape(t) for t in re.findall(r'\btitle="([^"]*)"', html)]


@pytest.mark.parametrize("language", ["en", "ko"])
def test_no_form_field_has_a_code_name_as_its_title(language):
    event = swiss_event(2)
    director = ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user
    client = page_client(director)
    own_new = client.get(
        f"/clubs/{event.club.slug}/events/new/", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    settings = client.get(
        f"/events/{event.pk}/settings/", HTTP_ACCEPT_LANGUAGE=language
    ).content.decode()
    names = {p.name for p in RULE_PARAMS}
    for page in (own_new, settings):
        assert 'data-param="knock_limit"' in page  # the rule fields are there
        titles = _titles(page)
        assert not [t for t in titles if t in names or CODE_NAME.match(t)], titles


def test_the_rule_fields_show_their_help_in_korean():
    event = swiss_event(2)
    director = ClubRoleFactory(club=event.club, role=ClubRole.Role.DIRECTOR).user
    page = (
        page_client(director)
        .get(f"/events/{event.pk}/settings/", HTTP_ACCEPT_LANGUAGE="ko")
        .content.decode()
    )
    knock = page[page.index('data-param="knock_limit"') :]
    help_text = re.search(r'<p class="help">([^<]+)</p>', knock)
    assert help_text is not None
    assert re.search(r"[가-힣]", help_text.group(1))
