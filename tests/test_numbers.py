"""One rule for numbers, in the API and the wizard alike: ASCII digits, or the full-width
digits a Chinese input method types (１０２４), with surrounding spaces (ASCII or the
ideographic space). No other script's digits, no sign, no separators, no decimals."""

import pytest
from django.test import Client

from selector.core.forms import parse_whole_number

ACCEPTED = {"1024": 1024, " 64 ": 64, "１０２４": 1024, "\u3000１２\u3000": 12, "0064": 64}
REFUSED = ["١٠٢٤", "۱۰۲۴", "१०२४", "1_000", "+8", "-8", "8.0", "1,024", "1e3", "１,０２４",
           "0x10", "", " ", "²"]


@pytest.mark.parametrize(("raw", "number"), ACCEPTED.items())
def test_the_parser_accepts(raw, number):
    assert parse_whole_number(raw) == number


@pytest.mark.parametrize("raw", REFUSED)
def test_the_parser_refuses(raw):
    assert parse_whole_number(raw) is None


@pytest.mark.parametrize(("raw", "number"), ACCEPTED.items())
def test_the_api_and_the_wizard_accept_the_same_numbers(content, raw, number):
    api = Client().get("/api/recommend", {"gpus": raw, "workload": "training",
                                          "budget": "balanced", "determinism": "standard"})
    assert api.status_code == 200
    assert api.json()["answers"]["gpus"] == number

    wizard = Client()
    wizard.get("/en/wizard/")
    response = wizard.post("/en/wizard/scale/", {"gpus": raw, "gpus_per_server": "８"})
    assert response.status_code == 302
    from selector.wizard.models import WizardSession

    ws = WizardSession.objects.get(pk=wizard.session["wizard_session_id"])
    assert (ws.answers["gpus"], ws.answers["gpus_per_server"]) == (number, 8)


@pytest.mark.parametrize("raw", [r for r in REFUSED if r.strip()])
def test_the_api_and_the_wizard_refuse_the_same_numbers(content, raw):
    api = Client().get("/api/recommend", {"gpus": raw, "workload": "training",
                                          "budget": "balanced", "determinism": "standard"})
    assert api.status_code == 400
    assert "gpus" in api.json()["errors"]
    api = Client().get("/api/fabric", {"gpus": "64", "radix": raw})
    assert api.status_code == 400
    assert "radix" in api.json()["errors"]

    wizard = Client()
    wizard.get("/en/wizard/")
    response = wizard.post("/en/wizard/scale/", {"gpus": raw, "gpus_per_server": "8"},
                           follow=True)  # Post/Redirect/Get to the step with its error
    assert response.status_code == 200
    assert "Enter a whole number" in response.content.decode()
