import time

import pytest
from django.utils import timezone

from selector.leads import abuse
from selector.wizard.models import WizardSession

ANSWERS = {"gpus": 256, "gpus_per_server": 8, "workload": "training", "budget": "balanced",
           "determinism": "standard", "throughput_limited": False, "nic_speed": 400}


def started_token(client, seconds_ago: float = 10.0) -> str:
    """The contact form's start stamp as the contact page would have issued it to this
    client's wizard session ``seconds_ago`` (see abuse.form_started_token)."""
    return abuse.form_started_token(client.session["wizard_session_id"],
                                    now=time.time() - seconds_ago)


def contact_data(client=None, **overrides) -> dict:
    """The contact form's fields; with ``client``, a start stamp issued to its session."""
    data = {
        "name": "张伟", "company": "深圳算力科技有限公司", "phone": "+86 138-1234-5678",
        "email": "zhang.wei@example.com", "role": "网络架构师", "timeline": "0-3m",
        "wechat": "zhangwei_ai", "message": "请尽快联系。", "consent": "on", "website": "",
    }
    if client is not None and "started" not in overrides:
        data["started"] = started_token(client)
    data.update(overrides)
    return {k: v for k, v in data.items() if v is not None}


def make_session(**fields) -> WizardSession:
    defaults = {"answers": dict(ANSWERS), "furthest_step": "result", "result_at": timezone.now(),
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
