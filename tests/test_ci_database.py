import os

import pytest
from django.db import connection


@pytest.mark.django_db
def test_ci_runs_on_postgresql():
    """A green CI must mean PostgreSQL was used: with CI=true any other vendor fails."""
    if os.environ.get("CI") != "true":
        pytest.skip("only enforced when CI=true")
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SELECT version()")
        assert cursor.fetchone()[0].startswith("PostgreSQL")
