from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from selector.env import env_bool, env_int, env_list, parse_database_url


def test_env_bool_parses_and_rejects(monkeypatch):
    monkeypatch.setenv("FLAG", "yes")
    assert env_bool("FLAG") is True
    monkeypatch.setenv("FLAG", "0")
    assert env_bool("FLAG", True) is False
    monkeypatch.setenv("FLAG", "maybe")
    with pytest.raises(ImproperlyConfigured, match="FLAG"):
        env_bool("FLAG")
    monkeypatch.delenv("FLAG")
    assert env_bool("FLAG", True) is True


def test_env_int_checks_type_and_range(monkeypatch):
    monkeypatch.setenv("N", "12")
    assert env_int("N", 1) == 12
    monkeypatch.setenv("N", "twelve")
    with pytest.raises(ImproperlyConfigured, match="N must be an integer"):
        env_int("N", 1)
    monkeypatch.setenv("N", "0")
    with pytest.raises(ImproperlyConfigured, match=">= 1"):
        env_int("N", 5, minimum=1)


def test_env_list_splits_and_trims(monkeypatch):
    monkeypatch.setenv("HOSTS", " a.example, b.example ,,")
    assert env_list("HOSTS") == ["a.example", "b.example"]


def test_database_url_postgres():
    db = parse_database_url("postgres://u%40x:p%2Fw@db.local:6543/sel?sslmode=require",
                            base_dir=Path("/srv"))
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["NAME"], db["USER"], db["PASSWORD"], db["HOST"], db["PORT"]) == (
        "sel", "u@x", "p/w", "db.local", "6543")
    assert db["OPTIONS"] == {"sslmode": "require"}


def test_database_url_sqlite_relative_and_absolute():
    assert parse_database_url("sqlite:///db.sqlite3", base_dir=Path("/srv"))["NAME"] == \
        "/srv/db.sqlite3"
    assert parse_database_url("sqlite:////tmp/x.db", base_dir=Path("/srv"))["NAME"] == "/tmp/x.db"


@pytest.mark.parametrize("url", ["mysql://x/y", "postgres://host:port/db", "postgres://host/"])
def test_database_url_rejects_bad_values(url):
    with pytest.raises(ImproperlyConfigured, match="DATABASE_URL"):
        parse_database_url(url, base_dir=Path("/srv"))
