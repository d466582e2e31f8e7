"""Production refuses to start while customers cannot reach anyone (issue 26): Django
deployment checks fail while the company profile has neither a phone number nor an e-mail
(content.E001) and while DEFAULT_FROM_EMAIL is the shipped default (leads.E001);
deploy/serve-prod.sh and docs/deployment.md start through ``check --deploy``."""

import pytest
from django.core import checks
from django.core.management import call_command
from django.core.management.base import SystemCheckError

from selector.content.models import CompanyProfile

CONFIGURED = "Shenhua Tiancheng <report@selector.example.com>"


def deploy_errors() -> set[str]:
    return {m.id for m in checks.run_checks(include_deployment_checks=True)
            if m.level >= checks.ERROR and m.id in {"content.E001", "content.E002",
                                                    "leads.E001"}}


@pytest.fixture
def reachable(content, settings):
    CompanyProfile.objects.update(phone="400-000-0000", email="sales@example.com")
    settings.DEFAULT_FROM_EMAIL = CONFIGURED


def test_the_shipped_profile_and_sender_refuse_a_deployment(content, settings):
    settings.DEFAULT_FROM_EMAIL = "selector@localhost"  # the default of selector/settings.py
    assert deploy_errors() == {"content.E001", "leads.E001"}
    with pytest.raises(SystemCheckError) as refused:
        call_command("check", "--tag", "content", "--tag", "leads", deploy=True,
                     fail_level="ERROR")
    text = str(refused.value)
    assert "content.E001" in text and "no phone number and no e-mail" in text
    assert "Company profile" in text  # the hint says where to fill it in
    assert "leads.E001" in text and "selector@localhost" in text


def test_no_profile_at_all_is_refused_too(db, settings):
    settings.DEFAULT_FROM_EMAIL = CONFIGURED
    assert not CompanyProfile.objects.exists()
    assert deploy_errors() == {"content.E001"}


@pytest.mark.parametrize("channel", [{"phone": "400-000-0000"}, {"email": "sales@example.com"}])
def test_a_phone_or_an_e_mail_is_enough(content, settings, channel):
    settings.DEFAULT_FROM_EMAIL = CONFIGURED
    CompanyProfile.objects.update(**channel)
    assert deploy_errors() == set()


@pytest.mark.parametrize("sender", ["selector@localhost", "webmaster@localhost",
                                    "Selector <selector@LOCALHOST>", "selector"])
def test_a_sender_on_localhost_is_refused(reachable, settings, sender):
    settings.DEFAULT_FROM_EMAIL = sender
    assert deploy_errors() == {"leads.E001"}


def test_a_configured_deployment_starts(reachable):
    assert deploy_errors() == set()
    # Our checks' tags only: Django's own deployment checks judge the test process (its
    # in-memory mail backend, the browser tests' DJANGO_ALLOW_ASYNC_UNSAFE), which .ci/run
    # checks as a deployment.
    call_command("check", "--tag", "content", "--tag", "leads", deploy=True,
                 fail_level="ERROR", verbosity=0)


def test_the_checks_are_deployment_checks_only(content, settings):
    """``manage.py check`` in development (and `make run`) is not refused by them."""
    settings.DEFAULT_FROM_EMAIL = "selector@localhost"
    assert not {m.id for m in checks.run_checks()} & {"content.E001", "leads.E001"}


def test_serve_prod_and_the_deployment_guide_start_through_the_checks():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    script = (root / "deploy" / "serve-prod.sh").read_text()
    check = script.index("manage.py check --deploy --fail-level ERROR")
    assert check < script.index(".venv/bin/gunicorn")
    assert "manage.py check --deploy --fail-level ERROR" in (
        root / "docs" / "deployment.md").read_text()


def test_make_run_prints_which_channels_are_empty(content, settings, capsys):
    from io import StringIO

    settings.DEFAULT_FROM_EMAIL = "selector@localhost"
    out = StringIO()
    call_command("company_channels", stdout=out)
    text = out.getvalue()
    for label in ("empty: hotline", "empty: sales e-mail", "empty: WeChat / WeCom name",
                  "empty: WeChat QR code link", "default: sender DEFAULT_FROM_EMAIL",
                  "Customers cannot reach a person yet"):
        assert label in text, label
    CompanyProfile.objects.update(phone="400-000-0000")
    settings.DEFAULT_FROM_EMAIL = CONFIGURED
    out = StringIO()
    call_command("company_channels", stdout=out)
    text = out.getvalue()
    assert "set:   hotline: 400-000-0000" in text and "empty: sales e-mail" in text
    assert "cannot reach" not in text


def test_make_run_runs_it():
    from pathlib import Path

    makefile = (Path(__file__).resolve().parent.parent / "Makefile").read_text()
    run = makefile[makefile.index("\nrun: install"):]
    run = run[:run.index("\n\n")]
    assert "manage.py company_channels" in run
    assert run.index("company_channels") < run.index("runserver")
