"""The steps' progress list is kept as markup by the process and the shared cache
(``{% memocache %}`` in wizard/_step_frame_top.html, keyed by views._progress_key and the
language), and so are each step's "why we ask" box (_step_frame_bottom.html) and the
head's links, the header and the footer every page shares (base.html), keyed by
``site_version``. Kept markup must be the markup the page would draw: checked at every
step of every walk, in both languages, against a render with nothing kept."""

import re

import pytest
from django.core.cache import cache
from django.test import Client

from selector.core.templatetags import fragments
from selector.wizard.models import WizardSession

pytestmark = pytest.mark.django_db

ANSWERS: list[tuple[str, dict[str, object]]] = [("scale", {"gpus": 64, "gpus_per_server": 8}),
           ("workload", {"workload": "training"}),
           ("budget", {"budget": "balanced"}),
           ("determinism", {"determinism": "standard"}),
           ("nic-speed", {"nic_speed": 400})]
WALK = [step for step, _ in ANSWERS]


def _client(answered: int) -> Client:
    client = Client()
    answers: dict = {}
    for _step, data in ANSWERS[:answered]:
        answers.update(data)
    ws = WizardSession.objects.create(answers=answers)
    session = client.session
    session["wizard_session_id"] = str(ws.pk)
    session.save()
    return client


def _parts(html: str) -> dict[str, str]:
    found = {name: re.search(pattern, html, re.S) for name, pattern in {
        "progress": r'<nav class="wizard-progress".*?</nav>',
        "head": r'<head>.*?</head>',
        "header": r'<header class="site-header">.*?</header>',
        "footer": r'<footer class="site-footer">.*?</footer>',
        "why": r'<aside class="wizard-why".*?</aside>'}.items()}
    return {name: match.group(0) for name, match in found.items() if match}


def _forget() -> None:
    fragments.forget()
    cache.clear()


@pytest.mark.parametrize("prefix", ["", "/en"])
def test_kept_progress_header_and_footer_are_what_the_page_draws(content, prefix):
    """Every visitor at every step they may open (each step answered so far, or fewer):
    first each page drawn with nothing kept, then all of them again with whatever the
    pages before kept, so a key that missed a difference shows as a page that differs."""
    cases = [(answered, at) for answered in range(len(WALK)) for at in range(answered + 1)]
    clients = {answered: _client(answered) for answered in range(len(WALK))}

    def page(answered: int, at: int) -> dict[str, str]:
        url = f"{prefix}/wizard/{WALK[at]}/"
        return _parts(clients[answered].get(url).content.decode())

    drawn = {}
    for case in cases:
        _forget()
        drawn[case] = page(*case)
    kept = {case: page(*case) for case in cases}
    assert kept == drawn
    for (answered, at), parts in drawn.items():
        assert {"progress", "head", "header", "footer"} <= set(parts)
        progress = parts["progress"]
        assert progress.count('aria-current="step"') == 1
        # Answered steps other than this one are links back; the rest are not.
        links = re.findall(r'href="[^"]*/wizard/([a-z-]+)/"', progress)
        assert links == [s for i, s in enumerate(WALK[:answered]) if i != at], (answered, at)


def test_the_language_and_an_edit_of_the_company_change_the_kept_markup(content):
    from selector.content.models import CompanyProfile

    client = _client(1)
    zh = _parts(client.get("/wizard/workload/").content.decode())
    en = _parts(client.get("/en/wizard/workload/").content.decode())
    assert "第 2 步" in zh["progress"] and "Step 2 of" in en["progress"]
    assert "常见问题" in zh["header"] and "FAQ" in en["header"]
    CompanyProfile.objects.update(name_zh="深华天成（改）", short_name_zh="深华（改）")
    again = _parts(client.get("/wizard/workload/").content.decode())
    assert "深华天成（改）" in again["footer"] and "深华（改）" in again["header"]


def test_a_faq_edit_changes_the_kept_why_box(content):
    from selector.content.models import FaqEntry

    client = _client(1)
    why = _parts(client.get("/en/wizard/workload/").content.decode())["why"]
    entry = next(e for e in FaqEntry.objects.all() if e.question_en in why)
    FaqEntry.objects.filter(pk=entry.pk).update(question_en="Why lossless, really?")
    again = _parts(client.get("/en/wizard/workload/").content.decode())["why"]
    assert "Why lossless, really?" in again and entry.question_en not in again
