"""Title, meta description, canonical, hreflang, Open Graph, sitemap.xml and robots.txt."""

import re
from datetime import UTC, datetime
from xml.etree import ElementTree

import pytest
from django.test import override_settings
from django.utils import timezone

from selector.content.models import CompanyProfile, ComparisonRow, ContentBlock, FaqEntry
from tests.public.helpers import links, meta, parse

SITE = "https://net.example.com"
PAGES = ["/", "/faq/", "/compare/"]


@pytest.mark.parametrize("path", PAGES)
@pytest.mark.parametrize("prefix", ["", "/en"])
@override_settings(SITE_URL=SITE)
def test_it_links_canonical_and_both_languages(client, content, path, prefix):
    html = client.get(prefix + path).content.decode()
    assert [link["href"] for link in links(html, "canonical")] == [SITE + prefix + path]
    alternates = {link["hreflang"]: link["href"] for link in links(html, "alternate")}
    assert alternates == {"zh-Hans": SITE + path, "en": SITE + "/en" + path,
                          "x-default": SITE + path}
    assert meta(html, "og:url") == [SITE + prefix + path]
    assert meta(html, "og:locale") == ["en_US" if prefix else "zh_CN"]
    assert meta(html, "og:locale:alternate") == ["zh_CN" if prefix else "en_US"]
    assert meta(html, "og:image") == [SITE + "/static/img/og-card.png"]
    assert meta(html, "og:title")[0] and meta(html, "og:description")[0]
    assert re.search(r'<html lang="(en|zh-Hans)">', html).group(1) == (
        "en" if prefix else "zh-Hans")


@pytest.mark.parametrize("path,language,title", [
    ("/", "zh", "AI算力网络怎么选：RoCE v2无损以太网与InfiniBand对比"),
    ("/en/", "en", "Choosing an AI cluster network: RoCE v2 lossless Ethernet vs InfiniBand"),
])
def test_the_landing_title_and_description_come_from_the_article_block(
        client, content, path, language, title):
    html = client.get(path).content.decode()
    article = ContentBlock.objects.get(key="article")
    description = getattr(article, f"body_{language}")
    assert f"<title>{title} · " in html
    assert meta(html, "description") == [description]
    assert meta(html, "og:description") == [description]
    assert meta(html, "og:title") == [title]
    assert meta(html, "og:type") == ["article"]
    assert meta(html, "article:published_time") == ["2026-11-30T08:00:00+08:00"]


def test_faq_and_comparison_have_their_own_titles_and_descriptions(client, content):
    faq = client.get("/en/faq/").content.decode()
    compare = client.get("/en/compare/").content.decode()
    assert "<title>Frequently asked questions: RoCE v2 and InfiniBand · " in faq
    assert meta(compare, "description") == [
        "RoCE v2 lossless Ethernet and InfiniBand for AI clusters compared by Bandwidth, "
        "Lossless mechanism, Ecosystem, Cost, NICs, AI Ethernet platform, Open standards, "
        "In-network reduction (SHARP), Subnet management."]
    assert "带宽、无损机制、生态兼容、成本" in meta(client.get("/compare/").content.decode(),
                                            "description")[0]
    assert meta(faq, "og:type") == ["website"]


def test_the_pages_load_nothing_from_another_host(client, content):
    for path in ("/", "/en/", "/faq/", "/compare/"):
        html = client.get(path).content.decode()
        collector = parse(html)
        fetched = [s["src"] for s in collector.scripts if "src" in s]
        fetched += [link["href"] for link in collector.links
                    if link.get("rel") in {"stylesheet", "icon", "preload", "modulepreload"}]
        fetched += re.findall(r'<img[^>]+src="([^"]+)"', html)
        assert fetched and all(u.startswith("/") and not u.startswith("//") for u in fetched)


def test_the_pages_answer_head_and_refuse_post(client, content):
    assert client.head("/en/faq/").status_code == 200
    assert client.post("/en/faq/").status_code == 405


@override_settings(SITE_URL=SITE)
def test_the_sitemap_lists_every_public_page_in_both_languages(client, content):
    response = client.get("/sitemap.xml")
    assert response["Content-Type"].startswith("application/xml")
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9",
          "x": "http://www.w3.org/1999/xhtml"}
    root = ElementTree.fromstring(response.content)  # noqa: S314 (our own output)
    urls = {u.find("s:loc", ns).text: u for u in root.findall("s:url", ns)}
    assert set(urls) == {SITE + p for p in ("/", "/en/", "/faq/", "/en/faq/", "/compare/",
                                            "/en/compare/")}
    faq = urls[SITE + "/en/faq/"]
    alternates = {a.get("hreflang"): a.get("href") for a in faq.findall("x:link", ns)}
    assert alternates == {"zh-hans": SITE + "/faq/", "en": SITE + "/en/faq/",
                          "x-default": SITE + "/faq/"}
    assert faq.find("s:lastmod", ns).text == "2026-12-01"


def test_the_sitemap_lastmod_follows_content_edits(client, content):
    old = datetime(2025, 1, 1, tzinfo=UTC)
    for model in (ContentBlock, FaqEntry, ComparisonRow, CompanyProfile):
        model.objects.update(updated_at=old)
    block = ContentBlock.objects.get(key="intro")
    block.body_en = "Edited."
    block.save()
    root = ElementTree.fromstring(client.get("/sitemap.xml").content)  # noqa: S314
    ns = {"s": "http://www.sitemaps.org/schemas/sitemap/0.9"}
    lastmod = {u.find("s:loc", ns).text.split("testserver", 1)[-1]: u.find("s:lastmod", ns).text
               for u in root.findall("s:url", ns)}
    today = timezone.localtime(block.updated_at).date().isoformat()  # sitemap: site time zone
    assert lastmod["/"] == today != "2025-01-01"
    assert lastmod["/faq/"] == "2025-01-01"


@override_settings(SITE_URL=SITE)
def test_robots_txt_points_to_the_sitemap_and_keeps_private_areas_out(client, db):
    response = client.get("/robots.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    lines = response.content.decode().splitlines()
    assert lines[0] == "User-agent: *"
    for area in ("/staff/", "/admin/", "/report/", "/en/staff/", "/en/admin/", "/en/report/"):
        assert f"Disallow: {area}" in lines
    assert "Disallow: /" not in lines  # the public pages stay crawlable
    assert f"Sitemap: {SITE}/sitemap.xml" in lines
    assert client.get("/en/robots.txt").status_code == 404
