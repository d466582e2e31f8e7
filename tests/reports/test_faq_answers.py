"""The report's FAQ section answers its questions (issue 26, item 9): in both languages'
PDFs every question printed there is followed by its answer."""

import pytest
from django.utils import translation

from selector.content import queries
from selector.leads.report.render import render_pdf_document
from selector.leads.report.samples import sample_report
from selector.planner.services import fresh

from .conftest import pdf_text, squash

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("language", ["zh-hans", "en"])
@pytest.mark.parametrize("kind", ["roce", "infiniband"])
def test_every_question_of_the_report_comes_with_its_answer(content, language, kind):
    data = sample_report(language, kind)
    text = squash(pdf_text(render_pdf_document(data).content))
    with translation.override(language):
        entries = queries.faq_entries(topics=fresh(data.answers).faq_topics)
        assert entries
        for entry in entries:
            question, answer = squash(entry.question), squash(entry.answer)
            assert question in text, entry.slug
            assert answer in text, entry.slug
            assert text.index(question) < text.index(answer), entry.slug
