"""The pass mail is written in the language its holder entered in (``Entry.language``), not
in the site's or the request's that made the pass."""

from __future__ import annotations

import pytest
from django.core import mail
from django.utils import translation

from entries.models import Entry
from passes.services import pass_mail
from tests.passes.helpers import active_pass, swiss_with_passes
from tournaments.services.rounds import round_pair

pytestmark = pytest.mark.django_db


def entered(registration, language: str) -> None:
    Entry.objects.create(
        event=registration.event,
        name=registration.player.name,
        email=f"{registration.player.name.lower()}@example.org",
        registration=registration,
        status=Entry.Status.ACCEPTED,
        language=language,
    )


def test_a_korean_holder_gets_their_pass_in_korean_and_an_english_one_in_english(club):
    event, regs = swiss_with_passes(club, players=2)
    entered(regs[0], "ko")
    entered(regs[1], "en")
    with translation.override("en"):
        assert pass_mail(player_pass=active_pass(regs[0]))
    korean = mail.outbox[-1]
    assert korean.to == ["ada@example.org"]
    assert korean.subject == f"{event.name} 대회 패스"
    assert "Ada 님, 안녕하세요." in korean.body
    assert "/p/#" in korean.body
    assert "Hello" not in korean.body
    with translation.override("ko"):
        assert pass_mail(player_pass=active_pass(regs[1]))
    english = mail.outbox[-1]
    assert english.to == ["bo@example.org"]
    assert english.subject == f"Your pass for {event.name}"
    assert "Hello Bo," in english.body
    assert "님" not in english.body


def test_the_round_mail_follows_the_holders_language_too(club, director):
    event, regs = swiss_with_passes(club, players=2)
    entered(regs[0], "ko")
    entered(regs[1], "en")
    round_pair(event=event, user=director)
    rnd = event.rounds.get()
    with translation.override("en"):
        assert pass_mail(player_pass=active_pass(regs[0]), rnd=rnd)
    assert mail.outbox[-1].subject == f"{event.name}: 1라운드 대진이 나왔습니다"
    with translation.override("ko"):
        assert pass_mail(player_pass=active_pass(regs[1]), rnd=rnd)
    assert mail.outbox[-1].subject == f"{event.name}: round 1 is paired"
