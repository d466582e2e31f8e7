import re

import pytest
from django.test import Client

# One answer set per rule (8 GPUs per server), in the order the steps ask them.
RULE_CASES = {
    "R1": {"gpus": "8", "workload": "training", "budget": "balanced",
           "determinism": "standard", "nic_speed": "unsure"},
    "R2": {"gpus": "64", "workload": "training", "budget": "balanced",
           "determinism": "strict", "nic_speed": "400"},
    "R3": {"gpus": "32", "workload": "training", "throughput_limited": "false",
           "budget": "balanced", "determinism": "standard", "nic_speed": "unsure"},
    "R4": {"gpus": "64", "workload": "inference", "budget": "balanced",
           "determinism": "standard", "nic_speed": "400"},
    "R5": {"gpus": "64", "workload": "training", "budget": "performance",
           "determinism": "standard", "nic_speed": "unsure"},
    "R6": {"gpus": "1024", "workload": "training", "budget": "balanced",
           "determinism": "standard", "nic_speed": "unsure"},
    "R7": {"gpus": "64", "workload": "mixed", "budget": "sensitive",
           "determinism": "standard", "nic_speed": "200"},
}
EXPECTED = {"R1": "standard-network", "R2": "infiniband", "R3": "standard-network",
            "R4": "roce-v2-400g", "R5": "infiniband", "R6": "roce-v2-800g",
            "R7": "roce-v2-400g"}


def walk(client: Client, case: dict, gps: str = "8"):
    """Answer every step by POST (no JavaScript); returns the last response."""
    posts = [
        ("scale", {"gpus": case["gpus"], "gpus_per_server": gps}),
        ("workload", {k: case[k] for k in ("workload", "throughput_limited") if k in case}),
        ("budget", {"budget": case["budget"]}),
        ("determinism", {"determinism": case["determinism"]}),
        ("nic-speed", {"nic_speed": case["nic_speed"]}),
    ]
    response = client.get("/en/wizard/")
    for step, data in posts:
        response = client.post(f"/en/wizard/{step}/", data)
        assert response.status_code == 302, (step, response.content[:2000])
    return response


@pytest.fixture
def client_en(content):
    return Client()


@pytest.fixture
def session_of():
    from selector.wizard.models import WizardSession

    def get(client):
        return WizardSession.objects.get(pk=client.session["wizard_session_id"])
    return get


def checked(html: str, name: str) -> list[str]:
    """Values of the checked radios named ``name``."""
    tags = re.findall(r"<input[^>]*>", html)
    return [re.findall(r'value="([^"]*)"', t)[0] for t in tags
            if f'name="{name}"' in t and re.search(r"\schecked[\s>]", t)]


@pytest.fixture
def client_db(db):
    """A client without the content fixture (faster; step pages then show no FAQ)."""
    return Client()


@pytest.fixture
def finished(client_db):
    """A client whose wizard is complete (R3 answers), set up without walking the steps."""
    from selector.wizard.models import WizardSession

    def make(answers=None, client=None):
        client = client or client_db
        ws = WizardSession.objects.create(answers=answers or {
            "gpus": 32, "gpus_per_server": 8, "workload": "training",
            "throughput_limited": False, "budget": "balanced", "determinism": "standard",
            "nic_speed": 400})
        session = client.session
        session["wizard_session_id"] = str(ws.pk)
        session.save()
        return client
    return make
