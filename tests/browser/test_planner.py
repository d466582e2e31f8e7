"""Browser: the plan an architect reads, for a small (64), a thousand-GPU (1,024) and a huge
(100,000) cluster, in Chinese and English, on a 1280 px desktop and a 360 px phone: the
summary's numbers are the plan's, nothing is wider than the screen, every table fits its
box or scrolls inside it. Screenshots of the result page (whole page and each planner
section) and of every page of the PDF report go to artifacts/planner/ (git-ignored)."""

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

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SIZES = {64: Answers(64, throughput_limited=True), 1024: Answers(1024, nic_speed=400),
         100_000: Answers(100_000)}
LANGUAGES = {"zh": ("zh-hans", ""), "en": ("en", "/en")}
VIEWPORTS = {"desktop": (1280, 800), "phone": (360, 740)}
SECTIONS = {"fabric": "#fabric-heading", "bom": "#bom-heading", "tuning": "#tuning-heading",
            "sources": "#sources-heading"}

# Elements wider than their box: the page itself, and any table that is not inside a
# horizontally scrolling wrapper.
OVERFLOW_JS = """() => {
  const out = [];
  const doc = document.documentElement;
  if (doc.scrollWidth > window.innerWidth + 1) out.push('page ' + doc.scrollWidth);
  for (const t of document.querySelectorAll('main table')) {
    const box = t.parentElement;
    const scrolls = getComputedStyle(box).overflowX === 'auto';
    if (!scrolls && t.scrollWidth > box.clientWidth + 1)
      out.push((t.className || 'table') + ' ' + t.scrollWidth + '>' + box.clientWidth);
  }
  return out;
}"""
# Tables that need a sideways scroll to be read on this viewport.
SCROLLING_JS = """() => [...document.querySelectorAll('main .table-scroll')]
  .filter(b => b.scrollWidth > b.clientWidth + 1)
  .map(b => (b.querySelector('table') || b).className)"""


@pytest.mark.parametrize("gpus", list(SIZES))
@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_result_page_of_a_plan(new_page, content, artifacts_dir, gpus, lang, viewport):
    answers = SIZES[gpus]
    language, prefix = LANGUAGES[lang]
    width, height = VIEWPORTS[viewport]
    with translation.override(language):
        vm = present(fresh(answers))
    page = new_page(width=width, height=height)
    page.goto(f"{prefix}/wizard/r/{share_token(answers)}/")
    shots = artifacts_dir("planner")
    name = f"result-{gpus}-{lang}-{viewport}"
    page.screenshot(path=str(shots / f"{name}.png"), full_page=True)
    for section, heading in SECTIONS.items():
        block = page.locator(heading).locator("xpath=ancestor::section[1]")
        if block.count():
            block.screenshot(path=str(shots / f"{name}-{section}.png"))
    summary = page.locator("[data-testid=result-summary]").inner_text()
    assert vm.summary.switches_text in summary, summary
    assert vm.summary.fabric_label in page.locator("h1").inner_text()
    body = page.locator("main").inner_text()
    for view in vm.fabrics:
        if view.plan is not None:
            assert f"{view.plan.switches:,}" in body
            for row in view.bom:
                assert row.item in body
    assert "—" not in page.locator("table.fabric-table").inner_text().replace("— ", "")
    assert page.evaluate(OVERFLOW_JS) == []
    if viewport == "desktop":
        assert page.evaluate(SCROLLING_JS) == [], "a desktop reader scrolls no table sideways"


@pytest.mark.parametrize("gpus", list(SIZES))
@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_the_pdf_of_a_plan(content, artifacts_dir, gpus, lang):
    """The report for these plans: the plan's switch counts are printed; one PNG per page
    for the reader of artifacts/planner/."""
    from tests.reports.conftest import pdf_text, squash

    answers = SIZES[gpus]
    language, _prefix = LANGUAGES[lang]
    rendered = render_pdf_document(sample_report(language, "roce", answers=answers))
    text = squash(pdf_text(rendered.content))
    rec = fresh(answers)
    for option in (rec.recommended, rec.runner_up):
        if option.plan is not None:
            assert squash(f"{option.plan.switches:,}") in text
    shots = artifacts_dir("planner")
    pdf = shots / f"report-{gpus}-{lang}.pdf"
    pdf.write_bytes(rendered.content)
    for old in shots.glob(f"report-{gpus}-{lang}-*.png"):
        old.unlink()
    subprocess.run(["pdftoppm", "-r", "70", "-png", str(pdf), str(pdf.with_suffix(""))],
                   check=True)
