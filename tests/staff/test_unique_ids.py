"""Every element id on the workspace's pages is unique: a <label for> and aria-describedby
point at one field, and scripts find the element they mean."""

from collections import Counter
from html.parser import HTMLParser

import pytest
from django.urls import reverse

from tests.conftest import make_lead

from .conftest import login


class _Ids(HTMLParser):
    def __init__(self):
        super().__init__()
        self.ids: Counter[str] = Counter()

    def handle_starttag(self, tag, attrs):
        self.ids.update(value for name, value in attrs if name == "id" and value)


def _duplicate_ids(content: bytes) -> dict[str, int]:
    parser = _Ids()
    parser.feed(content.decode())
    return {name: n for name, n in parser.ids.items() if n > 1}


@pytest.mark.parametrize("who", ["sales", "manager"])
@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_lead_page_has_unique_ids(client, content, sales, manager, who, language):
    user = sales if who == "sales" else manager
    lead = make_lead(owner=user, snapshot=True)
    login(client, user)
    path = reverse("staff:lead_detail", args=[lead.public_id])
    response = client.get(path if language == "zh-hans" else f"/en{path}")
    assert response.status_code == 200
    assert _duplicate_ids(response.content) == {}


@pytest.mark.parametrize("name", ["staff:my_day", "staff:lead_list", "staff:dashboard"])
def test_the_workspace_pages_have_unique_ids(client, content, manager, name):
    for _ in range(3):
        make_lead(owner=manager, snapshot=True)
    login(client, manager)
    response = client.get(reverse(name))
    assert response.status_code == 200 and b"<form" in response.content
    assert _duplicate_ids(response.content) == {}
