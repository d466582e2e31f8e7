"""wizard/0003: WizardSession.furthest_step holds the step identifier; the old positions
(1..5 the questions, 6 the result) map to identifiers and back."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from selector.wizard.models import WizardSession
from selector.wizard.steps import STAGES

BEFORE = [("wizard", "0002_dashboard_cover_index")]
AFTER = [("wizard", "0003_furthest_step_identifier_fields")]
OLD_ORDER = ("scale", "workload", "budget", "determinism", "nic-speed", "result")

pytestmark = pytest.mark.django_db(transaction=True)


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection).loader.project_state(targets).apps


def test_the_stages_are_still_the_ones_the_migration_maps():
    # Adding a step later is what the identifiers are for; until then the lists agree.
    assert STAGES == OLD_ORDER


def test_positions_become_identifiers_and_back():
    try:
        old = _migrate(BEFORE).get_model("wizard", "WizardSession")
        ids = [old.objects.create(furthest_step=position).pk for position in range(1, 7)]
        _migrate(AFTER)
        assert [WizardSession.objects.get(pk=pk).furthest_step for pk in ids] == list(OLD_ORDER)

        WizardSession.objects.filter(pk=ids[0]).update(furthest_step="a-later-step")
        old = _migrate(BEFORE).get_model("wizard", "WizardSession")
        # A stage the old positions never had goes back to step 1.
        assert [old.objects.get(pk=pk).furthest_step for pk in ids] == [1, 2, 3, 4, 5, 6]
    finally:
        _migrate(AFTER)
    assert WizardSession.objects.get(pk=ids[-1]).furthest_step == "result"
