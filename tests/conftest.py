import pytest
from django.core.management import call_command


@pytest.fixture
def content(db):
    """The marketing content from fixtures/content.json, as `make run` loads it."""
    call_command("load_content", force=True, verbosity=0)
