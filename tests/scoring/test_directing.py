"""Who directs an event, asked by scoring: the one rule of ``clubs.permissions`` (its named
directors, its club's admins and directors, superusers), the same answer tournaments gives,
asked of the event, of one of its matches and of the list of matches a user may see."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth.models import AnonymousUser

from scoring.models import Match
from scoring.permissions import Actor, match_access
from scoring.selectors import event_is_director, match_list_visible
from tests.clubs.factories import ClubFactory, ClubRoleFactory, UserFactory
from tests.scoring.factories import MatchFactory
from tests.tournaments.factories import EventFactory
from tournaments.permissions import events_directed, user_directs_event
from tournaments.selectors.terms import event_terms

pytestmark = pytest.mark.django_db


def _users(event: Any, sibling: Any) -> dict[str, tuple[Any, bool]]:
    """Each kind of user, and whether they direct ``event``."""
    named = UserFactory()
    event.directors.add(named)
    of_sibling = UserFactory()  # a named director of another event of the same club
    sibling.directors.add(of_sibling)
    return {
        "none": (None, False),
        "anonymous": (AnonymousUser(), False),
        "stranger": (UserFactory(), False),
        "named director": (named, True),
        "director of a sibling event": (of_sibling, False),
        "club admin": (ClubRoleFactory(club=event.club, role="admin").user, True),
        "club director": (ClubRoleFactory(club=event.club, role="director").user, True),
        "another club's director": (
            ClubRoleFactory(club=ClubFactory(), role="director").user,
            False,
        ),
        "superuser": (UserFactory(is_superuser=True), True),
    }


def test_scoring_and_tournaments_give_one_answer_for_every_kind_of_user(
    django_assert_max_num_queries,
):
    match = MatchFactory()
    event = match.event
    sibling = EventFactory(club=event.club)
    other = MatchFactory(event=sibling)
    terms = event_terms(event=event)
    users = _users(event, sibling)
    for label, (user, expected) in users.items():
        with django_assert_max_num_queries(1):
            assert event_is_director(event=terms, user=user) is expected, label
        assert user_directs_event(user=user, event_id=event.pk) is expected, label
        directed = user is not None and events_directed(user=user).filter(pk=event.pk).exists()
        assert directed is expected, label
        actor = Actor(user=user if user is not None and user.is_authenticated else None)
        access = match_access(actor=actor, match=Match.objects.get(pk=match.pk))
        assert access.director is expected, label
        visible = set(match_list_visible(user=user).values_list("pk", flat=True))
        assert (match.pk in visible) is expected, label
    # Nobody signed in directs anything, and asking costs no query.
    for nobody in (None, AnonymousUser()):
        with django_assert_max_num_queries(0):
            assert not event_is_director(event=terms, user=nobody)
            assert not user_directs_event(user=nobody, event_id=event.pk)
    # The sibling event's director directs that event (and sees its match), not this one.
    of_sibling = users["director of a sibling event"][0]
    assert event_is_director(event=event_terms(event=sibling), user=of_sibling)
    assert set(match_list_visible(user=of_sibling).values_list("pk", flat=True)) == {other.pk}
