"""The staff lead page shows the build part of the lead's frozen plan (issue 23): the same
estimate, failure domains and racks as the customer's result, and the acceptance download."""

import pytest
from django.urls import reverse
from django.utils import translation

from selector.domain import Answers
from selector.planner.presenter import present
from selector.planner.services import freeze, fresh
from tests.conftest import make_lead

from .conftest import login

pytestmark = pytest.mark.django_db


def test_the_lead_page_shows_the_build_part_of_the_frozen_plan(client, sales, content):
    rec = fresh(Answers(1024, nic_speed=400))
    lead = make_lead(frozen_recommendation=freeze(rec))
    body = login(client, sales).get(
        reverse("staff:lead_detail", args=[lead.public_id])).content.decode()
    with translation.override("zh-hans"):
        build = present(rec).build
    assert 'data-testid="build-part"' in body
    assert "估算值，非实测" in body
    assert build.performance[0].allreduce in body
    for row in build.failures:
        assert f'data-element="{row.element}"' in body
    assert "/api/acceptance.txt?gpus=1024" in body
