"""Every field's bad values give that field's error (in the page, linked and announced),
never a 500, and nothing is stored."""

import pytest

from tests.wizard.conftest import RULE_CASES, walk

TEN_KB = "9" * 10240
BAD = {
    "gpus": ["", "0", "1000001", "-5", "abc", "1.5", TEN_KB, "6\x004"],
    "gpus_per_server": ["", "0", "17", "eight", TEN_KB, "8\x00"],
    "workload": ["", "mining", "TRAINING", TEN_KB, "training\x00"],
    "budget": ["", "cheap", TEN_KB, "\x00"],
    "determinism": ["", "loose", TEN_KB],
    "throughput_limited": ["", "maybe", "2", TEN_KB, "true\x00"],
    "nic_speed": ["", "100", "400G", "-400", TEN_KB, "400\x00"],
}
STEP_OF = {"gpus": "scale", "gpus_per_server": "scale", "workload": "workload",
           "throughput_limited": "workload", "budget": "budget",
           "determinism": "determinism", "nic_speed": "nic-speed"}
GOOD = {"scale": {"gpus": "32", "gpus_per_server": "8"},
        "workload": {"workload": "training", "throughput_limited": "false"},
        "budget": {"budget": "balanced"}, "determinism": {"determinism": "standard"},
        "nic-speed": {"nic_speed": "400"}}
CASES = [(field, value) for field, values in BAD.items() for value in values]


@pytest.mark.parametrize(("field", "value"), CASES,
                         ids=[f"{f}-{v[:8]!r}" for f, v in CASES])
def test_it_shows_the_field_error(finished, session_of, field, value):
    client_en = finished()
    step = STEP_OF[field]
    before = dict(session_of(client_en).answers)
    data = {**GOOD[step], field: value}
    r = client_en.post(f"/en/wizard/{step}/", data)
    # Post/Redirect/Get: the refused answer comes back on the step's GET, so Back after a
    # later success never lands on a POST.
    assert r.status_code == 303 and r["Location"] == f"/en/wizard/{step}/"
    r = client_en.get(r["Location"])
    assert r.status_code == 200
    form = r.context["form"]
    assert list(form.errors) == [field]
    html = r.content.decode()
    error = str(form.errors[field][0])
    assert error in html
    assert f'id="id_{field}_error" class="field-error" aria-live="polite"><p>' in html
    assert f'aria-describedby="id_{field}_why id_{field}_error"' in html
    assert 'role="alert"' in html
    assert session_of(client_en).answers == before


@pytest.mark.parametrize("lang,message", [("en", "Enter a whole number."),
                                          ("zh-hans", "请输入整数。")])
def test_errors_are_in_the_visitors_language(content, client, lang, message):
    prefix = "/en" if lang == "en" else ""
    client.get(f"{prefix}/wizard/")
    r = client.post(f"{prefix}/wizard/scale/", {"gpus": "many", "gpus_per_server": "8"},
                    follow=True)
    assert message in r.content.decode()


def test_what_if_with_bad_values_is_refused_not_a_500(client_en, session_of):
    walk(client_en, RULE_CASES["R7"])
    before = dict(session_of(client_en).answers)
    for data in ({"gpus": "0"}, {"gpus": TEN_KB}, {"budget": "x\x00"}, {},
                 {"gpus": "8", "budget": "performance"}, {"unknown": "1"}):
        r = client_en.post("/en/wizard/result/", data)
        assert r.status_code == 303 and r["Location"] == "/en/wizard/result/", data
        r = client_en.get(r["Location"])
        assert 'role="alert"' in r.content.decode()
        # Shown once: a reload shows the result without the error.
        assert 'class="field-error" role="alert"' not in client_en.get(
            "/en/wizard/result/").content.decode()
    assert session_of(client_en).answers == before


def test_it_refuses_other_methods(client_en):
    assert client_en.put("/en/wizard/scale/").status_code == 405
    assert client_en.delete("/en/wizard/").status_code == 405  # POST: prefill confirmation


def test_full_width_digits_are_accepted(finished, session_of):
    client = finished()
    client.post("/en/wizard/scale/", {"gpus": "１２", "gpus_per_server": "8"})
    assert session_of(client).answers["gpus"] == 12
