import uuid
from datetime import UTC, datetime
from io import BytesIO

import pytest
from pypdf import PdfReader

from selector.leads.models import Lead
from selector.reports.samples import SAMPLE_ANSWERS


@pytest.fixture
def make_lead(db, content):
    def make(**fields):
        values = dict(
            report_number=f"NS-20261130-{uuid.uuid4().hex[:6].upper()}",
            name="王建国", company="深圳星河智算科技有限公司", phone="+8613800138000",
            email="wang@example.com", role="CTO", timeline="0-3m", language="zh-hans",
            answers=dict(SAMPLE_ANSWERS["roce"]), recommendation="roce-v2-400g", rule="R7",
            engine_version="test", score="hot", consent_given_at=datetime.now(UTC),
            consent_notice_version="1",
        )
        values.update(fields)
        return Lead.objects.create(**values)

    return make


def pdf_text(pdf: bytes) -> str:
    reader = PdfReader(BytesIO(pdf))
    return "\n".join(page.extract_text() or "" for page in reader.pages)


def squash(text: str) -> str:
    """Text without any white space, so wrapped lines still match."""
    return "".join(text.split())
