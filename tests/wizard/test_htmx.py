"""With htmx the same views render only the step region and push the step URL."""

HX = {"HTTP_HX_REQUEST": "true"}


def test_a_step_renders_only_its_region_for_htmx(finished):
    client = finished()
    r = client.get("/en/wizard/budget/", **HX)
    html = r.content.decode()
    assert "<html" not in html and "<form" in html
    assert 'data-step-heading' in html
    assert "HX-Request" in r["Vary"]


def test_a_history_restore_gets_the_whole_page(finished):
    client = finished()
    r = client.get("/en/wizard/budget/", HTTP_HX_HISTORY_RESTORE_REQUEST="true", **HX)
    assert "<html" in r.content.decode()


def test_a_valid_post_renders_the_next_step_and_pushes_its_url(client_db, session_of):
    client_db.get("/en/wizard/")
    r = client_db.post("/en/wizard/scale/", {"gpus": "64", "gpus_per_server": "8"}, **HX)
    assert r.status_code == 200
    assert r["HX-Push-Url"] == "/en/wizard/workload/"
    assert 'name="workload"' in r.content.decode()
    assert session_of(client_db).answers == {"gpus": 64, "gpus_per_server": 8}
    assert session_of(client_db).furthest_step == "workload"


def test_an_invalid_post_renders_the_errors_in_place(client_db, session_of):
    client_db.get("/en/wizard/")
    r = client_db.post("/en/wizard/scale/", {"gpus": "0", "gpus_per_server": "8"}, **HX)
    assert r.status_code == 200  # htmx swaps 2xx only
    html = r.content.decode()
    assert "Enter a number of at least 1." in html
    assert 'aria-invalid="true"' in html and "autofocus" in html
    assert "HX-Push-Url" not in r


def test_inline_validation_uses_the_step_form(client_db, session_of):
    client_db.get("/en/wizard/")
    r = client_db.post("/en/wizard/scale/?validate=gpus",
                       {"gpus": "2000000", "gpus_per_server": "8"}, **HX)
    html = r.content.decode()
    assert "Enter a number of at most 1000000." in html
    assert "<form" not in html
    assert session_of(client_db).answers == {}


def test_inline_validation_updates_the_server_count(client_db):
    client_db.get("/en/wizard/")
    r = client_db.post("/en/wizard/scale/?validate=gpus",
                       {"gpus": "20", "gpus_per_server": "8"}, **HX)
    html = r.content.decode()
    assert 'data-hx-swap-oob="innerHTML:#servers-live"' in html
    assert "= 3 servers" in html


def test_a_skipped_step_renders_the_first_gap_in_place(client_db):
    client_db.get("/en/wizard/")
    r = client_db.get("/en/wizard/nic-speed/", **HX)
    assert r["HX-Push-Url"] == "/en/wizard/scale/"
    assert 'name="gpus"' in r.content.decode()


def test_what_if_updates_the_result_in_place(finished, session_of):
    client = finished()
    r = client.post("/en/wizard/result/", {"throughput_limited": "true"}, **HX)
    assert r.status_code == 200
    assert "<html" not in r.content.decode()
    assert r.context["decision"].rule == "R7"
    assert session_of(client).answers["throughput_limited"] is True
