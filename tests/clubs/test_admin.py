"""The admin keeps working for the models that moved to ``clubs`` (now under /admin/clubs/)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from tests.clubs.factories import ClubRoleFactory, PlayerFactory

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("model", ["club", "clubrole", "player"])
def test_superuser_lists_and_opens_each_model(client, model):
    admin = get_user_model().objects.create_superuser("root", "root@example.com", "pw-root-1234")
    player = PlayerFactory(name="Ann")
    role = ClubRoleFactory(club=player.club, user=admin)
    obj = {"club": player.club, "clubrole": role, "player": player}[model]
    client.force_login(admin)
    listing = client.get(reverse(f"admin:clubs_{model}_changelist"))
    assert listing.status_code == 200
    assert reverse(f"admin:clubs_{model}_change", args=[obj.pk]) in listing.content.decode()
    assert client.get(reverse(f"admin:clubs_{model}_change", args=[obj.pk])).status_code == 200
    assert client.get(reverse(f"admin:clubs_{model}_history", args=[obj.pk])).status_code == 200
