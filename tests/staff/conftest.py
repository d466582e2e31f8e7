import uuid

import pytest
from django.contrib.auth.models import Group, User

from selector.staff.permissions import MANAGERS_GROUP, SALES_GROUP
from tests.conftest import make_lead

PASSWORD = "correct-horse-battery-9"


@pytest.fixture(autouse=True)
def _roles(django_db_blocker):
    """The role groups come from a data migration; a transactional test elsewhere in the
    suite flushes them, so make sure they exist."""
    from django.apps import apps

    from selector.staff.roles import ensure_roles

    with django_db_blocker.unblock():
        ensure_roles(apps)


@pytest.fixture(autouse=True)
def _default_language(settings):
    """Each test starts in the workspace's default language: a request to an /en/ page
    leaves English active in the thread (LocaleMiddleware), and reverse() in the next test
    would then give /en/ URLs (the manager page's language test failed after the
    dashboard tests)."""
    from django.utils import translation

    with translation.override(settings.LANGUAGE_CODE):
        yield


def make_user(username: str, group: str | None = None, **fields) -> User:
    user = User.objects.create_user(username, f"{username}@example.com", PASSWORD, **fields)
    if group:
        user.groups.add(Group.objects.get(name=group))
    return user


@pytest.fixture
def manager(db):
    return make_user("mia", MANAGERS_GROUP)


@pytest.fixture
def sales(db):
    return make_user("sam", SALES_GROUP)


@pytest.fixture
def sales2(db):
    return make_user("sue", SALES_GROUP)


@pytest.fixture
def outsider(db):
    # is_staff (may use the admin for content) but has no sales role.
    return make_user("otto", is_staff=True)


@pytest.fixture
def lead(db):
    return make_lead()


def login(client, user):
    client.force_login(user)
    return client


def random_id() -> str:
    return str(uuid.uuid4())


def edit(lead, data: dict) -> dict:
    """A lead-page edit's fields as the page posts them: with the lead's version as it is
    now (``Lead.version``; the page carries the version it was drawn from)."""
    from selector.leads.models import Lead

    return {**data, "version": Lead.objects.values_list("version", flat=True).get(pk=lead.pk)}
