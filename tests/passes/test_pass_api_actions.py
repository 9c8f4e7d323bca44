"""The holder's own acts in the API (``POST /api/events/{id}/pass/checkin/`` and
``…/pass/withdraw/``, with the secret in ``X-Pass-Key``) and the round's clock in the pass's
view: the same rules as the page, refusals that store nothing, in the reader's language."""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any
from unittest import mock

import pytest
from django.core.cache import cache
from django.test import Client
from django.utils import timezone
from rest_framework.test import APIClient

from passes.models import PlayerPass
from passes.services import pass_revoke, pass_withdraw
from scoring.models import Match
from tests.passes.helpers import active_pass, holding, secret, swiss_with_passes
from tournaments.models import Event, Registration, Round
from tournaments.services.clock import round_clock_start
from tournaments.services.rounds import round_pair
from tournaments.services.withdrawals import registration_drop

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_counts() -> None:
    cache.clear()


def _at(moment: datetime) -> Any:
    """Pretend it is ``moment`` (services and selectors read timezone.now)."""
    return mock.patch("django.utils.timezone.now", return_value=moment)


def _act(event: Event, action: str, key: str, **headers: Any) -> Any:
    return APIClient().post(
        f"/api/events/{event.pk}/pass/{action}/", HTTP_X_PASS_KEY=key, **headers
    )


def test_the_holder_checks_in_from_the_directors_time(club: Any):
    event, regs = swiss_with_passes(club, players=2)
    Registration.objects.filter(pk=regs[0].pk).update(status=Registration.Status.REGISTERED)
    today = timezone.localdate()
    Event.objects.filter(pk=event.pk).update(starts_on=today, options={"pass_checkin_opens": 1800})
    opens = timezone.make_aware(datetime.combine(today, datetime.min.time())) + timedelta(hours=18)
    with _at(opens - timedelta(minutes=1)):
        early = _act(event, "checkin", secret(regs[0]))
        korean = _act(event, "checkin", secret(regs[0]), HTTP_ACCEPT_LANGUAGE="ko")
    assert early.status_code == 409
    assert early.json()["detail"].startswith("Check-in opens at ")
    assert korean.status_code == 409
    assert not korean.json()["detail"].startswith("Check-in opens at")
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.REGISTERED
    with _at(opens):
        done = _act(event, "checkin", secret(regs[0]))
        again = _act(event, "checkin", secret(regs[0]))
    assert done.status_code == 200, done.content
    assert done.json()["status"] == "checked_in"
    assert done.json()["checkin_opens"] is not None
    assert again.status_code == 200
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN


def test_the_holder_drops_out_and_the_director_is_told(club: Any, director: Any):
    event, regs = swiss_with_passes(club)
    left = _act(event, "withdraw", secret(regs[2]))
    assert left.status_code == 200, left.content
    assert left.json()["status"] == "dropped"
    assert _act(event, "withdraw", secret(regs[2])).status_code == 200  # twice is harmless
    round_pair(event=event, user=director)
    assert not Match.objects.filter(event=event, seats__player=regs[2].player).exists()
    console = Client()
    console.force_login(director)
    html = console.get(f"/events/{event.pk}/console/").content.decode()
    assert "Cy dropped out with their pass" in html
    assert _act(event, "checkin", secret(regs[2])).status_code == 409


def test_an_open_match_of_a_holder_who_drops_out_is_a_walkover(club: Any, director: Any):
    event, regs = swiss_with_passes(club, players=2)
    round_pair(event=event, user=director)
    assert _act(event, "withdraw", secret(regs[0])).status_code == 200
    match = Match.objects.get(event=event, seats__player=regs[0].player)
    assert match.status == Match.Status.FINISHED
    assert match.decision == Match.Decision.WALKOVER
    assert match.winner_id == regs[1].player_id


def test_bad_passes_check_in_and_drop_out_nowhere(club: Any, director: Any):
    event, regs = swiss_with_passes(club, players=2)
    Registration.objects.filter(event=event).update(status=Registration.Status.REGISTERED)
    _other, other_regs = swiss_with_passes(club, players=2, suffix=" B")
    revoked = secret(regs[1])
    pass_revoke(registration=regs[1], user=director)
    for action in ("checkin", "withdraw"):
        assert _act(event, action, secret(other_regs[0])).status_code == 403
        assert _act(event, action, revoked).status_code == 404
        assert _act(event, action, "z" * 32).status_code == 404
        korean = _act(event, action, secret(other_regs[0]), HTTP_ACCEPT_LANGUAGE="ko")
        assert korean.json()["detail"] != "Your pass is for another event."
    assert set(Registration.objects.filter(event=event).values_list("status", flat=True)) == {
        Registration.Status.REGISTERED
    }
    assert not PlayerPass.objects.filter(withdrew_at__isnull=False).exists()


def test_a_directors_drop_is_not_the_holders_withdrawal(club: Any):
    _event, regs = swiss_with_passes(club, players=2)
    registration_drop(registration=regs[0])
    pass_withdraw(player_pass=active_pass(regs[0]))
    assert active_pass(regs[0]).withdrew_at is None


def test_the_view_carries_the_rounds_clock_at_the_holders_table(club: Any, director: Any):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    client = APIClient()
    url = f"/api/events/{event.pk}/pass/"
    assert client.get(url, HTTP_X_PASS_KEY=secret(regs[0])).json()["clock"] is None
    round_clock_start(rnd=Round.objects.get(event=event, number=1), user=director, minutes=10)
    clock = client.get(url, HTTP_X_PASS_KEY=secret(regs[0])).json()["clock"]
    assert clock["round"] == 1
    assert clock["phase"] == "running"
    assert 590 <= clock["remaining"] <= 600
    assert clock["deadline"] is not None
    assert clock["at_time"] is False
    with _at(timezone.now() + timedelta(minutes=11)):
        late = client.get(url, HTTP_X_PASS_KEY=secret(regs[0])).json()["clock"]
    assert late["phase"] == "time"
    assert late["at_time"] is True
    assert late["remaining"] == 0


def test_at_time_the_pass_page_says_so(club: Any, director: Any):
    event, regs = swiss_with_passes(club)
    round_pair(event=event, user=director)
    round_clock_start(rnd=Round.objects.get(event=event, number=1), user=director, minutes=10)
    browser = holding(regs[0])
    with _at(timezone.now() + timedelta(minutes=11)):
        html = browser.get(f"/events/{event.pk}/pass/").content.decode()
    assert "Time: finish the hand being played." in html
    assert 'data-clock-time role="alert">' in html  # shown, not hidden


def test_the_schema_documents_the_holders_acts_and_clock():
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    paths = schema["paths"]
    for action in ("checkin", "withdraw"):
        operation = paths[f"/api/events/{{event_id}}/pass/{action}/"]["post"]
        assert any(
            p["name"] == "X-Pass-Key" and p["in"] == "header" for p in operation["parameters"]
        )
        assert {"200", "403", "404", "409", "429"} <= set(operation["responses"])
    view = schema["components"]["schemas"]["PassViewOutput"]["properties"]
    assert {"clock", "checkin_opens"} <= set(view)


def test_before_the_day_check_in_says_the_date_too(club: Any):
    event, regs = swiss_with_passes(club, players=2)
    Registration.objects.filter(pk=regs[0].pk).update(status=Registration.Status.REGISTERED)
    saturday = timezone.localdate() + timedelta(days=3)
    Event.objects.filter(pk=event.pk).update(
        starts_on=saturday, options={"pass_checkin_opens": 930}
    )
    refused = _act(event, "checkin", secret(regs[0]))
    assert refused.status_code == 409
    message = refused.json()["detail"]
    assert message.startswith("Check-in opens at ")
    assert str(saturday.day) in message.removeprefix("Check-in opens at ")
    page = holding(regs[0]).get(f"/events/{event.pk}/pass/").content.decode()
    assert message.removesuffix(".") in page
