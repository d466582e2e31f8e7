import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext


def _content_queries(queries) -> list[str]:
    return [q["sql"] for q in queries if '"content_' in q["sql"]]


@pytest.mark.django_db
def test_the_content_is_read_once_per_process_and_checked_once_per_page(client, content):
    """The first page reads the content rows (and the stamp before and after); every later
    page asks one query, the stamp, whatever it shows (company, FAQ, footer)."""
    if connection.vendor != "postgresql":
        pytest.skip("elsewhere the stamp is the rows themselves")
    client.get("/faq/")
    with CaptureQueriesContext(connection) as queries:
        response = client.get("/faq/")
    assert "广东深华天成智能工程有限公司" in response.content.decode()
    content_queries = _content_queries(queries)
    assert len(content_queries) == 1
    assert content_queries == ['SELECT token::text FROM "content_state" WHERE id = 1']


@pytest.mark.django_db
def test_a_bulk_update_of_the_company_shows_on_the_next_page(client, content):
    from selector.content.models import CompanyProfile

    assert "广东深华天成智能工程有限公司" in client.get("/faq/").content.decode()
    CompanyProfile.objects.update(name_zh="深华天成（测试）")  # no signal, no updated_at
    html = client.get("/faq/").content.decode()
    assert "深华天成（测试）" in html and "广东深华天成智能工程有限公司" not in html
