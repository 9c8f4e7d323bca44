"""Every main page of the demo club in Korean: no English word of the interface leaks through
(rule-set keys, tie-break abbreviations, "upcard", fallback particles ...)."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client

from clubs.models import Club, Player
from scoring.models import Match
from scoring.services import match_link_token
from tournaments.models import Event

pytestmark = pytest.mark.django_db

# Words of the interface that must not reach a Korean reader (whole words): rule-set keys and
# abbreviations, and the English words of buttons, headings and notices. "Knock" is the
# product's name and stays; the demo's player and event names are not in the list.
LEAKS = re.compile(
    r"\b(standard|classic|modern|oklahoma|hollywood|three-box|online-table|partnership|"
    r"upcard|dice|MP|SB|Buch|Buchholz|Sonneborn|Updated|Updating|Current|Winner|Standings|"
    r"Round|Rounds|Pairings|Table|knocker|defender|deadwood|points|score sheet|won|bye|v|"
    r"Confirm|Withdraw|Dispute|Disputed|Settle|Correct|Enter hand|Score sheet|Results|"
    r"Bracket|Players|Knocker|Defender|Deadwood|Points|Game|Hand|Seat|Match|best of|first to|"
    r"hands|rounds|entered|disputed|deals|You are|Sign in|Sign out|My page|Check in)\b"
)
# A fallback particle the page should have chosen ("Bao이(가) 입력한"), in any of its spellings.
FALLBACKS = re.compile(
    r"이\(가\)|가\(이\)|은\(는\)|는\(은\)|을\(를\)|를\(을\)|\(으\)로|와\(과\)|과\(와\)"
    r"|[가-힣A-Za-z0-9]\(이\)"
)


def _visible(page: str) -> str:
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    # What people wrote (a correction's or a dispute's reason) is quoted as they wrote it.
    page = re.sub(r"<q\b.*?</q>", " ", page, flags=re.S)
    page = re.sub(r"<[^>]+>", " ", page)
    return html.unescape(page)


def _leaks(client: Client, url: str) -> list[str]:
    response = client.get(url, HTTP_ACCEPT_LANGUAGE="ko", follow=True)  # a link lands on its page
    assert response.status_code == 200, url
    text = _visible(response.content.decode())
    found = [*LEAKS.finditer(text), *FALLBACKS.finditer(text)]
    return [f"{url}: {m.group(0)!r} in …{text[max(0, m.start() - 30) : m.end() + 30]!r}…"
            for m in found]  # fmt: skip


def test_the_demo_clubs_pages_are_korean_throughout() -> None:
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    spectator = Client()
    director = Client()
    director.force_login(get_user_model().objects.get())
    urls = ["/", "/clubs/"] + [f"/clubs/{c.slug}/" for c in Club.objects.all()]
    for event in Event.objects.all():
        urls.append(f"/events/{event.pk}/")
        urls += [
            f"/events/{event.pk}/rounds/{n}/" for n in event.rounds.values_list("number", flat=True)
        ]
        match = Match.objects.filter(event=event).order_by("pk").first()
        if match is not None:
            urls.append(f"/matches/{match.pk}/")
    urls += [f"/players/{p.pk}/" for p in Player.objects.order_by("pk")[:3]]
    leaks = [leak for url in urls for leak in _leaks(spectator, url)]
    for event in Event.objects.all():
        leaks += _leaks(director, f"/events/{event.pk}/")
        leaks += _leaks(director, f"/events/{event.pk}/settings/")
    # Every table with an entry waiting or disputed, as its director and as each player reads it
    # (a disputed hand's sentence names who entered it: "Bao 님이 입력한 …").
    waiting = Match.objects.filter(games__hands__submissions__status__in=["pending", "disputed"])
    for match in waiting.distinct().order_by("pk"):
        leaks += _leaks(director, f"/matches/{match.pk}/")
        for seat in match.seats.all():
            token = match_link_token(match=match, position=seat.position)
            leaks += _leaks(Client(), f"/matches/{match.pk}/?k={token}")
    assert not leaks, "\n".join(leaks)
    # the same words are there in English: the check reads the pages it means to
    finished = Event.objects.filter(status=Event.Status.FINISHED).first()
    assert finished is not None
    english = _visible(spectator.get(f"/events/{finished.pk}/").content.decode())
    assert {"Winner", "Standings", "MP"} <= {m.group(0) for m in LEAKS.finditer(english)}
