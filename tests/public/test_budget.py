"""The landing page's first load stays within 80 KB gzipped, all from our own host
(the same measurement `make bench` prints as landing_first_load_gzip)."""

import pytest

from bench.bench_public import BUDGET_BYTES, first_load


@pytest.mark.parametrize("path", ["/", "/en/"])
def test_the_landing_page_first_load_fits_the_budget(client, content, path):
    sizes = first_load(path)  # raises on any request to another host
    assert {"/static/css/app.css", "/static/css/public.css"} <= set(sizes)
    assert any(url.endswith(".js") for url in sizes)
    assert sum(sizes.values()) <= BUDGET_BYTES
