"""Browser: the build downloads on the shared result, in Chinese and English, desktop and
phone: the links download the cabling plan (its header and one row per link) and the zip;
nothing is wider than the screen. Screenshots of the downloads block go to
artifacts/build/ (git-ignored)."""

from __future__ import annotations

import zipfile

import pytest

from selector.core.sharing import share_token
from selector.domain import Answers
from selector.planner.services import fresh

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]
LANGUAGES = {"zh": ("zh-hans", ""), "en": ("en", "/en")}
VIEWPORTS = {"desktop": (1280, 800), "phone": (360, 740)}
OVERFLOW_JS = """() => document.documentElement.scrollWidth > window.innerWidth + 1
  || [...document.querySelectorAll('[data-testid=build-downloads] *')]
     .some(e => e.getBoundingClientRect().right > window.innerWidth + 1)"""
ANSWERS = Answers(1024, nic_speed=400, throughput_limited=True)
HEADER = "a_device,a_port,b_device,b_port,tier,plane,part_a,part_b,reach_m,label"


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("viewport", list(VIEWPORTS))
def test_the_downloads_block_downloads_the_plan(new_page, content, artifacts_dir, lang,
                                                viewport, tmp_path):
    _language, prefix = LANGUAGES[lang]
    width, height = VIEWPORTS[viewport]
    page = new_page(width=width, height=height)
    page.goto(f"{prefix}/wizard/r/{share_token(ANSWERS)}/")
    block = page.locator("[data-testid=build-downloads]")
    block.scroll_into_view_if_needed()
    block.screenshot(path=str(artifacts_dir("build") / f"downloads-{lang}-{viewport}.png"))
    text = block.inner_text()
    assert ("条链路" in text) == (lang == "zh")
    assert not page.evaluate(OVERFLOW_JS)
    plan = fresh(ANSWERS).recommended.plan
    with page.expect_download() as info:
        page.locator("[data-testid=cabling-csv]").click()
    path = tmp_path / "cabling.csv"
    info.value.save_as(path)
    lines = path.read_text(encoding="utf-8-sig").splitlines()
    assert lines[0] == HEADER and len(lines) - 1 == sum(plan.links.values())
    with page.expect_download() as info:
        page.locator("[data-testid=configs-zip]").click()
    path = tmp_path / "configs.zip"
    info.value.save_as(path)
    assert len(zipfile.ZipFile(path).namelist()) == plan.switches + 1
