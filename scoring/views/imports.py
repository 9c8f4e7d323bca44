"""The director's CSV import page and its downloadable example."""

from __future__ import annotations

import csv
import io
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_http_methods

from core.parsing import parse_ascii_int
from engine.scoring import HandOutcome
from scoring.forms import (
    ImportCsvForm,
)
from scoring.organiser import organiser
from scoring.permissions import Actor
from scoring.selectors import (
    event_is_director,
    match_list_visible,
)
from scoring.services import (
    CSV_COLUMNS,
    csv_import,
)
from scoring.services.imports import CSV_REQUIRED

# -- CSV import (directors) ----------------------------------------------------------------------

CSV_COLUMN_HELP: dict[str, Any] = {
    "match": gettext_lazy("The match id: the number in the match page's address."),
    "game": gettext_lazy("The game number; empty for the game being played."),
    "hand": gettext_lazy("The hand number: each game's hands in order, from its next hand."),
    "knocker": gettext_lazy(
        "The knocker: a player's name or seat number (seat 1 is the first player)."
    ),
    "defender": gettext_lazy("The defender, when more than two play; else empty."),
    "outcome": gettext_lazy("One of: %(choices)s. Empty when the hand is given by cards."),
    "knocker_deadwood": gettext_lazy("The knocker's deadwood (a hand by counts)."),
    "defender_deadwood": gettext_lazy("The defender's deadwood after lay-offs."),
    "knocker_cards": gettext_lazy("A hand by cards: the knocker's cards, like AS 2S 3S."),
    "defender_cards": gettext_lazy("A hand by cards: the defender's cards."),
    "knocker_melds": gettext_lazy("Optional: the knocker's melds, separated by |."),
    "upcard": gettext_lazy("Oklahoma: the first upcard."),
    "knock_limit": gettext_lazy("Gem Rummy: the knock-limit die."),
    "points": gettext_lazy("Optional: the hand's points, checked against the score."),
}

# Rows of the downloadable example; its columns are the service's ``CSV_COLUMNS`` (every
# column the import reads, so the required ones, ``CSV_REQUIRED``, too).
CSV_EXAMPLE_ROWS: tuple[dict[str, str], ...] = (
    {
        "match": "12",
        "game": "1",
        "hand": "1",
        "knocker": "Alice",
        "outcome": "knock",
        "knocker_deadwood": "5",
        "defender_deadwood": "25",
        "points": "20",
    },
    {
        "match": "12",
        "game": "1",
        "hand": "2",
        "knocker": "Bob",
        "outcome": "gin",
        "knocker_deadwood": "0",
        "defender_deadwood": "30",
    },
    {"match": "12", "game": "1", "hand": "3", "outcome": "dead"},
    {
        "match": "12",
        "game": "1",
        "hand": "4",
        "knocker": "Alice",
        "knocker_cards": "AS 2S 3S 5H 6H 7H 9S 9D 9C KC",
        "defender_cards": "8H 9H KS KH KD 2C 3C QS JD 5C",
    },
)


def import_example_csv() -> str:
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS), extrasaction="ignore")
    writer.writeheader()
    writer.writerows(CSV_EXAMPLE_ROWS)
    return out.getvalue()


def import_example(request: HttpRequest) -> HttpResponse:
    """A small example CSV with every column the import reads."""
    response = HttpResponse(import_example_csv(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="knock-score-sheets-example.csv"'
    return response


def _imported_matches(request: HttpRequest) -> list[dict[str, Any]]:
    parsed = (parse_ascii_int(x) for x in request.GET.get("matches", "").split(",")[:100])
    ids = [x for x in parsed if x is not None]
    if not ids:
        return []
    found = {m.pk: m for m in match_list_visible(user=request.user).filter(pk__in=ids)}
    out = []
    for pk in ids:
        match = found.get(pk)
        if match is None:
            continue
        out.append(
            {
                "match": match,
                "players": [s.player.name for s in sorted(match.seats.all(), key=_position)],
            }
        )
    return out


def _position(seat: Any) -> int:
    return int(seat.position)


@require_http_methods(["GET", "POST"])
@login_required
def event_import_page(request: HttpRequest, pk: int) -> HttpResponse:
    """Import past score sheets from CSV: check them (dry run), then store all or nothing."""
    event = organiser().terms_for_event(event_id=pk)
    if event is None:
        raise Http404
    if not event_is_director(event=event, user=request.user):
        message = _("Only the event's directors may import score sheets.")
        raise PermissionDenied(message)
    form = ImportCsvForm(request.POST or None, request.FILES or None)
    report = None
    status = 200
    if request.method == "POST":
        if not form.is_valid():
            status = 400
        else:
            text = form.cleaned_data["text"]
            dry_run = request.POST.get("action") != "import"
            report = csv_import(
                actor=Actor.from_request(request), text=text, dry_run=dry_run, event=event
            )
            if not dry_run and not report.problems and report.rows:
                messages.success(
                    request,
                    ngettext("Imported %(n)s hand.", "Imported %(n)s hands.", report.stored)
                    % {"n": report.stored},
                )
                query = urlencode({"matches": ",".join(str(i) for i in report.matches)})
                return HttpResponseRedirect(reverse("event-import", args=[event.pk]) + "?" + query)
            if report.problems and not dry_run:
                status = 400
            # Show the checked text (an uploaded file's too) so it can be fixed and imported.
            form = ImportCsvForm(initial={"csv": text})
    outcomes = ", ".join(o.value for o in HandOutcome)
    columns = [
        {
            "name": name,
            "help": (
                CSV_COLUMN_HELP[name] % {"choices": outcomes}
                if name == "outcome"
                else CSV_COLUMN_HELP.get(name, "")
            ),
            "required": name in CSV_REQUIRED,
        }
        for name in CSV_COLUMNS
    ]
    context = {
        "event": event,
        "form": form,
        "report": report,
        "columns": columns,
        "imported": _imported_matches(request) if request.method == "GET" else [],
    }
    return render(request, "scoring/import.html", context, status=status)
