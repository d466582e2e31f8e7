"""Chinese copy a Chinese network buyer would publish: render the Chinese pages, the
customer's e-mail and the PDF, and fail on half-width punctuation next to a Chinese
character, on a glossary variant (docs/glossary.md) and on an English sentence in
Chinese text (cited document titles aside: marked lang="en" or <cite>)."""

from __future__ import annotations

import os
import re
from html.parser import HTMLParser

import pytest
from django.core import mail
from django.test import Client

from selector.content.models import CompanyProfile
from selector.core.sharing import share_token
from selector.domain import Answers
from selector.leads.models import Lead
from selector.leads.report.render import pdf_sources, render_pdf_document
from selector.leads.report.samples import SAMPLE_ANSWERS, sample_report
from selector.public.errors import error_response
from tests.glossary_terms import VARIANTS
from tests.leads.conftest import attach, contact_data, make_session
from tests.reports.conftest import pdf_text
from tests.wizard.conftest import RULE_CASES

CJK = r"[\u3400-\u9fff\uf900-\ufaff]"
HALF_WIDTH = re.compile(
    rf"(?:{CJK}[:,;()!?]|[:,;()!?]{CJK}|{CJK}\s[:,;]|[:,;]\s{CJK}|[(]\s*{CJK})")
# Four or more English words in a row, ending like a sentence or not: "Starting values
# for RoCE" would be caught, "RoCE v2 400G" (product names, units) would not.
ENGLISH_RUN = re.compile(r"\b[A-Za-z][A-Za-z0-9]*(?:[ ,'-]+[A-Za-z][A-Za-z0-9]*){3,}\b")
PROSE_WORD = re.compile(r"^[A-Za-z][a-z]+$")
# Words that are names, not English prose, in a Chinese sentence.
NAMES = {"RoCE", "InfiniBand", "Ethernet", "Spectrum", "Quantum", "Tomahawk", "Broadcom",
         "NVIDIA", "Mellanox", "Cumulus", "Linux", "SONiC", "Huawei", "CloudEngine", "Leaf",
         "Spine", "Headroom"}
SKIP_TAGS = {"script", "style", "svg", "code", "pre", "cite", "title"}


class _Text(HTMLParser):
    """Visible text (and alt/aria-label/placeholder), without lang="en" elements."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.stack: list[tuple[str, bool]] = []

    def _skipping(self) -> bool:
        return any(skip for _tag, skip in self.stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        skip = (tag in SKIP_TAGS or (attrs.get("lang") or "").lower().startswith("en")
                or "config" in (attrs.get("class") or "").split())  # configuration lines
        if tag not in {"br", "img", "input", "meta", "link", "hr", "source", "wbr"}:
            self.stack.append((tag, skip))
        if not self._skipping() and not skip:
            for name in ("alt", "aria-label", "placeholder", "title"):
                if attrs.get(name):
                    self.parts.append(attrs[name])
            if tag == "meta" and attrs.get("name") == "description":
                self.parts.append(attrs.get("content") or "")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)
        if self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag):
        for index in range(len(self.stack) - 1, -1, -1):
            if self.stack[index][0] == tag:
                del self.stack[index:]
                break

    def handle_data(self, data):
        if not self._skipping():
            self.parts.append(data)


def visible_text(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return [" ".join(p.split()) for p in parser.parts if p.strip()]


URL = re.compile(r"(?:https?://|www\.)\S+|\b[\w.-]+\.(?:com|cn|org|net|io)(?:/\S*)?")


def problems(texts: list[str], where: str) -> list[str]:
    found = []
    for text in texts:
        text = URL.sub(" ", text)  # addresses are not prose
        for match in HALF_WIDTH.finditer(text):
            found.append(f"{where}: half-width punctuation {match.group(0)!r} in {text[:80]!r}")
        for variant, use in VARIANTS:
            if variant in text:
                found.append(f"{where}: {variant!r} (use {use!r}) in {text[:80]!r}")
        if re.search(CJK, text) or len(text) > 40:
            for match in ENGLISH_RUN.finditer(text):
                words = re.findall(r"[A-Za-z][A-Za-z0-9]*", match.group(0))
                if sum(bool(PROSE_WORD.match(w)) and w not in NAMES for w in words) >= 4:
                    found.append(f"{where}: English sentence {match.group(0)!r}")
    return found


def check_html(html: str, where: str) -> list[str]:
    found = problems(visible_text(html), where)
    if os.environ.get("CHINESE_COPY_DUMP"):  # list every finding while fixing copy
        print("\n".join(found))
    return found


EXAMPLE_CHANNELS = {"phone": "400-000-0000", "email": "sales@example.com",
                    "wechat_name_zh": "示例公众号", "wechat_qr_url": "https://weixin.qq.com/r/x",
                    # "Talk to an engineer" on the result and thank-you pages (issue 26).
                    "wecom_link": "https://work.weixin.qq.com/ca/cawcde0123456789"}


@pytest.fixture
def channels(content):
    CompanyProfile.objects.update(**EXAMPLE_CHANNELS)


def _walk_zh(client: Client, case: dict) -> None:
    client.get("/wizard/")
    client.post("/wizard/scale/", {"gpus": case["gpus"], "gpus_per_server": "8"})
    client.post("/wizard/workload/", {k: case[k] for k in ("workload", "throughput_limited")
                                      if k in case})
    client.post("/wizard/budget/", {"budget": case["budget"]})
    client.post("/wizard/determinism/", {"determinism": case["determinism"]})
    client.post("/wizard/nic-speed/", {"nic_speed": case["nic_speed"]})


def test_the_checker_catches_what_it_must():
    bad = ('<p>规则 R7: 多机</p><p>备选方案:InfiniBand</p><p>成本(本公司估算)</p>'
           '<p>共 4096 个 GPU</p><p>20 µs 往返</p>'
           '<p>中文里 Starting values for RoCE v2 at 400G 英文</p>')
    found = check_html(bad, "sample")
    assert any("'7:'" in f or "7: " in f or ": 多" in f for f in found), found
    assert any("':I'" in f or "案:" in f for f in found), found
    assert any("本(" in f or "'本('" in f for f in found), found
    assert any("个 GPU" in f for f in found) and any("µs" in f for f in found)
    assert any("Starting values for" in f for f in found), found
    # Cited titles and names are fine.
    good = ('<p>参考：<cite>RDMA over Commodity Ethernet at Scale</cite></p>'
            '<p lang="en">NVIDIA Cumulus Linux, RDMA over Converged Ethernet</p>'
            '<p>RoCE v2 无损以太网（400G）：256 张 GPU</p>')
    assert check_html(good, "good") == []


@pytest.mark.parametrize("path", ["/", "/faq/", "/compare/", "/privacy/"])
def test_public_pages(client, channels, path):
    assert check_html(client.get(path).content.decode(), path) == []


def test_wizard_steps_and_errors(client, channels):
    client.get("/wizard/")
    found = check_html(client.get("/wizard/scale/").content.decode(), "scale")
    found += check_html(client.post("/wizard/scale/", {"gpus": "x", "gpus_per_server": "8"},
                                    follow=True).content.decode(), "scale error")
    case = RULE_CASES["R3"]
    client.post("/wizard/scale/", {"gpus": case["gpus"], "gpus_per_server": "8"})
    for step in ("workload", "budget", "determinism", "nic-speed"):
        found += check_html(client.get(f"/wizard/{step}/").content.decode(), step)
    assert found == []


@pytest.mark.parametrize("rule", sorted(RULE_CASES))
def test_result_pages(client, channels, rule):
    _walk_zh(client, RULE_CASES[rule])
    html = client.get("/wizard/result/").content.decode()
    assert "规则" in html
    assert check_html(html, f"result {rule}") == []
    # Each what-if preview it offers (issue 26, finding 4) reads in Chinese too.
    previews = re.findall(r'class="what-if-btn" href="([^"]+)"', html)
    for url in previews:
        page = client.get(url.replace("&amp;", "&")).content.decode()
        assert "假设预览" in page and "采用这些答案" in page
        assert check_html(page, f"what-if {url}") == []


def test_shared_result_contact_thanks_and_429(client, channels, settings):
    token = share_token(Answers(gpus=1024))
    found = check_html(client.get(f"/wizard/r/{token}/").content.decode(), "shared")
    attach(client, make_session())
    found += check_html(client.get("/contact/").content.decode(), "contact")
    found += check_html(client.post("/contact/", contact_data(client, email="bad", phone="1"),
                                    follow=True).content.decode(), "contact errors")
    client.post("/contact/", contact_data(client))
    found += check_html(client.get("/contact/thanks/").content.decode(), "thanks")
    settings.LEAD_RATE_LIMIT = 1
    attach(client, make_session())
    client.post("/contact/", contact_data(client))
    attach(client, make_session())
    found += check_html(client.post("/contact/", contact_data(client)).content.decode(), "429")
    assert found == []


@pytest.mark.parametrize("status", [400, 403, 404, 429, 500, 503])
def test_error_pages(channels, status):
    assert check_html(error_response(None, status).content.decode(), f"error {status}") == []


def test_the_customer_email(client, channels, settings, django_capture_on_commit_callbacks):
    settings.REPORT_EMAIL_ENABLED = True
    settings.MAILERS = {"default": {"BACKEND": "django.core.mail.backends.locmem.EmailBackend",
                                    "OPTIONS": {}}}
    attach(client, make_session())
    with django_capture_on_commit_callbacks(execute=True):
        client.post("/contact/", contact_data(client))
    (message,) = [m for m in mail.outbox if m.to == ["zhang.wei@example.com"]]
    found = problems([message.subject, *message.body.splitlines()], "e-mail text")
    found += check_html(message.alternatives[0].content, "e-mail html")
    assert Lead.objects.count() == 1
    assert found == []


@pytest.mark.parametrize("kind", sorted(SAMPLE_ANSWERS))
def test_the_pdf(channels, kind):
    data = sample_report("zh-hans", kind)
    html, _attachment = pdf_sources(data)
    found = check_html(html, f"pdf {kind}")
    text = pdf_text(render_pdf_document(data).content)
    found += [f for f in problems(text.splitlines(), f"pdf text {kind}")
              if "half-width" in f or "use" in f]
    assert found == []


def test_the_checker_is_not_blind_on_real_pages(client, channels):
    """The same checker on the English page (its lang attribute taken away) finds English
    sentences: it reads the page's text, and only lang="en" parts are set aside."""
    html = client.get("/en/").content.decode().replace('<html lang="en">', "<html>", 1)
    found = check_html(html, "/en/")
    assert any("English sentence" in f for f in found)


def test_what_if_sentences_read_like_a_person_wrote_them(client, channels):
    _walk_zh(client, RULE_CASES["R3"])  # 32 GPUs, throughput not limited
    html = client.get("/wizard/result/").content.decode()
    assert "如果当前训练吞吐受限：" in html
    assert "为 是" not in html and "为 否" not in html and "为是" not in html
    client.post("/wizard/result/", {"gpus": "1024"})
    html = client.get("/en/wizard/result/").content.decode()
    assert "If training throughput were" not in html or "were limited today" in html
    assert "If Training throughput limited today were" not in html


def test_an_inference_pods_result_page(client, channels):
    """Issue 22 finding 12: the pods note and the inference reason, in Chinese."""
    token = share_token(Answers(gpus=100_000, workload="inference"))
    html = client.get(f"/wizard/r/{token}/").content.decode()
    assert "独立分区" in html
    assert check_html(html, "inference pods") == []


def test_a_dgx_result_page_and_the_platform_question(client, channels):
    """Issue 22 finding 7: the platform answer, the twin-port note, in Chinese."""
    token = share_token(Answers(gpus=256, platform="dgx", determinism="strict"))
    html = client.get(f"/wizard/r/{token}/").content.decode()
    assert "双端口 OSFP 光模块" in html and "服务器平台" in html
    assert check_html(html, "dgx result") == []
    _walk_zh(client, RULE_CASES["R6"])
    step = client.get("/wizard/nic-speed/").content.decode()
    assert "BlueField-3 SuperNIC（QSFP112）" in step
    assert check_html(step, "nic-speed step") == []
