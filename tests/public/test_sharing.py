"""Sharing (issue 26, item 8): Open Graph and Twitter card tags on the public pages and on
shared results (a WeChat, Slack or e-mail preview names the page and shows the branded
image), the Article JSON-LD with that image, breadcrumb trails from the home page."""

import io
import struct

import pytest
from django.contrib.staticfiles import finders
from django.test import override_settings
from django.utils import translation
from PIL import Image

from selector.core.sharing import share_token
from selector.domain import Answers, Budget, Determinism, Workload
from selector.planner.presenter import present
from selector.planner.services import fresh
from selector.wizard.card import key_numbers
from tests.public.helpers import meta, nodes_of_type

SITE = "https://net.example.com"
IMAGE = SITE + "/static/img/og-card.png"
ANSWERS = Answers(gpus=1024, gpus_per_server=8, workload=Workload.TRAINING,
                  budget=Budget.BALANCED, determinism=Determinism.STANDARD, nic_speed=400)


def _png_size(path: str) -> tuple[int, int]:
    with open(path, "rb") as f:
        head = f.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", head[16:24])


def test_the_sharing_image_is_a_1200_by_630_png():
    assert _png_size(finders.find("img/og-card.png")) == (1200, 630)


def _one(html: str, key: str) -> str:
    values = meta(html, key)
    assert len(values) == 1, (key, values)
    return values[0]


@pytest.mark.parametrize("path,locale,alternate", [
    ("/", "zh_CN", "en_US"), ("/en/", "en_US", "zh_CN"), ("/faq/", "zh_CN", "en_US"),
    ("/en/faq/", "en_US", "zh_CN"), ("/compare/", "zh_CN", "en_US"),
    ("/en/compare/", "en_US", "zh_CN")])
@override_settings(SITE_URL=SITE)
def test_every_public_page_has_open_graph_and_twitter_card_tags(client, content, path,
                                                                locale, alternate):
    html = client.get(path).content.decode()
    title = _one(html, "og:title")
    description = _one(html, "og:description")
    assert title and title in html.split("<title>", 1)[1].split("</title>", 1)[0]
    assert description == _one(html, "description")
    assert _one(html, "og:url") == SITE + path
    assert (_one(html, "og:image"), _one(html, "og:image:type")) == (IMAGE, "image/png")
    assert (_one(html, "og:image:width"), _one(html, "og:image:height")) == ("1200", "630")
    assert _one(html, "og:image:alt")
    assert (_one(html, "og:locale"), _one(html, "og:locale:alternate")) == (locale, alternate)
    assert _one(html, "twitter:card") == "summary_large_image"
    assert _one(html, "twitter:title") == title
    assert _one(html, "twitter:description") == description
    assert _one(html, "twitter:image") == IMAGE


@pytest.mark.parametrize("prefix,lang,label,locale", [
    ("", "zh", "分享的结果：", "zh_CN"), ("/en", "en", "Shared result: ", "en_US")])
@override_settings(SITE_URL=SITE)
def test_a_shared_result_has_a_preview_of_its_recommendation(client, content, prefix, lang,
                                                             label, locale):
    url = f"{prefix}/wizard/r/{share_token(ANSWERS)}/"
    html = client.get(url).content.decode()
    heading = html.split('data-step-heading', 1)[1].split(">", 1)[1].split("</h1>", 1)[0]
    assert _one(html, "og:title") == label + heading  # the recommendation it shows
    assert _one(html, "twitter:title") == _one(html, "og:title")
    rule = html.split('<p class="rule">', 1)[1].split("</p>", 1)[0]
    assert _one(html, "og:description").startswith(rule.rsplit("</span>", 1)[1].strip())
    assert _one(html, "og:url") == SITE + url
    # The image is drawn from this plan (selector.wizard.card), in the page's language.
    assert _one(html, "og:image") == SITE + url + "card.png" == _one(html, "twitter:image")
    assert _one(html, "og:image:alt").startswith(heading)
    assert _one(html, "og:locale") == locale
    assert _one(html, "twitter:card") == "summary_large_image"


def test_the_shared_result_s_image_is_its_plan_as_a_png(client, content):
    url = f"/wizard/r/{share_token(ANSWERS)}/card.png"
    zh, en = client.get(url), client.get("/en" + url)
    for response in (zh, en):
        assert response["Content-Type"] == "image/png"
        image = Image.open(io.BytesIO(response.content))
        assert image.size == (1200, 630) and image.format == "PNG"
        assert "public" in response["Cache-Control"]
        assert client.get(response.wsgi_request.path, HTTP_IF_NONE_MATCH=response["ETag"]
                          ).status_code == 304
    assert zh.content != en.content  # each language's words
    other = client.get(f"/wizard/r/{share_token(Answers(gpus=16))}/card.png")
    assert other.content != zh.content  # each plan its own image
    assert client.get("/wizard/r/forged/card.png").status_code == 404


def test_the_card_says_the_plan_s_key_numbers(content):
    with translation.override("en"):
        vm = present(fresh(ANSWERS), id_prefix="card")
        numbers = dict(key_numbers(vm))
    assert numbers["GPUs"] == "1,024"
    assert numbers["Switch model"] == vm.summary.switch_model != ""
    assert numbers["Switches"] == vm.summary.switches_text


@pytest.mark.parametrize("path", ["/", "/en/"])
@override_settings(SITE_URL=SITE)
def test_the_article_has_the_sharing_image(client, content, path):
    (article,) = nodes_of_type(client.get(path).content.decode(), "Article")
    assert article["image"] == {"@type": "ImageObject", "url": IMAGE,
                                "width": 1200, "height": 630}


@pytest.mark.parametrize("path,page", [("/faq/", "常见问题"), ("/en/faq/", "FAQ"),
                                       ("/compare/", "方案对比"), ("/en/compare/", "Comparison")])
@override_settings(SITE_URL=SITE)
def test_breadcrumbs_start_at_the_home_page_and_end_at_the_page(client, content, path, page):
    (trail,) = nodes_of_type(client.get(path).content.decode(), "BreadcrumbList")
    items = trail["itemListElement"]
    home = SITE + ("/en/" if path.startswith("/en/") else "/")
    assert [(i["position"], i["item"]) for i in items] == [(1, home), (2, SITE + path)]
    assert items[1]["name"] == page


@pytest.mark.parametrize("path", ["/", "/en/"])
def test_the_home_page_has_no_trail_of_one(client, content, path):
    assert nodes_of_type(client.get(path).content.decode(), "BreadcrumbList") == []
