"""Pages for events (standings, pairings, brackets, director actions), the club pages that list
events, and players (a club's own pages and signing in are ``clubs.views``).

One module per page or resource; this package re-exports the views the URLs name. Views are thin:
they read through ``tournaments.selectors`` / ``scoring.selectors``, write only through the
services, and turn an ``ApplicationError`` into a message on the page. Nothing here computes a
score, a ranking or a pairing.
"""

from tournaments.views.clubs import club_detail, club_list, club_list_for_page, home_feed
from tournaments.views.console import event_console_view, match_close_as_it_stands_view
from tournaments.views.dashboard import dashboard
from tournaments.views.event_director import (
    checkin_by_link,
    checkin_open,
    event_match_start,
    event_pair,
    forbidden_pairing_add,
    registration_add,
    registration_bulk,
    registration_checkin_all_view,
    registration_checkin_view,
    registration_drop_view,
    registration_paste,
    round_repair_view,
)
from tournaments.views.event_settings import event_create_view, event_edit, event_rules_fields
from tournaments.views.events import (
    BRACKET_STATUS_LABELS,
    SECTION_LABELS,
    TIEBREAK_LABELS,
    event_detail,
    event_live,
    event_standings_fragment,
    round_detail,
)
from tournaments.views.players import player_detail
from tournaments.views.projector import projector, projector_slides

__all__ = [
    "BRACKET_STATUS_LABELS",
    "SECTION_LABELS",
    "TIEBREAK_LABELS",
    "checkin_by_link",
    "checkin_open",
    "club_detail",
    "club_list",
    "club_list_for_page",
    "dashboard",
    "event_console_view",
    "event_create_view",
    "event_detail",
    "event_edit",
    "event_live",
    "event_match_start",
    "event_pair",
    "event_rules_fields",
    "event_standings_fragment",
    "forbidden_pairing_add",
    "home_feed",
    "match_close_as_it_stands_view",
    "player_detail",
    "projector",
    "projector_slides",
    "registration_add",
    "registration_bulk",
    "registration_checkin_all_view",
    "registration_checkin_view",
    "registration_drop_view",
    "registration_paste",
    "round_detail",
    "round_repair_view",
]
