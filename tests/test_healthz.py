import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.django_db
def test_it_answers_ok_after_a_database_round_trip(client, django_assert_num_queries):
    with django_assert_num_queries(1):
        response = client.get("/healthz")
    assert response.status_code == 200
    assert response.content == b"ok"
    assert "no-cache" in response["Cache-Control"]


def test_it_answers_503_when_the_database_is_unreachable():
    """A real unreachable PostgreSQL (nothing listens on port 1), in a fresh process."""
    script = (
        "import django; django.setup();"
        "from django.test import Client;"
        "r = Client(HTTP_HOST='localhost').get('/healthz');"
        "print(r.status_code, r.content.decode())"
    )
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.settings", "DB_POOL": "0",
           "DB_CONNECT_TIMEOUT": "2", "ALLOWED_HOSTS": "localhost",
           "DATABASE_URL": "postgres://postgres@127.0.0.1:1/nothing_here"}
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, env=env,
                            capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == "503 database unavailable", result.stderr


@pytest.mark.django_db
def test_it_refuses_post(client):
    assert client.post("/healthz").status_code == 405
