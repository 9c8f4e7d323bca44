"""The paper score sheet form and the CSV import page through Django's test client."""

from __future__ import annotations

import csv
import html as html_lib
import io
import re
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile

from engine.rules import find_rules
from scoring.models import HandSubmission, Match
from scoring.services import CSV_COLUMNS, match_link_token
from scoring.services.imports import CSV_REQUIRED
from tests.clubs.factories import PlayerFactory, UserFactory
from tests.scoring.factories import MatchFactory, event_director
from tests.scoring.pages import Client
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db


def _match(confirmation: str = "opponent", names: tuple[str, ...] = ("Alice", "Bob")) -> Match:
    event = EventFactory(rules=find_rules("standard").to_dict(), confirmation=confirmation)
    players = [PlayerFactory(club=event.club, name=n) for n in names]
    match: Match = MatchFactory.create(event=event, players=players, table_number=7)
    return match


def _director(match: Match) -> Client:
    client = Client()
    client.force_login(event_director(match.event))
    return client


def _link(match: Match, position: int | None) -> str:
    return f"?k={match_link_token(match=match, position=position)}"


def _sheet_url(match: Match, qs: str = "") -> str:
    return f"/matches/{match.pk}/sheet/{qs}"


def _rows(*hands: dict[str, Any], game: int = 1) -> dict[str, Any]:
    data: dict[str, Any] = {"game": str(game), "rows": str(max(8, len(hands))), "store": "1"}
    for index, hand in enumerate(hands):
        for name, value in hand.items():
            data[f"h{index}_{name}"] = str(value)
    return data


def _knock(knocker: int, k: int, d: int, **more: Any) -> dict[str, Any]:
    return {
        "knocker": knocker,
        "outcome": "knock",
        "knocker_deadwood": k,
        "defender_deadwood": d,
        **more,
    }


def _text(response: Any) -> str:
    return html_lib.unescape(response.content.decode())


def _row_html(html: str, number: int) -> str:
    """The markup of sheet row ``number`` (1-based), up to the next row."""
    start = html.rindex("<li", 0, html.index(f'id="hand-row-{number}"'))
    end = html.find("<li", start + 3)
    return html[start : end if end != -1 else len(html)]


# -- the link on the match page -----------------------------------------------------------------


def test_directors_see_the_paper_sheet_link_on_a_fresh_game():
    match = _match()
    html = _director(match).get(f"/matches/{match.pk}/").content.decode()
    assert f'href="/matches/{match.pk}/sheet/"' in html
    assert "Enter a paper score sheet" in html
    # The match page keeps its hand-by-hand entry form.
    assert 'id="entry"' in html


def test_players_see_the_link_only_where_the_event_needs_no_confirmation():
    match = _match("opponent")
    html = Client().get(f"/matches/{match.pk}/{_link(match, 0)}").content.decode()
    assert 'id="entry"' in html
    assert "/sheet/" not in html
    free = _match("none")
    html = Client().get(f"/matches/{free.pk}/{_link(free, 0)}").content.decode()
    assert f'href="/matches/{free.pk}/sheet/"' in html
    assert "?k=" not in html
    # Spectators see neither the form nor the link.
    html = Client().get(f"/matches/{free.pk}/").content.decode()
    assert "/sheet/" not in html


def test_no_link_once_the_game_has_a_hand():
    match = _match()
    director = _director(match)
    assert director.post(_sheet_url(match), _rows(_knock(0, 5, 25))).status_code == 302
    html = director.get(f"/matches/{match.pk}/").content.decode()
    assert "/sheet/" not in html
    page = director.get(_sheet_url(match)).content.decode()
    assert "This game already has hands" in page
    assert "h0_knocker" not in page


# -- the sheet form -----------------------------------------------------------------------------


def test_the_sheet_form_has_a_row_per_hand_with_the_outcomes():
    match = _match()
    response = _director(match).get(_sheet_url(match))
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('id="hand-row-') == 8
    for name in ("knocker", "outcome", "knocker_deadwood", "defender_deadwood", "points"):
        assert f'name="h7_{name}"' in html
    for label in ("knock", "gin", "undercut", "dead hand"):
        assert f">{label}</option>" in html
    assert 'inputmode="numeric"' in html
    assert "Add 5 more rows" in html


def test_spectators_and_strangers_get_404():
    match = _match("none")
    assert Client().get(_sheet_url(match)).status_code == 404
    assert Client().post(_sheet_url(match), _rows(_knock(0, 5, 25))).status_code == 404
    assert not HandSubmission.objects.exists()


def test_a_valid_three_hand_sheet_stores_three_confirmed_hands():
    match = _match("opponent")
    director = _director(match)
    data = _rows(
        _knock(0, 5, 25, points=20),
        {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 30},
        {"outcome": "dead"},
    )
    response = director.post(_sheet_url(match), data)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/#sheet"
    subs = HandSubmission.objects.filter(hand__game__match=match)
    assert subs.count() == 3
    assert set(subs.values_list("status", flat=True)) == {"confirmed"}
    html = director.get(f"/matches/{match.pk}/").content.decode()
    assert "Score sheet stored: 3 hands." in html
    sheet = html[html.index('id="sheet"') :]
    row2 = sheet[sheet.index('data-hand="2"') : sheet.index('data-hand="3"')]
    assert re.findall(r'<td class="num">(\d+)</td>', row2)[-2:] == ["20", "55"]
    start = sheet.index('data-hand="3"')
    row3 = sheet[start : sheet.index("</tr>", start)]
    assert "dead hand" in row3
    assert re.findall(r'<td class="num">(\d+)</td>', row3)[-2:] == ["20", "55"]
    board = html[html.index('class="scoreboard"') : html.index("</section>")]
    assert re.findall(r'<div class="total">(\d+)</div>', board) == ["20", "55"]


def test_an_invalid_row_shows_the_message_at_that_row_and_stores_nothing():
    match = _match()
    data = _rows(_knock(0, 5, 25), _knock(1, 4, 20), _knock(0, 6, 30), _knock(1, 12, 25))
    response = _director(match).post(_sheet_url(match), data)
    assert response.status_code == 400
    assert not HandSubmission.objects.exists()
    html = response.content.decode()
    row4 = _row_html(html, 4)
    assert "has-row-error" in row4
    kd = row4[row4.index('class="field f-num') :]
    assert kd.startswith('class="field f-num has-error"><label for="h3-kd">')
    assert 'aria-invalid="true" aria-describedby="h3-err"' in kd.split("</div>")[0]
    message = html_lib.unescape(row4[row4.index('id="h3-err"') :])
    assert "Knocker's deadwood: Knock over the limit: deadwood 12 > 10" in re.sub(
        "<[^>]+>", "", message
    )
    for number in (1, 2, 3):
        assert "has-row-error" not in _row_html(html, number)
    # What was typed is still there.
    assert re.search(r'name="h3_knocker_deadwood"[^>]* value="12"', html)
    assert 'name="h0_defender_deadwood" value="25"' in html


def test_every_bad_row_shows_its_message_at_once():
    match = _match()
    data = _rows(
        _knock(0, 5, 25),
        _knock(1, 12, 25),  # over the limit
        _knock(0, 4, 20),
        {"knocker": 1, "outcome": "knock", "knocker_deadwood": "x", "defender_deadwood": 9},
        _knock(0, 6, 30, points=99),  # a wrong check
        {"knocker": 1, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90},
        _knock(0, 3, 8),  # after the game ended
    )
    response = _director(match).post(_sheet_url(match), data)
    assert response.status_code == 400
    assert not HandSubmission.objects.exists()
    html = response.content.decode()
    bad = {2: "12 > 10", 4: "Enter a whole number.", 5: "Points", 7: "The game ended with"}
    for number in range(1, 8):
        row = _row_html(html, number)
        if number in bad:
            assert "has-row-error" in row, number
            assert bad[number] in html_lib.unescape(re.sub("<[^>]+>", "", row)), number
        else:
            assert "has-row-error" not in row, number
    assert 'class="field f-num has-error"><label for="h4-pts">' in html
    text = _text(response)
    assert "Nothing was stored: fix rows 2, 4, 5, 7." in text
    assert 'href="#hand-row-2"' in html


def test_a_player_at_a_confirmation_event_is_told_before_typing():
    match = _match("opponent")
    response = Client().get(_sheet_url(match, _link(match, 0)))
    assert response.status_code == 200
    html = _text(response)
    assert "paper score sheet is entered by a director" in html
    assert "h0_knocker" not in html


def test_blank_rows_are_skipped_and_errors_stay_on_the_row_they_were_typed_in():
    match = _match()
    data = _rows(_knock(0, 5, 25))
    data.update({f"h2_{k}": str(v) for k, v in _knock(1, 5, 25, points=99).items()})
    response = _director(match).post(_sheet_url(match), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "has-row-error" in _row_html(html, 3)
    assert "has-row-error" not in _row_html(html, 2)
    assert 'class="field f-num has-error"><label for="h2-pts">' in html
    assert not HandSubmission.objects.exists()


def test_a_row_after_the_game_ended_is_named():
    match = _match()
    gin = {"knocker": 0, "outcome": "gin", "knocker_deadwood": 0, "defender_deadwood": 90}
    response = _director(match).post(_sheet_url(match), _rows(gin, _knock(0, 5, 25)))
    assert response.status_code == 400
    row2 = _row_html(response.content.decode(), 2)
    assert "The game ended with the hand before this one." in row2
    assert not HandSubmission.objects.exists()


def test_a_word_for_a_number_is_shown_at_its_field():
    match = _match()
    data = _rows(_knock(0, 5, 25), {"knocker": 1, "outcome": "knock", "knocker_deadwood": "x"})
    response = _director(match).post(_sheet_url(match), data)
    assert response.status_code == 400
    assert "Enter a whole number." in _row_html(response.content.decode(), 2)
    assert not HandSubmission.objects.exists()


def test_an_empty_sheet_says_so():
    match = _match()
    response = _director(match).post(_sheet_url(match), _rows())
    assert response.status_code == 400
    assert "A score sheet has at least one hand." in response.content.decode()


def test_add_more_rows_keeps_what_was_typed():
    match = _match()
    data = _rows(_knock(0, 5, 25))
    data["more"] = "1"
    del data["store"]
    response = _director(match).post(_sheet_url(match), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('id="hand-row-') == 13
    assert 'name="h0_knocker_deadwood" value="5"' in html
    assert not HandSubmission.objects.exists()


def test_a_player_at_a_confirmation_event_gets_the_services_message():
    match = _match("opponent")
    qs = _link(match, 0)
    response = Client().post(_sheet_url(match, qs), _rows(_knock(0, 5, 25)))
    assert response.status_code == 403
    html = response.content.decode()
    assert "paper score sheet is entered by a director" in html
    assert 'name="h0_knocker_deadwood" value="5"' in html
    assert not HandSubmission.objects.exists()


def test_a_player_enters_a_sheet_where_no_confirmation_is_needed():
    match = _match("none")
    qs = _link(match, 1)
    response = Client().post(_sheet_url(match, qs), _rows(_knock(0, 5, 25), _knock(1, 3, 9)))
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{match.pk}/#sheet"
    assert response["Location"].endswith("#sheet")
    assert HandSubmission.objects.filter(status="confirmed").count() == 2


# -- CSV import ---------------------------------------------------------------------------------


def _import_url(match: Match) -> str:
    return f"/events/{match.event.pk}/import/"


def test_the_import_page_is_for_directors():
    match = _match()
    response = Client().get(_import_url(match), follow=False)
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    stranger = Client()
    stranger.force_login(UserFactory())
    response = stranger.get(_import_url(match))
    assert response.status_code == 403
    assert "Only the event's directors may import score sheets." in _text(response)
    response = _director(match).get(_import_url(match))
    assert response.status_code == 200
    html = response.content.decode()
    for column in CSV_COLUMNS:
        assert f'<dt class="mono">{column}</dt>' in html
    columns = html[html.index('class="columns-list"') :]
    marked = re.findall(r'<dt class="mono">(\w+)</dt><dd class="required">', columns)
    assert tuple(marked) == tuple(c for c in CSV_COLUMNS if c in CSV_REQUIRED)
    assert set(CSV_REQUIRED) == set(marked)
    assert columns.count(">required</span>") == len(CSV_REQUIRED)
    assert "Check only (dry run)" in html
    assert 'href="/imports/example.csv"' in html


def test_the_event_page_links_directors_to_the_import():
    match = _match()
    url = f"/events/{match.event.pk}/"
    assert _import_url(match) in _director(match).get(url).content.decode()
    assert _import_url(match) not in Client().get(url).content.decode()


def _bad_csv(m: int, n: int) -> str:
    return (
        "match,game,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{m},1,1,1,knock,5,25\n"
        f"{m},1,2,1,knock,12,25\n"
        f"{m},1,3,1,knock,5,25\n"
        f"{n},1,1,Nobody,knock,5,25\n"
        "999999,1,1,1,knock,5,25\n"
    )


def _problems(html: str) -> list[tuple[str, str, str]]:
    table = html[html.index('class="compact problems"') : html.index("</table>")]
    return re.findall(
        r'<tr data-row="(\d+)"><td class="num">\d+</td><td class="mono small">([^<]*)</td>'
        r"<td>([^<]*)</td></tr>",
        table,
    )


def test_the_dry_run_lists_every_bad_row_and_stores_nothing():
    m = _match()
    n = MatchFactory(event=m.event, players=[PlayerFactory(club=m.event.club) for _ in "ab"])
    director = _director(m)
    for action, status, notice in (
        ("check", 200, "4 problems found. Nothing was stored."),
        ("import", 400, "4 problems found: nothing was imported."),
    ):
        data = {"csv": _bad_csv(m.pk, n.pk), "action": action}
        response = director.post(_import_url(m), data)
        assert response.status_code == status
        html = response.content.decode()
        problems = _problems(html)
        assert [(row, column) for row, column, _ in problems] == [
            ("3", "knocker_deadwood"),
            ("4", ""),
            ("5", "knocker"),
            ("6", "match"),
        ]
        assert "12 &gt; 10" in problems[0][2]
        assert "Nobody is not a player of this match." in problems[2][2]
        assert notice in html
        # The text stays in the box, to be fixed.
        assert "Nobody,knock,5,25" in html
        assert not HandSubmission.objects.exists()


def test_the_page_imports_only_matches_of_its_event():
    match = _match()
    other = _match()
    director = _director(match)
    other.event.directors.add(event_director(match.event))
    text = (
        "match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{match.pk},1,Alice,knock,5,25\n{other.pk},1,Alice,knock,5,25\n"
    )
    for action, status in (("check", 200), ("import", 400)):
        response = director.post(_import_url(match), {"csv": text, "action": action})
        assert response.status_code == status
        problems = _problems(_text(response))
        assert [(row, column) for row, column, _ in problems] == [("3", "match")]
        assert f"Match {other.pk} is not a match of {match.event.name}." in problems[0][2]
    assert not HandSubmission.objects.exists()


def test_a_valid_dry_run_says_all_rows_are_valid():
    match = _match()
    text = (
        "match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{match.pk},1,Alice,knock,5,25\n{match.pk},2,Bob,gin,0,30\n"
    )
    response = _director(match).post(_import_url(match), {"csv": text, "action": "check"})
    assert response.status_code == 200
    assert "All 2 rows are valid." in response.content.decode()
    assert not HandSubmission.objects.exists()


def test_import_stores_everything_and_links_to_the_matches():
    match = _match()
    director = _director(match)
    text = (
        "match,hand,knocker,outcome,knocker_deadwood,defender_deadwood\n"
        f"{match.pk},1,Alice,knock,5,25\n{match.pk},2,Bob,gin,0,30\n"
    )
    response = director.post(_import_url(match), {"csv": text, "action": "import"})
    assert response.status_code == 302
    assert response["Location"] == f"{_import_url(match)}?matches={match.pk}"
    assert HandSubmission.objects.filter(status="confirmed").count() == 2
    html = director.get(response["Location"]).content.decode()
    assert "Imported 2 hands." in html
    assert f'href="/matches/{match.pk}/"' in html
    assert "Table 7" in html
    page = director.get(f"/matches/{match.pk}/").content.decode()
    assert 'data-hand="2"' in page


def test_a_file_is_checked_too():
    match = _match()
    text = f"match,hand,knocker,outcome\n{match.pk},1,Carol,knock\n"
    upload = SimpleUploadedFile("sheets.csv", text.encode("utf-8-sig"), "text/csv")
    response = _director(match).post(_import_url(match), {"file": upload, "action": "check"})
    assert response.status_code == 200
    html = response.content.decode()
    assert _problems(html)[0][:2] == ("2", "knocker")
    assert "Carol,knock" in html  # the file's text is now in the box
    bad = SimpleUploadedFile("sheets.csv", b"\xff\xfe\x00bad", "text/csv")
    response = _director(match).post(_import_url(match), {"file": bad, "action": "check"})
    assert response.status_code == 400
    assert "The file is not UTF-8 text." in response.content.decode()


def test_nothing_to_import_is_an_error():
    match = _match()
    response = _director(match).post(_import_url(match), {"csv": "  ", "action": "check"})
    assert response.status_code == 400
    assert "Paste the CSV or choose a file." in response.content.decode()


def test_the_example_csv_downloads_and_checks_clean():
    response = Client().get("/imports/example.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    text = response.content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert tuple(csv.DictReader(io.StringIO(text)).fieldnames or ()) == CSV_COLUMNS
    assert set(CSV_REQUIRED) <= set(CSV_COLUMNS)
    assert len(rows) >= 3
    # Pointed at a real match of Alice and Bob, the example is valid as it stands.
    match = _match()
    out = io.StringIO()
    writer = csv.DictWriter(out, fieldnames=list(CSV_COLUMNS))
    writer.writeheader()
    writer.writerows({**row, "match": str(match.pk)} for row in rows)
    response = _director(match).post(_import_url(match), {"csv": out.getvalue(), "action": "check"})
    assert f"All {len(rows)} rows are valid." in response.content.decode()
