"""scoring.policies: what a viewer may do with an entry, as pure functions of what they are given
(no database: the match's state, the entry and the event's terms are stand-ins here)."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from scoring.models import Confirmation, Credential, HandSubmission
from scoring.permissions import Access, ActedBy, Actor
from scoring.policies import (
    answer_refusal,
    answered_by_director,
    correct_refusal,
    director_answer_refusal,
    entry_is_viewers,
    on_other_side,
    withdraw_refusal,
    withdraws_as_seat,
)

# Four seats in two partnerships: 0 and 2 against 1 and 3; the player at seat n has id 10 + n.
STATE: Any = SimpleNamespace(
    seats=[SimpleNamespace(position=n, player_id=10 + n) for n in range(4)],
    side_of=lambda position: position % 2,
)


def _entry(*, seat: int | None = 0, user_id: int | None = None, status: str = "pending") -> Any:
    return SimpleNamespace(
        submitted_by_player_id=None if seat is None else 10 + seat,
        submitted_by_user_id=user_id,
        status=status,
    )


def _terms(*, confirmation: str = Confirmation.OPPONENT, seat_link: bool = False) -> Any:
    return SimpleNamespace(confirmation=confirmation, confirm_by_seat_link=seat_link)


def test_the_submitter_in_any_identity_is_the_entrys_own():
    user = SimpleNamespace(pk=7)
    entry = _entry(seat=0, user_id=7)
    assert entry_is_viewers(state=STATE, entry=entry, actor=Actor(user=user), access=Access())
    by_seat = Access(identities=(0,))
    assert entry_is_viewers(state=STATE, entry=entry, actor=Actor(), access=by_seat)
    other = Access(identities=(1,))
    assert not entry_is_viewers(state=STATE, entry=entry, actor=Actor(), access=other)


def test_an_entry_is_answered_by_the_other_side_only():
    entry = _entry(seat=0)
    assert [p for p in range(4) if on_other_side(state=STATE, entry=entry, position=p)] == [1, 3]
    # An entry made by nobody seated (a director) may be answered by anyone seated.
    assert on_other_side(state=STATE, entry=_entry(seat=None), position=2)


def test_a_disputed_entry_or_a_director_policy_needs_a_director_not_seated():
    disputed = _entry(status=HandSubmission.Status.DISPUTED)
    assert answered_by_director(entry=disputed, terms=_terms())
    assert answered_by_director(entry=_entry(), terms=_terms(confirmation=Confirmation.DIRECTOR))
    assert not answered_by_director(entry=_entry(), terms=_terms())
    assert director_answer_refusal(entry=disputed, access=Access(director=True)) is None
    seated = Access(director=True, identities=(1,))
    assert director_answer_refusal(entry=disputed, access=seated) == (
        "A director not playing at this table settles a disputed entry."
    )


def test_the_tables_phone_may_not_answer_where_the_event_says_so():
    phone = ActedBy(Credential.TABLE_LINK, 1)
    assert answer_refusal(via=phone, terms=_terms()) is None
    assert answer_refusal(via=phone, terms=_terms(seat_link=True)) is not None
    own_link = ActedBy(Credential.SEAT_LINK, 2)
    assert answer_refusal(via=own_link, terms=_terms(seat_link=True)) is None


def test_whoever_entered_it_or_a_director_not_seated_withdraws_it():
    entry = _entry(seat=0)
    mine = {"state": STATE, "entry": entry, "actor": Actor()}
    seat = Access(identities=(0,))
    assert withdraw_refusal(**mine, access=seat, as_position=None) is None
    assert withdraws_as_seat(**mine, access=seat, as_position=None) == 0
    assert withdraw_refusal(**mine, access=Access(identities=(1,)), as_position=None) == (
        "Only whoever entered it may withdraw it."
    )
    phone = Access(table_link=True)
    assert withdraw_refusal(**mine, access=phone, as_position=None) is not None
    assert withdraw_refusal(**mine, access=phone, as_position=0) is None
    assert withdraw_refusal(**mine, access=phone, as_position=1) is not None
    director = Access(director=True)
    assert withdraw_refusal(**mine, access=director, as_position=None) is None
    assert withdraws_as_seat(**mine, access=director, as_position=None) is None


def test_only_a_director_not_seated_corrects_a_hand():
    assert correct_refusal(access=Access(director=True)) is None
    assert correct_refusal(access=Access(director=True, identities=(0,))) is not None
    assert correct_refusal(access=Access(identities=(0,))) is not None
