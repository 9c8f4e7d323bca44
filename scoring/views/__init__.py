"""The match (table) page: score sheet, hand entry, confirmation, corrections, private links;
the paper score sheet form (a whole game at once), disputes and the director's CSV import page.

One module per page; this package re-exports the views the URLs name. Thin views over
``scoring.selectors`` (the engine's view of a match) and ``scoring.services`` (every write). Who
may see or do what is decided by ``scoring.permissions`` and the services; views only hide
buttons a visitor could not use and show the services' messages next to the field they name. A
visitor without access to the match (no seat, link or director role) sees the confirmed score
sheet only, never an entry form or an unconfirmed entry.
"""

from scoring.views.disputes import event_disputes_page, submission_dispute_view
from scoring.views.imports import (
    CSV_COLUMN_HELP,
    CSV_EXAMPLE_ROWS,
    event_import_page,
    import_example,
    import_example_csv,
)
from scoring.views.links import link_open, link_visit, match_links_page
from scoring.views.match import (
    hand_submit_view,
    match_live,
    match_page,
    submission_confirm_view,
    submission_page,
    submission_withdraw_view,
)
from scoring.views.match_context import OUTCOME_LABELS, ROLE_LABELS
from scoring.views.scoresheet import SHEET_LABELS, scoresheet_page

__all__ = [
    "CSV_COLUMN_HELP",
    "CSV_EXAMPLE_ROWS",
    "OUTCOME_LABELS",
    "ROLE_LABELS",
    "SHEET_LABELS",
    "event_disputes_page",
    "event_import_page",
    "hand_submit_view",
    "import_example",
    "import_example_csv",
    "link_open",
    "link_visit",
    "match_links_page",
    "match_live",
    "match_page",
    "scoresheet_page",
    "submission_confirm_view",
    "submission_dispute_view",
    "submission_page",
    "submission_withdraw_view",
]
