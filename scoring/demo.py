"""Demo data for scoring: a club night with several tables of finished and running games, with
hands of every outcome (knock, gin, big gin, undercut, dead; partnership boards, three-player Gem
and Rummy hands), and every state an entry can be in: confirmed, waiting for confirmation,
disputed (with a reason, waiting for a director), withdrawn, and superseded by a correction.

``demo_scoring_load()`` is called by ``tournaments.demo.demo_load``, which makes the club night
(an event: the app above's) and hands over its terms and director. Everything is created
through the scoring services, the way players do it at a club night: each hand is entered on
the knocker's own match link and confirmed on an opponent's, one hand is corrected by the
director, one is disputed by the opponent and waits for a director, and one was disputed,
withdrawn by whoever entered it and entered again. It is idempotent: when the club night
already has matches, nothing is added.
"""

from __future__ import annotations

from typing import Any, Protocol

from clubs.models import Club, Player
from scoring.models import HandSubmission, Match
from scoring.organiser import EventTerms
from scoring.permissions import Actor
from scoring.services import (
    PartnershipEntry,
    entry_from_dict,
    hand_confirm,
    hand_dispute,
    hand_override,
    hand_submit,
    hand_withdraw,
    match_link_token,
    match_start,
)

EVENT_NAME = "Thursday club night (demo)"
GUESTS = [
    "Yuna",
    "Zeke",
    "Bao",
    "Cleo",
    "Dov",
    "Elif",
    "Fenna",
    "Gus",
    "Hal",
    "Ivo",
    "Joon",
    "Kira",
    "Lea",
]
DEMO_IP = "192.0.2.10"  # a documentation address: the demo's "phones"


def _knock(knocker: int, k: int, d: int, **extra: Any) -> dict[str, Any]:
    outcome = "gin" if k == 0 else ("knock" if d > k else "undercut")
    base = {"knocker": knocker, "outcome": outcome, "knocker_deadwood": k, "defender_deadwood": d}
    return base | extra


def _gem_three(knocker: int, die: int, k: int, *defenders: tuple[str, int]) -> dict[str, Any]:
    """A three-player Gem hand by counts: the die's knock limit, each defender's outcome."""
    return {
        "knocker": knocker,
        "knock_limit": die,
        "knocker_deadwood": k,
        "defenders": [{"outcome": o, "defender_deadwood": d} for o, d in defenders],
    }


def _seat_actor(match: Match, position: int) -> Actor:
    return Actor(
        token=match_link_token(match=match, position=position),
        ip=DEMO_IP,
        user_agent="Knock demo phone",
    )


def _play(match: Match, hands: list[dict[str, Any]], *, leave_pending: bool = False) -> None:
    """Enter each hand on one player's link and confirm it on an opponent's."""
    seats = {seat.position: seat.team for seat in match.seats.all()}
    for index, data in enumerate(hands):
        entry = entry_from_dict(data)
        by = data.get("knocker", data.get("went_out", 0))
        if isinstance(entry, PartnershipEntry) and entry.boards:
            by = entry.boards[0].knocker or 0
        sub = hand_submit(match=match, actor=_seat_actor(match, by), entry=entry)
        if leave_pending and index == len(hands) - 1:
            return
        if sub.status == HandSubmission.Status.PENDING:
            team = seats.get(by)
            other = next(
                p for p, t in sorted(seats.items()) if p != by and (team is None or t != team)
            )
            hand_confirm(submission=sub, actor=_seat_actor(match, other))


class _Start(Protocol):
    """Start a demo table: its number, the players seated, and ``match_start``'s options."""

    def __call__(self, table: int, seated: list[Player], **options: Any) -> Match: ...


def demo_scoring_load(*, event: EventTerms, director: Any) -> list[str]:
    """Play the demo's tables at the club night ``event`` (its terms: the top app's demo makes
    the event, where opponents confirm and a match is one game) as ``director``, one of its
    directors; keep them when it already has some. Return a line per piece."""
    tables = Match.objects.filter(event_id=event.event_id)
    if tables.exists():
        return [f"Club night: {event.name} ({tables.count()} tables, kept)"]
    club = Club.objects.get(pk=event.club_id)
    players = [
        Player.objects.get_or_create(club=club, name=name, defaults={"is_guest": True})[0]
        for name in GUESTS
    ]
    boss = Actor(user=director, ip=DEMO_IP, user_agent="Knock demo")

    def start(table: int, seated: list[Player], **options: Any) -> Match:
        return match_start(
            actor=boss,
            event=event,
            players=[p.pk for p in seated],
            table_number=table,
            **options,
        )

    # The finished tables first: their players then sit down again at the tables still
    # playing (nobody sits at two open tables at once).
    _finished_tables_play(start=start, p=players, boss=boss)
    _open_tables_play(start=start, p=players)
    finished = tables.filter(status=Match.Status.FINISHED).count()
    return [
        f"Club night: {event.name}: {tables.count()} tables "
        f"({finished} finished, {tables.count() - finished} playing)"
    ]


def _finished_tables_play(*, start: _Start, p: list[Player], boss: Actor) -> None:
    """Tables 1, 6, 8 and 9: finished games of four rule sets, one hand corrected."""
    # Table 1: a finished standard game, with one hand corrected by the director.
    t1 = start(1, [p[0], p[1]])
    _play(t1, [_knock(0, 5, 25), _knock(1, 0, 30), _knock(0, 3, 40), _knock(0, 0, 45)])
    second = HandSubmission.objects.get(
        hand__game__match=t1, hand__number=2, status=HandSubmission.Status.CONFIRMED
    )
    hand_override(
        submission=second,
        actor=boss,
        entry=entry_from_dict(_knock(1, 0, 32)),
        reason="Defender's deadwood recounted at the table: 32, not 30",
    )
    # Table 6: Basic Rummy for three, three hands, finished.
    t6 = start(
        6,
        [p[11], p[0], p[2]],
        rules_preset="rummy",
        match_format={"kind": "fixed_hands", "hands": 3},
    )
    _play(
        t6,
        [
            {"went_out": 0, "rummy": True, "leftovers": {"1": "KS 5H", "2": 7}},
            {"went_out": 2, "leftovers": {"0": 12, "1": "QH 4C"}},
            {"went_out": 0, "leftovers": {"1": 9, "2": 21}},
        ],
    )
    # Table 8: Modern rules, a big gin, finished.
    t8 = start(8, [p[9], p[11]], rules_preset="modern")
    _play(t8, [_knock(0, 0, 40, outcome="big_gin"), _knock(0, 2, 40)])
    # Table 9: three-player Gem Rummy by counts (the knocker against each other player), a
    # dead hand first, finished at 110.
    t9 = start(9, [p[4], p[6], p[10]], rules_preset="gem")
    _play(
        t9,
        [
            {"outcome": "dead"},
            _gem_three(0, 5, 4, ("knock", 30), ("undercut", 2)),
            _gem_three(1, 6, 3, ("undercut", 2), ("knock", 50)),
            _gem_three(0, 2, 1, ("knock", 61), ("knock", 10)),
        ],
    )


def _open_tables_play(*, start: _Start, p: list[Player]) -> None:
    """Tables 2 to 5 and 7, still playing: an entry waiting, a dispute, the box, Hollywood
    with a withdrawn entry, a partnership."""
    # Table 2: a standard game in progress, the last hand waiting for confirmation.
    t2 = start(2, [p[2], p[3]])
    _play(
        t2,
        [
            _knock(0, 7, 22),
            {"outcome": "dead"},
            {
                "knocker": 1,
                "knocker_cards": "AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
                "defender_cards": "8H 9H KS KH KD 2C 3C QS JD 5C",
            },
            _knock(0, 4, 2),
        ],
        leave_pending=True,
    )
    _disputed_table_play(start=start, p=p)
    # Table 4: three players in the box, roles rotating.
    t4 = start(4, [p[6], p[7], p[8]], rules_preset="three-box")
    _play(t4, [_knock(0, 5, 20), _knock(2, 3, 13), _knock(1, 8, 6)])
    # Table 5: a Hollywood set under way.
    t5 = start(5, [p[9], p[10]], rules_preset="hollywood")
    _play(t5, [_knock(0, 5, 35), _knock(1, 2, 22), _knock(0, 0, 45)])
    # A hand entered with the wrong knocker: disputed, withdrawn by whoever entered it, entered
    # again right and confirmed (its history keeps all three steps).
    wrong = hand_submit(match=t5, actor=_seat_actor(t5, 1), entry=entry_from_dict(_knock(1, 4, 34)))
    hand_dispute(submission=wrong, actor=_seat_actor(t5, 0), reason="I knocked, not you")
    hand_withdraw(submission=wrong, actor=_seat_actor(t5, 1))
    _play(t5, [_knock(0, 4, 34)])
    # Table 7: a partnership game, two boards a hand.
    t7 = start(7, [p[0], p[1], p[11], p[12]], rules_preset="partnership")
    _play(
        t7,
        [
            {"outcome": "dead"},
            {"boards": [_knock(0, 5, 25, defender=1), _knock(3, 0, 12, defender=2)]},
        ],
    )


def _disputed_table_play(*, start: _Start, p: list[Player]) -> None:
    """Table 3: Oklahoma, best of three, in its second game, its next hand disputed."""
    t3 = start(
        3, [p[4], p[5]], rules_preset="oklahoma", match_format={"kind": "best_of", "games": 3}
    )
    _play(
        t3,
        [
            _knock(0, 4, 30, upcard="5S"),
            _knock(1, 0, 40, upcard="9H"),
            _knock(0, 0, 70, upcard="KS"),
            _knock(1, 2, 20, upcard="3D"),
        ],
    )
    # ... and its next hand is disputed: the opponent counted the knocker's cards differently.
    # It waits for a director (the event's disputes page, the console).
    dispute = hand_submit(
        match=t3, actor=_seat_actor(t3, 0), entry=entry_from_dict(_knock(0, 4, 35, upcard="7C"))
    )
    hand_dispute(
        submission=dispute,
        actor=_seat_actor(t3, 1),
        reason="The knocker had 14 deadwood, not 4: the 10 of hearts was not in a meld",
    )
