"""Browser: the build section of the result (issue 23) on a 390 px phone in Chinese and a
1280 px desktop in English: the estimate says it is an estimate, the failure-domain table
fits its box (or scrolls inside it on the phone), the acceptance plan downloads. Screenshots
of the page and of the section go to artifacts/build/ (git-ignored), and the PDF's pages."""

from __future__ import annotations

import subprocess

import pytest
from django.utils import translation

from selector.core.sharing import share_token
from selector.domain import Answers
from selector.leads.report.render import render_pdf_document
from selector.leads.report.samples import sample_report
from selector.planner.presenter import present
from selector.planner.services import fresh
from tests.browser.test_planner import OVERFLOW_JS, SCROLLING_JS

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

CASES = {"zh-phone": ("zh-hans", "", 390, 844, Answers(64, throughput_limited=True)),
         "en-desktop": ("en", "/en", 1280, 800, Answers(2048, nic_speed=800))}


@pytest.mark.parametrize("case", list(CASES))
def test_the_build_section(new_page, content, artifacts_dir, case):
    language, prefix, width, height, answers = CASES[case]
    with translation.override(language):
        vm = present(fresh(answers))
        label = "估算值，非实测" if language == "zh-hans" else "Estimate, not a measurement"
    page = new_page(width=width, height=height)
    page.goto(f"{prefix}/wizard/r/{share_token(answers)}/")
    shots = artifacts_dir("build")
    page.screenshot(path=str(shots / f"result-{case}.png"), full_page=True)
    section = page.locator("[data-testid=build-part]")
    section.screenshot(path=str(shots / f"build-{case}.png"))
    text = section.inner_text()
    assert label in text
    first = vm.build.performance[0]
    assert first.allreduce in text and first.alltoall in text
    rows = page.locator("table.failure-table tbody tr")
    assert rows.count() == len(vm.build.failures)
    assert page.evaluate(OVERFLOW_JS) == []
    if width >= 1280:
        assert page.evaluate(SCROLLING_JS) == []
    href = page.locator("[data-testid=acceptance-download]").get_attribute("href")
    response = page.request.get(href, headers={"Accept-Language": language})
    assert response.status == 200 and "all_reduce_perf" in response.text()


@pytest.mark.parametrize("language", ["zh-hans", "en"])
def test_the_pdf_appendices(content, artifacts_dir, language):
    pdf = render_pdf_document(sample_report(language, "roce")).content
    shots = artifacts_dir("build")
    path = shots / f"report-{language}.pdf"
    path.write_bytes(pdf)
    subprocess.run(["pdftoppm", "-r", "60", "-png", str(path), str(shots / f"report-{language}")],
                   check=True)
    text = subprocess.run(["pdftotext", "-layout", str(path), "-"], check=True,
                          capture_output=True, text=True).stdout
    if language == "en":
        assert "Estimate, not a measurement" in text and "Failure domains" in text
        assert "Acceptance test plan" in text and "all_reduce_perf" in text
    else:
        assert "估算值，非实测" in text and "故障域" in text and "验收测试方案" in text
