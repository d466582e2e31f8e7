import pytest


@pytest.mark.django_db
def test_the_company_profile_is_read_once_per_page(client, content):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as queries:
        response = client.get("/faq/")
    assert "广东深华天成智能工程有限公司" in response.content.decode()
    profile_queries = [q for q in queries if "content_companyprofile" in q["sql"]]
    assert len(profile_queries) == 1
