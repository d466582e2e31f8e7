"""Browser: the whole customer journey, as a customer walks it, in Chinese and English, on a
1280×800 desktop and a 360×740 phone, with JavaScript on and off:

landing page with UTM parameters → wizard → result (the report button in view without
scrolling) → contact form with a typo (one error summary, focused), then fixed → thanks
page → Back (no "Confirm Form Resubmission") → the PDF downloaded from the thanks page's
link on the live server's port (not 8000) → the e-mail file holds the report link and the
PDF → the language switched both ways on every page on the way. The lead carries the
landing page's UTM values. A screenshot of every step goes to artifacts/journey/.

A shared result opened in a fresh browser reaches the contact step with the shared answers
(hand-off), and the lead made from it carries them.
"""

from __future__ import annotations

import email
import email.policy
import re
from io import BytesIO
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command
from pypdf import PdfReader

from selector.content.models import CompanyProfile
from selector.core.sharing import share_token
from selector.domain import Answers
from selector.leads.models import Lead

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

UTM = {"utm_source": "baidu", "utm_medium": "cpc", "utm_campaign": "roce-2026q4",
       "utm_term": "roce", "utm_content": "banner-a"}
# Clearly marked examples (tests only), so the screenshots show the contact channels.
EXAMPLE_CHANNELS = {"phone": "400-000-0000", "email": "sales@example.com",
                    "wechat_name_zh": "示例公众号", "wechat_name_en": "Example account",
                    "wechat_qr_url": "https://weixin.qq.com/r/example"}
STEPS = [("scale", {"gpus": "256", "gpus_per_server": "8"}),
         ("workload", {"workload": "training"}),
         ("budget", {"budget": "balanced"}),
         ("determinism", {"determinism": "standard"}),
         ("nic-speed", {"nic_speed": "400"})]
WORDS = {
    "zh": {"html_lang": "zh-Hans", "thanks": "感谢您，", "errors": "提交前请修改",
           "sent": "报告已发送到", "start": "开始网络选型"},
    "en": {"html_lang": "en", "thanks": "Thank you, ", "errors": "Please correct",
           "sent": "We have sent the report to", "start": "Start the network selector"},
}
VIEWPORTS = {"desktop": (1280, 800), "phone": (360, 740)}


@pytest.fixture
def journey_settings(settings, tmp_path):
    call_command("load_content", force=True, verbosity=0)
    CompanyProfile.objects.update(**EXAMPLE_CHANNELS)
    settings.LEAD_MIN_FILL_SECONDS = 0  # the fill-time guard has its own tests
    settings.REPORT_EMAIL_ENABLED = True
    mail_dir = tmp_path / "mail"
    settings.MAILERS = {"default": {
        "BACKEND": "django.core.mail.backends.filebased.EmailBackend",
        "OPTIONS": {"file_path": str(mail_dir)}}}
    return mail_dir


class Journey:
    def __init__(self, page, lang: str, viewport: str, js: bool, shots: Path):
        self.page, self.lang, self.viewport, self.js = page, lang, viewport, js
        self.prefix = "/en" if lang == "en" else ""
        self.shots, self.n = shots, 0

    def path(self) -> str:
        parts = urlsplit(self.page.url)
        return parts.path + (f"?{parts.query}" if parts.query else "")

    def shot(self, name: str) -> None:
        self.n += 1
        mode = "js" if self.js else "nojs"
        self.page.screenshot(path=str(self.shots / f"{self.lang}-{self.viewport}-{mode}-"
                                                    f"{self.n:02d}-{name}.png"),
                             full_page=True)

    def expect_language(self, lang: str) -> None:
        assert self.page.locator("html").get_attribute("lang") == WORDS[lang]["html_lang"]

    def switch_both_ways(self) -> None:
        """中文 → EN → 中文 (or the reverse) from this page: same page, other language."""
        here = self.path()
        other = "zh" if self.lang == "en" else "en"
        there = "/en" + here if self.lang == "zh" else (here[len("/en"):] or "/")
        for target, lang in ((there, other), (here, self.lang)):
            with self.page.expect_navigation():
                self.page.click("a.lang-switch")
            self.page.wait_for_load_state()
            assert self.path() == target, (self.path(), target)
            self.expect_language(lang)

    def report_button_in_view(self) -> None:
        """Without scrolling, a whole report button is inside the viewport (the summary
        card's on a desktop; on a phone it or the sticky bar's)."""
        self.page.evaluate("window.scrollTo(0, 0)")
        width, height = VIEWPORTS[self.viewport]
        selectors = ["[data-testid=report-button]"]
        if self.viewport == "phone":
            selectors.append("[data-testid=report-button-sticky]")
        visible = []
        for selector in selectors:
            box = self.page.locator(selector).bounding_box()
            visible.append(box is not None and box["y"] >= 0 and box["x"] >= 0
                           and box["y"] + box["height"] <= height
                           and box["x"] + box["width"] <= width)
        assert any(visible), (self.viewport, visible)


def _fill_step(page, values: dict) -> None:
    for name, value in values.items():
        if name in ("gpus", "gpus_per_server"):
            page.fill(f"input[name={name}]", value)
        else:
            page.check(f"input[name={name}][value='{value}']")


def _walk(j: Journey, live_server, mail_dir: Path) -> None:
    page = j.page
    query = "&".join(f"{k}={v}" for k, v in UTM.items())
    # 1. Landing page with the campaign's UTM parameters.
    page.goto(f"{j.prefix}/?{query}")
    j.expect_language(j.lang)
    j.shot("landing")
    j.switch_both_ways()
    page.locator("a.btn-cta").first.click()

    # 2. The wizard, step by step (htmx swaps with JavaScript, full pages without).
    for step, values in STEPS:
        page.wait_for_url(f"**{j.prefix}/wizard/{step}/")
        page.locator("h1[data-step-heading]").wait_for()
        j.shot(step)
        j.switch_both_ways()
        _fill_step(page, values)
        page.click(".wizard-form button[type=submit]")

    # 3. The result: the report button is in view without scrolling.
    page.wait_for_url(f"**{j.prefix}/wizard/result/")
    page.locator("[data-testid=result-summary]").wait_for()
    j.report_button_in_view()
    j.shot("result")
    j.switch_both_ways()
    j.report_button_in_view()
    page.click("[data-testid=report-button]")

    # 4. The contact form, first with a typo in the phone number.
    page.wait_for_url(f"**{j.prefix}/contact/")
    j.switch_both_ways()
    j.shot("contact")
    page.fill("input[name=name]", "李雷" if j.lang == "zh" else "Li Lei")
    page.fill("input[name=company]", "深圳星河智算科技有限公司")
    page.fill("input[name=phone]", "138 1234 567")  # one digit short
    page.fill("input[name=email]", "buyer@example.com")
    page.check("input[name=consent]")
    page.click(".lead-form button[type=submit]")
    page.wait_for_url(f"**{j.prefix}/contact/")
    summary = page.locator("[data-testid=error-summary]")
    summary.wait_for()
    assert WORDS[j.lang]["errors"] in summary.inner_text()
    # Focus is on the summary (autofocus: with and without JavaScript); its link leads to
    # the field, whose own message sits beside it.
    page.wait_for_function("() => document.activeElement && "
                           "document.activeElement.id === 'error-summary'")
    assert page.locator("#id_phone_error").is_visible()
    assert page.locator("input[name=phone]").get_attribute("aria-invalid") == "true"
    assert page.locator("input[name=name]").input_value()  # nothing typed is lost
    j.shot("contact-typo")
    page.fill("input[name=phone]", "138 1234 5678")
    if not page.locator("input[name=consent]").is_checked():
        page.check("input[name=consent]")
    page.click(".lead-form button[type=submit]")

    # 5. Thanks: the report went by e-mail, the PDF link is here.
    page.wait_for_url(f"**{j.prefix}/contact/thanks/")
    assert WORDS[j.lang]["thanks"] in page.locator("h1").inner_text()
    assert WORDS[j.lang]["sent"] in page.locator("[data-testid=email-status]").inner_text()
    j.shot("thanks")

    # 6. Back: the contact step again would be a resubmission; Post/Redirect/Get makes it a
    # plain page (the submitted form sends the visitor back to the thanks page).
    page.go_back()
    page.wait_for_url(re.compile(r"/contact/(thanks/)?$"))
    page.wait_for_load_state()
    assert "ERR_CACHE_MISS" not in page.content()
    assert page.locator("h1").count() == 1
    if not page.url.endswith("/thanks/"):
        page.wait_for_url(f"**{j.prefix}/contact/thanks/")
    j.shot("back")
    j.switch_both_ways()

    # 7. The PDF from the thanks page's link, on the live server's (non-default) port.
    link = page.locator("[data-testid=report-link]")
    href = link.get_attribute("href")
    assert href.startswith(f"{j.prefix}/report/")  # relative: it follows host and port
    with page.expect_download() as download:
        link.click()
    pdf = Path(download.value.path()).read_bytes()
    assert urlsplit(download.value.url).port == urlsplit(live_server.url).port != 8000
    lead = Lead.objects.get()
    assert pdf.startswith(b"%PDF-")
    first_page = "".join(PdfReader(BytesIO(pdf)).pages[0].extract_text().split())
    assert lead.report_number in first_page

    # 8. The e-mail (EMAIL_BACKEND=file): the signed report link and the PDF attached.
    (mail_file,) = [f for f in mail_dir.iterdir()]
    message = email.message_from_bytes(mail_file.read_bytes(), policy=email.policy.default)
    assert message["To"] == "buyer@example.com"
    parts = {p.get_content_type(): p for p in message.walk()}
    text = parts["text/plain"].get_content()
    found = re.search(r"(http://\S+/report/\S+/)", text)
    assert found, text
    report_link = found.group(1)
    assert report_link.startswith(live_server.url)
    assert parts["application/pdf"].get_content().startswith(b"%PDF-")
    assert page.request.get(report_link).body().startswith(b"%PDF-")

    # 9. Attribution: the lead carries the landing page's UTM values.
    assert {k: getattr(lead, k) for k in UTM} == UTM
    assert lead.landing_url == f"{j.prefix}/?{query}"
    assert lead.language == ("en" if j.lang == "en" else "zh-hans")
    assert lead.phone == "+8613812345678"


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
@pytest.mark.parametrize("viewport", sorted(VIEWPORTS))
@pytest.mark.parametrize("lang", ["zh", "en"])
def test_the_whole_journey(new_page, live_server, artifacts_dir, journey_settings,
                           lang, viewport, js):
    width, height = VIEWPORTS[viewport]
    page = new_page(js=js, width=width, height=height)
    page.set_default_timeout(30_000)  # a loaded 2-core machine renders PDFs slowly
    journey = Journey(page, lang, viewport, js, artifacts_dir("journey"))
    _walk(journey, live_server, journey_settings)


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_a_shared_result_hands_off_to_the_contact_step(new_page, live_server, artifacts_dir,
                                                       journey_settings, js):
    shared = Answers(gpus=1024, gpus_per_server=8, workload="training", budget="balanced",
                     determinism="standard", nic_speed=400)
    colleague = new_page(js=js, width=360, height=740)  # a fresh context: no session
    colleague.goto(f"/wizard/r/{share_token(shared)}/")
    colleague.locator("[data-testid=result-summary]").wait_for()
    colleague.screenshot(path=str(artifacts_dir("journey") / f"handoff-{js}-shared.png"),
                         full_page=True)
    colleague.click("[data-testid=report-button]")
    colleague.wait_for_url("**/contact/")
    assert "1024" in colleague.locator("main").inner_text()
    colleague.screenshot(path=str(artifacts_dir("journey") / f"handoff-{js}-contact.png"),
                         full_page=True)
    colleague.fill("input[name=name]", "韩梅梅")
    colleague.fill("input[name=company]", "深圳星河智算科技有限公司")
    colleague.fill("input[name=wechat]", "hanmeimei_ai")  # WeChat instead of a phone
    colleague.check("input[name=consent]")
    colleague.click(".lead-form button[type=submit]")
    colleague.wait_for_url("**/contact/thanks/")
    lead = Lead.objects.get()
    assert lead.answers == shared.to_dict()
    assert lead.recommendation == "roce-v2-800g"
    assert (lead.wechat, lead.phone, lead.email) == ("hanmeimei_ai", "", "")
    assert "您没有留下邮箱" in colleague.locator("[data-testid=email-status]").inner_text()


@pytest.mark.parametrize("js", [True, False], ids=["js", "nojs"])
def test_the_language_switch_on_every_public_page(new_page, journey_settings, artifacts_dir, js):
    """The public pages the journey does not pass through: both directions, same page."""
    page = new_page(js=js, width=360, height=740)
    for path in ("/faq/", "/compare/", "/privacy/"):
        page.goto(path)
        journey = Journey(page, "zh", "phone", js, artifacts_dir("journey"))
        journey.switch_both_ways()
        page.goto("/en" + path)
        journey = Journey(page, "en", "phone", js, artifacts_dir("journey"))
        journey.switch_both_ways()
