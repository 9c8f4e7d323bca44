"""Event options: one declaration (``tournaments.options``) that the service, the settings form,
the selectors and the API read. Each option's bounds and defaults, unknown names, a form and an
API that refuse a bad value naming the option and store nothing, and values that come back as
they were sent."""

from __future__ import annotations

import dataclasses
import math
import random
from collections.abc import Iterator
from typing import Any

import pytest
from django.utils import translation
from drf_spectacular.generators import SchemaGenerator

from tests.clubs.helpers import field_error, page_client
from tests.tournaments.factories import EventFactory
from tests.tournaments.helpers import event_form_post
from tournaments.forms import EventSettingsForm
from tournaments.models import Event
from tournaments.options import (
    OPTIONS,
    OPTIONS_BY_NAME,
    EventOptions,
    Option,
    OptionError,
    OptionType,
    options_api_text,
    options_clean,
    options_describe,
    options_read,
)
from tournaments.selectors import event_option, event_options
from tournaments.services import event_create

# What every option defaulted to before the declaration was one (``OPTION_DEFAULTS`` and
# ``KIND_OPTION_DEFAULTS``): a stored event must keep meaning what it meant.
KNOWN_DEFAULTS: dict[str, Any] = {
    "win_points": 1,
    "bye_points": 1,
    "requested_bye_points": 0,
    "late_entry_points": 0,
    "pair_by": "rating",
    "forbid_same_club": "allow",
    "forbid_family": "allow",
    "avoid_same_table": False,
    "double_round_robin": False,
    "groups": 1,
    "playoff_cut": None,
    "third_place": False,
    "grand_final_reset": True,
    "async_pairing_from": 256,
    "registered_only": False,
    "confirm_by_seat_link": False,
    "at_time": "play_on",
    "entries_open": False,
    "entries_cap": None,
    "entries_approval": False,
    "pass_checkin_opens": None,
}


@pytest.fixture(autouse=True)
def _english() -> Iterator[None]:
    """The messages are compared in English, whatever an earlier test left active."""
    with translation.override("en"):
        yield


def _good_values(option: Option) -> list[Any]:
    if option.type is OptionType.NUMBER:
        assert option.least is not None
        return [option.least, option.least + 0.5, 10**400, option.least + 3]
    if option.type is OptionType.WHOLE:
        assert option.least is not None
        return [option.least, option.least + 7] + ([None] if option.nullable else [])
    if option.type is OptionType.FLAG:
        return [True, False]
    return list(option.choice_values)


def _bad_values(option: Option) -> list[Any]:
    if option.type is OptionType.NUMBER:
        assert option.least is not None
        return [option.least - 1, option.least - 0.5, True, "1", None, [], math.nan, math.inf]
    if option.type is OptionType.WHOLE:
        assert option.least is not None
        bad = [option.least - 1, option.least + 0.5, float(option.least), True, "2", {}]
        return bad + ([] if option.nullable else [None])
    if option.type is OptionType.FLAG:
        return [1, 0, "yes", "true", None]
    return ["", "other", None, 1, option.choice_values[0].upper()]


# -- the declaration -----------------------------------------------------------------------------


def test_every_option_is_one_field_of_event_options_and_has_a_type_from_it():
    assert [o.name for o in OPTIONS] == [f.name for f in dataclasses.fields(EventOptions)]
    assert set(OPTIONS_BY_NAME) == set(KNOWN_DEFAULTS)
    types = {o.name: o.type for o in OPTIONS}
    assert types["bye_points"] is OptionType.NUMBER
    assert types["groups"] is OptionType.WHOLE
    assert (types["playoff_cut"], OPTIONS_BY_NAME["playoff_cut"].nullable) == (
        OptionType.WHOLE,
        True,
    )
    assert types["third_place"] is OptionType.FLAG
    assert types["pair_by"] is OptionType.CHOICE
    for option in OPTIONS:
        assert str(option.label), option.name
        assert set(option.kinds) <= set(Event.Kind.values), option.name
        assert {kind for kind, _ in option.kind_defaults} <= set(option.kinds), option.name
        assert (option.type is OptionType.CHOICE) == bool(option.choices), option.name
        # Every default (and a kind's own) is a value the checks accept.
        for value in (option.default, *(v for _, v in option.kind_defaults)):
            assert option.problem(value) is None, option.name


def test_the_defaults_are_the_ones_events_always_had():
    for kind in Event.Kind.values:
        read = options_read(kind=kind, stored={})
        expected = dict(KNOWN_DEFAULTS, bye_points=0 if kind == Event.Kind.ROUND_ROBIN else 1)
        assert dataclasses.asdict(read) == expected, kind
        assert options_read(kind=kind, stored=None) == read


@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_each_options_bounds(option: Option):
    for value in _good_values(option):
        assert options_clean({option.name: value}) == {option.name: value}
    for value in _bad_values(option):
        with pytest.raises(OptionError) as caught:
            options_clean({option.name: value})
        assert caught.value.name == option.name
        assert f"The option {option.name} is " in caught.value.message, value


def test_the_messages_say_what_each_option_takes():
    def message(**options: Any) -> str:
        with pytest.raises(OptionError) as caught:
            options_clean(options)
        return caught.value.message

    assert message(bye_points=-1) == "The option bye_points is a number of at least 0."
    assert message(groups=0) == "The option groups is a whole number of at least 1."
    assert message(playoff_cut=1.5) == "The option playoff_cut is a whole number of at least 1."
    assert message(third_place="yes") == "The option third_place is true or false."
    assert message(pair_by="age") == "The option pair_by is one of rating, seed."
    assert message(forbid_family="x") == "The option forbid_family is one of allow, soft, hard."


def test_a_time_of_day_is_hhmm_on_a_24_hour_clock():
    """Self check-in with the pass opens at HHMM: 2575 or 1290 are no time, and are refused
    rather than read as 23:59 (passes.services.checkin_opens_at)."""
    for good in (0, 930, 1800, 2359, None):
        assert options_clean({"pass_checkin_opens": good}) == {"pass_checkin_opens": good}
    for bad in (2400, 2575, 1290, 960, 99999):
        with pytest.raises(OptionError) as caught:
            options_clean({"pass_checkin_opens": bad})
        assert caught.value.message == (
            "The option pass_checkin_opens is a time of day written HHMM, from 0 to 2359 "
            "(930 is 09:30)."
        ), bad


def test_unknown_names_are_refused_naming_them_and_every_known_one():
    with pytest.raises(OptionError) as caught:
        options_clean({"bye_pts": 1, "zz": 2, "bye_points": 1})
    assert caught.value.name is None
    assert caught.value.message.startswith("Unknown option(s): bye_pts, zz. The options are: ")
    assert caught.value.message.endswith(", ".join(OPTIONS_BY_NAME) + ".")
    with pytest.raises(OptionError):
        options_clean([("bye_points", 1)])
    assert options_clean(None) == {}
    assert options_clean({}) == {}


def test_a_checked_dict_is_stored_as_given_and_read_back_typed():
    options = {
        "win_points": 2,
        "bye_points": 0.5,
        "groups": 3,
        "playoff_cut": 4,
        "pair_by": "seed",
        "forbid_same_club": "soft",
        "double_round_robin": True,
        "grand_final_reset": False,
        "confirm_by_seat_link": True,
    }
    cleaned = options_clean(options)
    assert cleaned == options
    assert cleaned is not options
    read = options_read(kind=Event.Kind.ROUND_ROBIN, stored=cleaned)
    assert (read.bye_points, read.groups, read.playoff_cut) == (0.5, 3, 4)
    assert (read.pair_by, read.forbid_same_club, read.forbid_family) == ("seed", "soft", "allow")
    assert read.double_round_robin is True
    assert read.grand_final_reset is False
    with pytest.raises(dataclasses.FrozenInstanceError):
        read.groups = 5  # type: ignore[misc]


def test_reading_a_row_stored_outside_the_services_never_raises():
    # The admin's JSON box stores anything: flags read as Python truth and whole numbers through
    # int() (as the code using them always did); what cannot be read is the kind's default.
    stored = {
        "third_place": 1,
        "avoid_same_table": "",
        "groups": "3",
        "async_pairing_from": "many",
        "playoff_cut": 2.0,
        "bye_points": "half",
        "pair_by": "age",
        "nonsense": 5,
    }
    read = options_read(kind=Event.Kind.ROUND_ROBIN, stored=stored)
    assert (read.third_place, read.avoid_same_table) == (True, False)
    assert (read.groups, read.async_pairing_from, read.playoff_cut) == (3, 256, 2)
    assert (read.bye_points, read.pair_by) == (0, "rating")
    assert options_read(kind=Event.Kind.SWISS, stored=[1, 2]) == options_read(
        kind=Event.Kind.SWISS, stored={}
    )


@pytest.mark.django_db
def test_one_option_reads_as_all_of_them_do():
    rng = random.Random(29)
    for kind in Event.Kind.values:
        for _ in range(5):
            chosen = rng.sample(OPTIONS, 6)
            stored = {o.name: rng.choice(_good_values(o)) for o in chosen}
            event = EventFactory.build(kind=kind, options=stored)
            every = event_options(event=event)
            for option in OPTIONS:
                assert event_option(event=event, name=option.name) == getattr(every, option.name), (
                    kind,
                    option.name,
                    stored,
                )
    with pytest.raises(KeyError):
        event_option(event=EventFactory.build(), name="bye_pts")


def test_the_api_documentation_lists_every_option_from_the_declaration():
    text = options_api_text()
    for described in options_describe():
        assert f"- `{described['name']}`: " in text
    assert "- `bye_points`: a number of at least 0; default 1 (0 in round_robin); for swiss" in text
    assert "- `playoff_cut`: a whole number of at least 1 or null; default null;" in text
    assert '- `pair_by`: one of rating, seed; default "rating"; for swiss.' in text
    assert "- `confirm_by_seat_link`: true or false; default false; for every kind." in text


def test_the_served_schema_describes_the_options_and_keeps_their_shape():
    schema = SchemaGenerator().get_schema(request=None, public=True)
    schemas = schema["components"]["schemas"]
    create = schemas["EventListInput"]["properties"]["options"]
    update = schemas["PatchedEventUpdateInput"]["properties"]["options"]
    for name in OPTIONS_BY_NAME:
        assert f"`{name}`" in create["description"]
        assert f"`{name}`" in update["description"]
    assert "confirm_by_seat_link true" in create["description"]
    assert update["type"] == "object"
    assert update["additionalProperties"] == {}
    assert update["nullable"] is True
    assert "type" not in create  # a JSONField: any JSON, as before


# -- the API --------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("option", OPTIONS, ids=lambda o: o.name)
def test_the_api_refuses_each_bad_value_naming_the_option_and_stores_nothing(
    option: Option, club, director_api
):
    event = event_create(
        club_id=club.pk, name="S", kind="swiss", options={"win_points": 2, "pair_by": "seed"}
    )
    url = f"/api/events/{event.pk}/"
    for value in _bad_values(option):
        if isinstance(value, float) and not math.isfinite(value):
            continue  # JSON has no NaN or infinity
        r = director_api.patch(url, {"options": {option.name: value}}, format="json")
        assert r.status_code == 400, (value, r.json())
        assert r.json()["field"] == "options"
        assert f"The option {option.name} is " in r.json()["detail"]
        created = director_api.post(
            "/api/events/",
            {"club": club.pk, "name": "T", "kind": "swiss", "options": {option.name: value}},
            format="json",
        )
        assert created.status_code == 400, value
        assert option.name in created.json()["detail"]
    event.refresh_from_db()
    assert event.options == {"win_points": 2, "pair_by": "seed"}
    assert Event.objects.count() == 1


@pytest.mark.django_db
def test_the_api_refuses_options_that_are_not_an_object(club, director_api):
    for value in ([["bye_points", 1]], "bye_points", 7):
        r = director_api.post(
            "/api/events/",
            {"club": club.pk, "name": "T", "kind": "swiss", "options": value},
            format="json",
        )
        assert r.status_code == 400, value
        assert r.json()["field"] == "options"
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_every_option_sent_through_the_api_comes_back_as_sent(club, director_api):
    options = {o.name: _good_values(o)[-1] for o in OPTIONS}
    created = director_api.post(
        "/api/events/",
        {"club": club.pk, "name": "S", "kind": "swiss", "options": options},
        format="json",
    )
    assert created.status_code == 201, created.json()
    url = f"/api/events/{created.json()['id']}/"
    assert director_api.get(url).json()["options"] == options
    changed = dict(options, bye_points=0.5, pair_by="rating", third_place=False)
    r = director_api.patch(url, {"options": changed}, format="json")
    assert r.status_code == 200, r.json()
    assert director_api.get(url).json()["options"] == changed
    event = Event.objects.get(pk=created.json()["id"])
    assert dataclasses.asdict(event_options(event=event)) == changed
    assert director_api.patch(url, {"options": None}, format="json").json()["options"] == {}


# -- the settings form ----------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_form_refuses_a_value_out_of_bounds_at_the_options_field(club, director):
    client = page_client(director)
    for field, value in (("opt_bye_points", "-1"), ("opt_playoff_cut", "0")):
        response = client.post(f"/clubs/{club.slug}/events/new/", event_form_post(**{field: value}))
        assert response.status_code == 400
        assert "greater than or equal to" in field_error(response.content.decode(), f"id_{field}")
    response = client.post(f"/clubs/{club.slug}/events/new/", event_form_post(opt_pair_by="age"))
    assert response.status_code == 400
    assert "age" in field_error(response.content.decode(), "id_opt_pair_by")
    assert not Event.objects.exists()


@pytest.mark.django_db
def test_the_form_names_an_option_it_does_not_offer_and_stores_nothing(club, director):
    # Stored outside the services (the admin): the form keeps options it does not offer, so the
    # settings page says which one is wrong instead of storing it again.
    event = EventFactory(
        club=club, kind=Event.Kind.SWISS, options={"async_pairing_from": 0, "bye_points": 0.5}
    )
    event.directors.add(director)
    response = page_client(director).post(
        f"/events/{event.pk}/settings/", event_form_post(name="Renamed")
    )
    assert response.status_code == 400
    assert "The option async_pairing_from is a whole number of at least 1." in (
        response.content.decode()
    )
    event.refresh_from_db()
    assert event.name != "Renamed"
    assert event.options == {"async_pairing_from": 0, "bye_points": 0.5}


@pytest.mark.django_db
def test_options_set_on_the_form_survive_saving_the_settings_again(club, director):
    client = page_client(director)
    chosen = {
        "opt_win_points": "2",
        "opt_bye_points": "0.5",
        "opt_late_entry_points": "0.25",
        "opt_playoff_cut": "4",
        "opt_pair_by": "seed",
        "opt_forbid_family": "soft",
        "opt_avoid_same_table": "on",
        "opt_confirm_by_seat_link": "on",
    }
    response = client.post(f"/clubs/{club.slug}/events/new/", event_form_post(**chosen))
    assert response.status_code == 302
    event = Event.objects.get(club=club)
    stored = {
        "win_points": 2,
        "bye_points": 0.5,
        "late_entry_points": 0.25,
        "playoff_cut": 4,
        "pair_by": "seed",
        "forbid_family": "soft",
        "avoid_same_table": True,
        "confirm_by_seat_link": True,
    }
    assert event.options == stored
    # An operator's option the form does not offer is kept as it is.
    Event.objects.filter(pk=event.pk).update(options={**stored, "async_pairing_from": 8})
    # The settings form as the page fills it in, sent back untouched.
    form = EventSettingsForm(club=club, event=event)
    posted: dict[str, Any] = {}
    for name in form.fields:
        value = form[name].value()
        if isinstance(value, bool):
            if value:
                posted[name] = "on"
        elif value is not None:
            posted[name] = str(value)
    assert posted["opt_bye_points"] == "0.5"
    assert "opt_third_place" not in posted
    response = client.post(f"/events/{event.pk}/settings/", posted)
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.options == {**stored, "async_pairing_from": 8}
    assert event_options(event=event).async_pairing_from == 8
