"""JSON-LD on every public page: required properties per type, FAQPage equal to the visible
FAQ in both languages, safe serialisation, and admin edits flowing into it."""

import json
from datetime import datetime

import pytest
from django.contrib.auth import get_user_model
from django.test import override_settings
from django.utils import translation

from selector.content.models import ContentBlock, FaqEntry
from selector.public.jsonld import dumps
from tests.public.helpers import json_ld_nodes, nodes_of_type, parse, visible_faq

SITE = "https://net.example.com"

PAGES = {
    # path: (language, expected JSON-LD types)
    "/": ("zh-Hans", {"Organization", "Article"}),  # the home page has no parent: no trail
    "/en/": ("en", {"Organization", "Article"}),
    "/faq/": ("zh-Hans", {"Organization", "BreadcrumbList", "FAQPage"}),
    "/en/faq/": ("en", {"Organization", "BreadcrumbList", "FAQPage"}),
    "/compare/": ("zh-Hans", {"Organization", "BreadcrumbList"}),
    "/en/compare/": ("en", {"Organization", "BreadcrumbList"}),
}


def _iso(value: str) -> datetime:
    return datetime.fromisoformat(value.replace("Z", "+00:00"))


def check_organization(node, lang):
    assert node["name"] and node["@id"] == SITE + "/#organization"
    assert node["url"].startswith(SITE + "/")
    assert node["logo"]["url"] == SITE + "/static/img/logo.svg"
    contact = node["contactPoint"]
    assert contact["@type"] == "ContactPoint" and contact["contactType"]
    assert contact.get("url") or contact.get("telephone") or contact.get("email")
    assert contact["hoursAvailable"]["opens"] == "00:00"  # 7x24 from the company profile


def check_breadcrumbs(node, canonical):
    items = node["itemListElement"]
    assert len(items) >= 2  # the parent and the page
    assert [i["position"] for i in items] == list(range(1, len(items) + 1))
    assert all(i["@type"] == "ListItem" and i["name"] and i["item"].startswith(SITE)
               for i in items)
    assert items[-1]["item"] == canonical


def check_article(node, lang, canonical):
    for key in ("headline", "description", "datePublished", "dateModified"):
        assert node[key], key
    assert len(node["headline"]) <= 110
    assert node["author"]["name"] and node["author"]["@type"] == "Organization"
    assert node["publisher"]["name"] and node["publisher"]["@id"].endswith("#organization")
    assert _iso(node["dateModified"]) >= _iso(node["datePublished"])
    assert node["inLanguage"] == lang
    assert node["mainEntityOfPage"]["@id"] == canonical


def check_faq(node, lang):
    assert node["inLanguage"] == lang
    assert node["mainEntity"]
    for q in node["mainEntity"]:
        assert q["@type"] == "Question" and q["name"]
        assert q["acceptedAnswer"]["@type"] == "Answer" and q["acceptedAnswer"]["text"]


@pytest.mark.parametrize("path", PAGES)
@override_settings(SITE_URL=SITE)
def test_it_puts_complete_json_ld_on_every_public_page(client, content, path):
    lang, expected = PAGES[path]
    html = client.get(path).content.decode()
    assert len(parse(html).ld_blocks) == 1
    nodes = json_ld_nodes(html)
    assert {n["@type"] for n in nodes} == expected
    canonical = SITE + path
    for node in nodes:
        match node["@type"]:
            case "Organization":
                check_organization(node, lang)
            case "BreadcrumbList":
                check_breadcrumbs(node, canonical)
            case "Article":
                check_article(node, lang, canonical)
            case "FAQPage":
                check_faq(node, lang)


@pytest.mark.parametrize("path,language", [("/faq/", "zh-hans"), ("/en/faq/", "en")])
def test_it_marks_up_exactly_the_visible_faq_in_the_page_language(
        client, content, path, language):
    html = client.get(path).content.decode()
    (faq,) = nodes_of_type(html, "FAQPage")
    marked_up = [(q["name"], q["acceptedAnswer"]["text"]) for q in faq["mainEntity"]]
    with translation.override(language):
        stored = [(e.question, e.answer) for e in FaqEntry.objects.filter(is_published=True)]
    assert marked_up == visible_faq(html) == stored
    assert len(stored) == 4


def test_it_shows_the_same_faq_on_the_landing_page_as_on_the_faq_page(client, content):
    for prefix in ("", "/en"):
        landing = client.get(prefix + "/").content.decode()
        faq_page = client.get(prefix + "/faq/").content.decode()
        assert visible_faq(landing) == visible_faq(faq_page) != []
        # Google: mark up a repeated FAQ once per site; it lives on the FAQ page.
        assert nodes_of_type(landing, "FAQPage") == []


def test_it_leaves_unpublished_questions_out_of_page_and_json_ld(client, content):
    FaqEntry.objects.filter(slug="small-cluster").update(is_published=False)
    html = client.get("/faq/").content.decode()
    names = [q["name"] for q in nodes_of_type(html, "FAQPage")[0]["mainEntity"]]
    assert "小集群需要无损网络吗？" not in names and len(names) == 3
    assert "小集群需要无损网络吗？" not in html


PLANTED = 'Safe?</script><script>alert("x")</script><!-- \u2028 & "quoted" \'single\''


@pytest.mark.parametrize("path,field", [("/faq/", "answer_zh"), ("/en/faq/", "answer_en")])
def test_a_planted_script_end_tag_stays_inside_the_json_string(client, content, path, field):
    FaqEntry.objects.filter(slug="which-is-faster").update(**{field: PLANTED})
    html = client.get(path).content.decode()
    collector = parse(html)
    # Only the data block itself, htmx and site.js: nothing the planted text could open.
    assert len(collector.ld_blocks) == 1
    assert [s.get("type") for s in collector.scripts] == ["application/ld+json", None, None]
    assert '<script>alert("x")' not in html
    (faq,) = nodes_of_type(html, "FAQPage")
    assert faq["mainEntity"][0]["acceptedAnswer"]["text"] == PLANTED
    assert visible_faq(html)[0][1] == PLANTED  # shown as text, escaped


def test_it_escapes_everything_that_could_end_the_script_element():
    text = dumps({"a": "</script><!--<script>&\u2028\u2029\"'"})
    for raw in ("<", ">", "&", "\u2028", "\u2029"):
        assert raw not in text
    assert json.loads(text) == {"a": "</script><!--<script>&\u2028\u2029\"'"}
    assert "中文" in dumps("中文")  # readable, not \u-escaped


@pytest.fixture
def admin_client(client, db):
    user = get_user_model().objects.create_superuser("boss", "boss@example.com", "pw-123456789")
    client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def test_an_admin_edit_of_a_faq_entry_reaches_page_and_json_ld(admin_client, content, client):
    entry = FaqEntry.objects.get(slug="why-lossless")
    response = admin_client.post(f"/admin/content/faqentry/{entry.pk}/change/", {
        "slug": entry.slug, "order": entry.order,
        "question_zh": "RoCE 一定要无损吗？", "question_en": "Must RoCE be lossless?",
        "answer_zh": "是的，训练流量对丢包极敏感。",
        "answer_en": "Yes: training traffic hates loss.",
        "topics": entry.topics, "is_published": "on",
    })
    assert response.status_code == 302
    assert response["Location"].endswith("/admin/content/faqentry/")
    for path, question, answer in [
        ("/faq/", "RoCE 一定要无损吗？", "是的，训练流量对丢包极敏感。"),
        ("/en/faq/", "Must RoCE be lossless?", "Yes: training traffic hates loss."),
    ]:
        html = admin_client.get(path).content.decode()
        assert (question, answer) in visible_faq(html)
        entity = nodes_of_type(html, "FAQPage")[0]["mainEntity"][1]
        assert (entity["name"], entity["acceptedAnswer"]["text"]) == (question, answer)


def test_an_article_edit_reaches_headline_title_and_date_modified(admin_client, content):
    before = nodes_of_type(admin_client.get("/en/").content.decode(), "Article")[0]
    block = ContentBlock.objects.get(key="article")
    data = {f: getattr(block, f) for f in ("key", "section", "order", "title_zh", "body_zh",
                                            "body_en")}
    data["title_en"] = "RoCE v2 or InfiniBand? The 2027 guide"
    data["published_at_0"], data["published_at_1"] = "2026-11-30", "08:00:00"
    response = admin_client.post(f"/admin/content/contentblock/{block.pk}/change/", data)
    assert response.status_code == 302
    assert response["Location"].endswith("/admin/content/contentblock/")
    html = admin_client.get("/en/").content.decode()
    article = nodes_of_type(html, "Article")[0]
    assert article["headline"] == "RoCE v2 or InfiniBand? The 2027 guide"
    assert "<title>RoCE v2 or InfiniBand? The 2027 guide" in html
    assert "<h1>RoCE v2 or InfiniBand? The 2027 guide</h1>" in html
    assert _iso(article["dateModified"]) > _iso(before["dateModified"])
    assert article["datePublished"] == before["datePublished"]


def test_a_tuning_edit_moves_the_article_date_modified(client, content):
    before = nodes_of_type(client.get("/").content.decode(), "Article")[0]["dateModified"]
    block = ContentBlock.objects.get(key="tuning-ecn")
    block.body_zh = "拥塞时显式标记（ECN），发送端主动降速。"
    block.save()
    html = client.get("/").content.decode()
    assert "拥塞时显式标记（ECN），发送端主动降速。" in html
    after = nodes_of_type(html, "Article")[0]["dateModified"]
    assert _iso(after) > _iso(before)


def test_pages_render_before_any_content_is_loaded(client, db):
    for path in ("/", "/en/", "/faq/", "/compare/"):
        html = client.get(path).content.decode()
        types = {n["@type"] for n in json_ld_nodes(html)}
        assert "Organization" in types and "Article" not in types
