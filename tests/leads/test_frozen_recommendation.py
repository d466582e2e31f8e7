"""A lead's frozen recommendation (Lead.frozen_recommendation, ``sizing`` until leads/0022):
reading it never writes, and leads/0022 froze the first-release rows the way the reader
used to, keeping the rows that already had a snapshot as they were."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test.utils import CaptureQueriesContext

from selector.domain import Recommendation
from selector.leads.models import Lead
from selector.leads.snapshots import lead_recommendation
from selector.planner.services import fresh
from tests.conftest import make_lead

BEFORE = [("leads", "0021_routing_rule")]
AFTER = [("leads", "0022_frozen_recommendation_fields")]
OLD_SUMMARY = {"recommended": {"leaf": 32, "spine": 16}, "tuning": None}


def _writes(queries) -> list[str]:
    return [q["sql"] for q in queries
            if q["sql"].lstrip().upper().startswith(("UPDATE", "INSERT", "DELETE"))]


@pytest.mark.parametrize("snapshot", [True, False], ids=["frozen", "first-release"])
def test_reading_a_leads_recommendation_writes_nothing(content, snapshot):
    lead = make_lead(snapshot=snapshot)
    stored = Lead.objects.get(pk=lead.pk).frozen_recommendation
    lead = Lead.objects.get(pk=lead.pk)
    with CaptureQueriesContext(connection) as queries:
        rec = lead_recommendation(lead)
        lead_recommendation(lead)
    assert _writes(queries.captured_queries) == []
    assert rec == fresh(Recommendation.from_dict(rec.to_dict()).answers)
    assert Lead.objects.get(pk=lead.pk).frozen_recommendation == stored


def _migrate(targets) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_0022_renames_the_column_and_freezes_first_release_leads():
    call_command("load_content", force=True, verbosity=0)
    frozen = make_lead(snapshot=True)
    first_release = make_lead(gpus=512)
    broken = make_lead(gpus=64)
    try:
        old_apps = _migrate(BEFORE).loader.project_state(BEFORE).apps
        OldLead = old_apps.get_model("leads", "Lead")
        assert OldLead.objects.get(pk=frozen.pk).sizing == frozen.frozen_recommendation
        OldLead.objects.filter(pk=first_release.pk).update(sizing=OLD_SUMMARY)
        # Answers that no longer validate: the row is left for the reader to refuse.
        OldLead.objects.filter(pk=broken.pk).update(sizing=OLD_SUMMARY,
                                                   answers={"gpus": 0})
    finally:
        _migrate(AFTER)

    assert Lead.objects.get(pk=frozen.pk).frozen_recommendation == frozen.frozen_recommendation
    snapshot = Lead.objects.get(pk=first_release.pk).frozen_recommendation
    assert snapshot["first_release_sizing"] == OLD_SUMMARY
    assert Recommendation.from_dict(snapshot) == fresh(
        Recommendation.from_dict(snapshot).answers)
    assert Recommendation.from_dict(snapshot).answers.gpus == 512
    assert Lead.objects.get(pk=broken.pk).frozen_recommendation == OLD_SUMMARY
