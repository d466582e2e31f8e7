import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, settings

# Property tests check behaviour, not speed: no per-example deadline, which a loaded
# 2-core CI machine would trip at random.
settings.register_profile("selector", deadline=None,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("selector")


@pytest.fixture
def content(db):
    """The marketing content from fixtures/content.json, as `make run` loads it."""
    call_command("load_content", force=True, verbosity=0)
