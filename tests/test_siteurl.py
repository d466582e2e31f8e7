"""Links work on the host and port the site is served from: SITE_URL in production (and
required there); in development, without SITE_URL, absolute URLs follow the request."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.test import override_settings

from tests.leads.conftest import attach, contact_data, make_session

ROOT = Path(__file__).resolve().parent.parent
DEV_HOST = "127.0.0.1:9000"
follows_request = override_settings(SITE_URL="", ALLOWED_HOSTS=["testserver", "127.0.0.1"])


def _settings_with(env: dict) -> subprocess.CompletedProcess:
    base = {k: v for k, v in os.environ.items()
            if k not in {"SITE_URL", "DEBUG", "DJANGO_SETTINGS_MODULE"}}
    return subprocess.run(
        [sys.executable, "-c", "import selector.settings as s; print(repr(s.SITE_URL))"],
        env={**base, "SECRET_KEY": "x" * 50, **env}, cwd=ROOT, capture_output=True, text=True)


def test_production_refuses_to_start_without_site_url():
    result = _settings_with({"DEBUG": "0"})
    assert result.returncode != 0
    assert "SITE_URL must be set when DEBUG is off" in result.stderr


def test_development_may_leave_it_unset_and_production_takes_it_without_a_slash():
    assert _settings_with({"DEBUG": "1"}).stdout.strip() == "''"
    prod = _settings_with({"DEBUG": "0", "SITE_URL": "https://selector.example.com/"})
    assert prod.stdout.strip() == "'https://selector.example.com'"


@follows_request
@pytest.mark.parametrize("path", ["/", "/en/faq/", "/compare/"])
def test_canonical_hreflang_and_json_ld_follow_the_request(client, content, path):
    html = client.get(path, HTTP_HOST=DEV_HOST).content.decode()
    assert f'<link rel="canonical" href="http://{DEV_HOST}{path}">' in html
    assert f'hreflang="en" href="http://{DEV_HOST}/en/' in html
    assert f'"http://{DEV_HOST}/#organization"' in html
    assert "127.0.0.1:8000" not in html and "testserver" not in html


@follows_request
def test_the_sitemap_and_robots_follow_the_request(client, content):
    sitemap = client.get("/sitemap.xml", HTTP_HOST=DEV_HOST).content.decode()
    assert f"<loc>http://{DEV_HOST}/</loc>" in sitemap
    assert f"http://{DEV_HOST}/en/faq/" in sitemap
    robots = client.get("/robots.txt", HTTP_HOST=DEV_HOST).content.decode()
    assert f"Sitemap: http://{DEV_HOST}/sitemap.xml" in robots


@follows_request
def test_the_thanks_page_links_work_on_the_port_it_was_served_from(client, content):
    attach(client, make_session())
    response = client.post("/contact/", contact_data(client), HTTP_HOST=DEV_HOST)
    html = client.get(response["Location"], HTTP_HOST=DEV_HOST).content.decode()
    # The download link is root-relative, the share link absolute on the request's port.
    assert 'href="/report/' in html
    assert f'value="http://{DEV_HOST}/wizard/r/' in html
    assert "127.0.0.1:8000" not in html


@override_settings(SITE_URL="https://selector.example.com")
def test_with_site_url_set_the_host_header_is_not_trusted(client, content):
    html = client.get("/", HTTP_HOST="testserver").content.decode()
    assert '<link rel="canonical" href="https://selector.example.com/">' in html
