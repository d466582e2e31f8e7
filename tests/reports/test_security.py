"""Nothing a customer types can make WeasyPrint fetch a file or a URL, and it is printed
literally; the fetcher serves only the project's static files."""

import os
from io import BytesIO
from urllib.request import Request

import pytest
from pypdf import PdfReader

from selector.documents import fetcher as fetcher_module
from selector.documents.fetcher import FetchRefused, StaticOnlyFetcher, asset_url, resolve_asset
from selector.leads.report.render import JSONLD_NAME, render_html, render_pdf_document
from selector.leads.report.samples import sample_report

from .conftest import pdf_text, squash

PAYLOADS = [
    '<link rel="attachment" href="file:///etc/passwd">',
    '<img src="file:///etc/passwd">',
    '<img src="http://127.0.0.1:9/x.png">',
    '<style>@import url("http://127.0.0.1:9/x.css");</style>',
    "</script><script>alert(1)</script>",
    'url(file:///etc/passwd) @import "file:///etc/passwd";',
]
FIELDS = ["customer_name", "customer_company", "report_number"]


@pytest.mark.django_db
@pytest.mark.parametrize("field", FIELDS)
def test_user_text_fetches_nothing_and_prints_literally(content, field, language="en"):
    payload = " ".join(PAYLOADS)
    data = sample_report(language, "roce", **{field: payload})
    recorder = StaticOnlyFetcher(record=True)
    rendered = render_pdf_document(data, fetcher=recorder)
    # Only the project's static files were asked for, and all of them were served.
    assert recorder.calls == recorder.served
    assert all(url.startswith("file:///static/") for url in recorder.calls)
    assert not any("passwd" in url or "127.0.0.1" in url for url in recorder.calls)
    reader = PdfReader(BytesIO(rendered.content))
    assert list(reader.attachments) == [JSONLD_NAME]
    text = squash(pdf_text(rendered.content))
    for part in PAYLOADS:
        assert squash(part) in text, part
    assert "root:x:0:0" not in pdf_text(rendered.content)


@pytest.mark.django_db
def test_the_web_version_escapes_user_text(content):
    data = sample_report("zh-hans", "roce", customer_name=PAYLOADS[4],
                         customer_company=PAYLOADS[1])
    html = render_html(data, web=True)
    assert "<script>alert(1)" not in html
    assert "&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert '<img src="file:///etc/passwd">' not in html
    assert html.count("</script>") == 1  # only the JSON-LD element's own end tag


@pytest.mark.parametrize("url", [
    "file:///etc/passwd",
    "file:///static/../../../../etc/passwd",
    "file:///static/%2e%2e/%2e%2e/etc/passwd",
    "file:///static/css/../../selector/settings.py",
    "file://evil.example/static/css/report.css",
    "http://127.0.0.1:9/",
    "https://example.com/static/css/report.css",
    "data:text/plain,hello",
    "ftp://127.0.0.1/x",
    "file:///static/",
    "file:///static/css\\..\\..\\etc\\passwd",
    "file:///static/css/report.css\x00.png",
    "file:///static/no/such/file.css",
    "file:///static/_generated/qr-never-registered.png",  # only images we generated
])
def test_the_fetcher_refuses_everything_but_static_files(url):
    fetcher = StaticOnlyFetcher(record=True)
    with pytest.raises(FetchRefused):
        fetcher.fetch(url)
    assert fetcher.served == []


def test_the_fetcher_serves_a_static_file():
    response = StaticOnlyFetcher().fetch(asset_url("img/logo.svg"))
    assert response.read().startswith(b"<svg")
    assert response.content_type == "image/svg+xml"


def test_the_fetcher_refuses_symlinks_out_of_the_static_tree(tmp_path, monkeypatch):
    root = tmp_path / "static"
    (root / "img").mkdir(parents=True)
    secret = tmp_path / "secret.txt"
    secret.write_text("top secret")
    os.symlink(secret, root / "img" / "leak.svg")
    (root / "img" / "ok.svg").write_text("<svg/>")
    monkeypatch.setattr(fetcher_module, "static_roots", lambda: (root.resolve(),))
    assert resolve_asset(asset_url("img/ok.svg")).name == "ok.svg"
    with pytest.raises(FetchRefused):
        resolve_asset(asset_url("img/leak.svg"))


@pytest.mark.parametrize("url", ["file:///etc/passwd", "http://127.0.0.1:9/a.css",
                                 "https://example.com/", "data:text/plain,secret",
                                 "ftp://127.0.0.1/x"])
def test_the_fetcher_cannot_open_urls_at_all(url):
    # WeasyPrint's own fetching (URLFetcher.fetch, urllib's open) is never reached: every
    # way in ends in FetchRefused.
    fetcher = StaticOnlyFetcher()
    for way_in in (fetcher.fetch, fetcher.open, fetcher):
        with pytest.raises(FetchRefused):
            way_in(url)
    with pytest.raises(FetchRefused):
        fetcher.open(Request(url))


@pytest.mark.django_db
def test_even_raw_markup_cannot_fetch_through_the_renderer(content):
    """Defence in depth: if markup ever reached the document unescaped, the fetcher still
    refuses it and no attachment but ours is embedded."""
    from datetime import datetime

    from selector.leads.report.render import html_to_pdf

    html = ("<html><head>" + PAYLOADS[0] + PAYLOADS[3] +
            '<link rel="stylesheet" href="http://127.0.0.1:9/a.css"></head><body>'
            + PAYLOADS[1] + PAYLOADS[2] + '<a rel="attachment" href="file:///etc/passwd">x</a>'
            + '<img src="file:///static/img/logo.svg"></body></html>')
    recorder = StaticOnlyFetcher(record=True)
    rendered = html_to_pdf(html, attachment=b"{}", created=datetime(2026, 11, 30),
                           language="en", fetcher=recorder)
    assert any("passwd" in url for url in recorder.calls)
    assert any("127.0.0.1" in url for url in recorder.calls)
    assert all(url.startswith("file:///static/") for url in recorder.served)
    reader = PdfReader(BytesIO(rendered.content))
    assert list(reader.attachments) == [JSONLD_NAME]
    assert "root:x:0:0" not in pdf_text(rendered.content)
