"""The lead rows of the list and of My day: one row per lead with its words in the page's
language, user text escaped, My day's "Take" button posting back to the page it is on."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from tests.conftest import make_lead

from .conftest import login

HOSTILE = "<script>alert('x')</script> & \"quoted\" 王伟"

pytestmark = pytest.mark.django_db


@pytest.fixture
def labelled(sales):
    now = timezone.now()
    return [
        make_lead(name=HOSTILE, company=HOSTILE, utm_source=HOSTILE, owner=sales,
                  next_action_kind="call", next_action_due=now - dt.timedelta(hours=3),
                  possible_duplicate=True, score="hot"),
        make_lead(next_action_kind="visit", next_action_due=now + dt.timedelta(days=2),
                  utm_source="baidu", score="cold", status="contacted"),
        make_lead(score="hot", gpus=2048),
        make_lead(status="won", owner=sales, utm_campaign="only-campaign"),
    ]


@pytest.mark.parametrize(("prefix", "words"), [
    ("", ("疑似重复", "已逾期", "未分配")),
    ("/en", ("Possible duplicate", "Overdue", "Unassigned")),
])
def test_the_list_draws_one_row_per_lead_in_the_pages_language(client, sales, labelled,
                                                                prefix, words):
    login(client, sales)
    listing = client.get(prefix + "/staff/leads/").content.decode()
    assert listing.count('<tr class="lead-row') == 4
    assert listing.count('<tr class="lead-row is-overdue"') == 1
    for word in words:
        assert word in listing
    assert "<script>alert" not in listing
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; &amp; &quot;quoted&quot; 王伟" \
        in listing
    for lead in labelled:
        assert f'href="{prefix}/staff/leads/{lead.public_id}/"' in listing


def test_my_day_draws_its_sections_and_the_take_button_posts_back(client, sales, labelled):
    login(client, sales)
    day = client.get("/en/staff/?x=<b>").content.decode()
    assert 'class="day-item is-overdue"' in day and "Overdue" in day
    assert "<script>alert" not in day
    unassigned_hot = labelled[2]
    take = f'action="/en/staff/leads/{unassigned_hot.public_id}/take/"'
    assert take in day
    form = day[day.index(take):day.index("</form>", day.index(take))]
    assert 'name="csrfmiddlewaretoken"' in form
    assert 'name="next" value="/en/staff/?x=%3Cb%3E"' in form \
        or 'name="next" value="/en/staff/?x=&lt;b&gt;"' in form
