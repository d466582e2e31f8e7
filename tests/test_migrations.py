"""Migrations and models agree (issue 16): every index of the project's tables is declared
in its model's Meta, and each app's migrations build exactly what the models declare.

- makemigrations --check: no model change without its migration (CI runs this file).
- PostgreSQL: the tables the migrations built (the test database) carry exactly the indexes
  that building the same models straight from their Meta gives, name for name and
  definition for definition. An index added with raw SQL in a migration, or one a model
  declares but no migration builds, fails here.
- SQLite (`make run`): tests/test_smoke.py, on the SQLite database `make test` migrates
  from nothing."""

import re
from io import StringIO
from pathlib import Path

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import connection

from selector.leads.indexes import PostgreSQLIndex
from selector.leads.models import Lead

ROOT = Path(__file__).resolve().parent.parent
POSTGRES_ONLY = {index.name for index in Lead._meta.indexes
                 if isinstance(index, PostgreSQLIndex)}


def _project_models():
    return [model for config in apps.get_app_configs() if config.name.startswith("selector.")
            for model in config.get_models(include_auto_created=True)
            if model._meta.managed and not model._meta.proxy]


@pytest.mark.django_db  # it checks the recorded migration history's consistency
def test_makemigrations_finds_nothing_to_do():
    out = StringIO()
    try:
        call_command("makemigrations", "--check", "--dry-run", stdout=out, stderr=out)
    except SystemExit as exc:  # --check exits 1 when a migration is missing
        pytest.fail(f"models and migrations differ (exit {exc.code}):\n{out.getvalue()}")
    assert "No changes detected" in out.getvalue()


def test_lead_meta_declares_the_search_and_storage_indexes():
    names = {index.name for index in Lead._meta.indexes}
    assert {"lead_search_trgm", "lead_company_key_trgm", "lead_search_grams",
            "lead_created_cover_idx"} <= names
    assert {"lead_search_trgm", "lead_company_key_trgm", "lead_search_grams"} == POSTGRES_ONLY


def _indexes(schema: str, tables: list[str]) -> dict[tuple[str, str], str]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT tablename, indexname, indexdef FROM pg_indexes "
            "WHERE schemaname = %s AND tablename = ANY(%s)", [schema, tables])
        return {(table, name): definition.replace(f" ON {schema}.", " ON ")
                for table, name, definition in cursor.fetchall()}


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL catalogue")
@pytest.mark.django_db
def test_the_migrated_tables_have_exactly_the_indexes_the_models_declare():
    models = _project_models()
    tables = sorted({model._meta.db_table for model in models})
    with connection.cursor() as cursor:
        # Rolled back with the test's transaction. Unqualified names (the FKs' targets,
        # pg_trgm's operator classes) find this schema first, then public.
        cursor.execute("CREATE SCHEMA models_only")
        cursor.execute("SET LOCAL search_path = models_only, public")
    with connection.schema_editor() as editor:
        for model in models:
            if not model._meta.auto_created:  # a many-to-many table comes with its model
                editor.create_model(model)
    declared = _indexes("models_only", tables)
    migrated = _indexes("public", tables)
    assert migrated == declared
    # The index only the search serves, as the model builds it.
    assert "gin_trgm_ops" in migrated[("leads_lead", "lead_search_trgm")]
    assert "report_number" in migrated[("leads_lead", "lead_search_trgm")]
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE oid = 'public.leads_lead'::regclass")
        assert "toast_tuple_target=256" in cursor.fetchone()[0]


def _statistics_targets() -> set[tuple[str, int, int]]:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, a.attnum, a.attstattarget FROM pg_attribute a "
            "JOIN pg_class c ON c.oid = a.attrelid "
            "WHERE c.relkind = 'i' AND c.relnamespace = 'public'::regnamespace "
            "AND a.attstattarget > 0")
        return set(cursor.fetchall())


@pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL catalogue")
@pytest.mark.django_db
def test_seed_demos_index_rebuild_keeps_every_index_and_its_statistics_target():
    """A big seed_demo load drops the secondary indexes and builds them again after the
    COPY; the rebuilt database must plan like a migrated one: the same definitions and the
    search index's statistics target (1000, leads/0011), which no definition carries."""
    from devtools.demo import _CopyWriter

    def indexes() -> dict[tuple[str, str], str]:
        # PostgreSQL prints a re-parsed partial index's `status IN (...)` predicate with
        # its casts in other places (docs/migrations.md): compare without casts.
        return {key: re.sub(r"::[a-z ]+(\[\])?|[() ]", "", definition)
                for key, definition in _indexes("public", tables).items()}

    tables = list(_CopyWriter.TABLES)
    before, targets = indexes(), _statistics_targets()
    assert ("lead_search_trgm", 1, 1000) in targets
    with _CopyWriter().bulk_load(big=True):
        assert len(indexes()) < len(before)  # dropped for the load
    assert indexes() == before
    assert _statistics_targets() == targets
