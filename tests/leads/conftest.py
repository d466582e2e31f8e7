import time

import pytest
from django.core import signing
from django.utils import timezone

from selector.leads import abuse
from selector.wizard.models import WizardSession

ANSWERS = {"gpus": 256, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
           "determinism": "standard", "throughput_limited": False, "nic_speed": 400}


def started_token(seconds_ago: float = 10.0) -> str:
    return signing.dumps(time.time() - seconds_ago, salt=abuse._STARTED_SALT)


def contact_data(**overrides) -> dict:
    data = {
        "name": "张伟", "company": "深圳算力科技有限公司", "phone": "+86 138-1234-5678",
        "email": "zhang.wei@example.com", "role": "网络架构师", "timeline": "0-3m",
        "wechat": "zhangwei_ai", "message": "请尽快联系。", "consent": "on", "website": "",
        "started": started_token(),
    }
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def make_session(**fields) -> WizardSession:
    defaults = {"answers": dict(ANSWERS), "furthest_step": 6, "result_at": timezone.now(),
                "language": "zh-hans", "landing_url": "/?utm_source=baidu",
                "referrer": "https://www.baidu.com/", "utm_source": "baidu",
                "utm_medium": "cpc", "utm_campaign": "roce-2026"}
    defaults.update(fields)
    return WizardSession.objects.create(**defaults)


def attach(client, ws: WizardSession) -> None:
    session = client.session
    session["wizard_session_id"] = str(ws.pk)
    session.save()


@pytest.fixture
def ws(db):
    return make_session()


@pytest.fixture
def visitor(client, ws, content):
    """A browser whose session finished the wizard."""
    attach(client, ws)
    return client
