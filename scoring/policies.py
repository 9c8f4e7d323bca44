"""What a viewer may do with an entry (confirm, dispute, withdraw, correct it), and why not.

One policy for the services and the match page: :mod:`scoring.services.hands` refuses with the
reason given here, and :mod:`scoring.views.match_context` offers a button only where these rules
allow it. Pure: each function reads the match's state, the entry, the viewer (their ``Actor`` and
``Access``) and the event's terms it is given, and neither queries nor writes. A refusal is the
message a player reads (always a 403); ``None`` means allowed.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from scoring.models import Confirmation, Credential, HandSubmission
from scoring.organiser import EventTerms
from scoring.permissions import Access, ActedBy, Actor
from scoring.selectors import MatchState


def seat_of(state: MatchState, player_id: int | None) -> int | None:
    """The seat ``player_id`` plays at this match (None: not one of its players)."""
    if player_id is None:
        return None
    return next((s.position for s in state.seats if s.player_id == player_id), None)


def entry_is_viewers(
    *, state: MatchState, entry: HandSubmission, actor: Actor, access: Access
) -> bool:
    """Is the viewer, in any of their identities, whoever made this entry? The account that
    entered it, or a holder of the seat it was entered for (account or seat link)."""
    if actor.user is not None and entry.submitted_by_user_id == actor.user.pk:
        return True
    seat = seat_of(state, entry.submitted_by_player_id)
    return seat is not None and seat in access.identities


def on_other_side(*, state: MatchState, entry: HandSubmission, position: int) -> bool:
    """Whether the player at ``position`` is on the other side from whoever made this entry
    (the two-person rule: an entry is answered by the other side, never by its own)."""
    submitter = seat_of(state, entry.submitted_by_player_id)
    return submitter is None or state.side_of(position) != state.side_of(submitter)


def answered_by_director(*, entry: HandSubmission, terms: EventTerms) -> bool:
    """Whether only a director not seated at the match answers this entry: a disputed entry
    (settled by a director), or every entry where a director confirms the results."""
    return (
        entry.status == HandSubmission.Status.DISPUTED
        or terms.confirmation == Confirmation.DIRECTOR
    )


def director_answer_refusal(*, entry: HandSubmission, access: Access) -> str | None:
    """Why this viewer may not answer an entry only a director answers (None: they may)."""
    if access.neutral_director:
        return None
    if entry.status == HandSubmission.Status.DISPUTED:
        return _("A director not playing at this table settles a disputed entry.")
    return _("A director not playing at this table confirms results here.")


def table_phone_refused(*, terms: EventTerms) -> bool:
    """Whether the event refuses answers (confirm, dispute) made on the table's phone: the
    other side answers on their own seat's link, or signed in."""
    return terms.confirm_by_seat_link


def answer_refusal(*, via: ActedBy, terms: EventTerms) -> str | None:
    """Why an answer made with the credential ``via`` is refused (None: it is not)."""
    if via.kind == Credential.TABLE_LINK and table_phone_refused(terms=terms):
        return _(
            "At this event the other side confirms or disputes an entry on their own seat's "
            "link (or signed in), not on the table's phone."
        )
    return None


def _withdraw_standing(
    state: MatchState, entry: HandSubmission, actor: Actor, access: Access, as_position: int | None
) -> tuple[bool, bool]:
    """(may withdraw, as the entry's own seat)."""
    submitter = seat_of(state, entry.submitted_by_player_id)
    own_account = actor.user is not None and entry.submitted_by_user_id == actor.user.pk
    own_seat = submitter is not None and (
        submitter in access.identities or (access.speaks_for_table and as_position == submitter)
    )
    if as_position is not None and as_position != submitter and not access.neutral_director:
        own_seat = False
        own_account = False
    return own_account or own_seat or access.neutral_director, own_seat


def withdraw_refusal(
    *,
    state: MatchState,
    entry: HandSubmission,
    actor: Actor,
    access: Access,
    as_position: int | None,
) -> str | None:
    """Why the viewer (acting as ``as_position``, if they say) may not withdraw this entry:
    only whoever entered it (their account, their seat, or the table's phone speaking for that
    seat) or a director not seated at the match may."""
    allowed, _own_seat = _withdraw_standing(state, entry, actor, access, as_position)
    return None if allowed else _("Only whoever entered it may withdraw it.")


def withdraws_as_seat(
    *,
    state: MatchState,
    entry: HandSubmission,
    actor: Actor,
    access: Access,
    as_position: int | None,
) -> int | None:
    """The entry's seat when the viewer withdraws it as that seat (its player is recorded);
    None when they withdraw it through their account or as a director."""
    allowed, own_seat = _withdraw_standing(state, entry, actor, access, as_position)
    return seat_of(state, entry.submitted_by_player_id) if allowed and own_seat else None


def correct_refusal(*, access: Access) -> str | None:
    """Why the viewer may not correct a hand (None: a director not seated at the match may)."""
    if access.neutral_director:
        return None
    return _("Only a director not playing at this table can correct a hand.")
