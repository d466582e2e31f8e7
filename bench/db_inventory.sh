#!/usr/bin/env bash
# The proof in docs/migrations.md: rows per table (exact count), every index with its
# definition, storage options and index statistics targets of one database, sorted.
# Usage: bench/db_inventory.sh DBNAME > inventory.txt  (PostgreSQL at 127.0.0.1, user postgres)
set -euo pipefail
db=$1
psql -h 127.0.0.1 -U postgres -d "$db" -tAqX <<'SQL'
SELECT format('SELECT %L || '' '' || count(*) FROM %I;', tablename, tablename)
FROM pg_tables WHERE schemaname = 'public' ORDER BY tablename
\gexec
SELECT 'index ' || tablename || ' ' || indexname || ' ' || indexdef
FROM pg_indexes WHERE schemaname = 'public' ORDER BY tablename, indexname;
SELECT 'reloptions ' || relname || ' ' || array_to_string(reloptions, ',')
FROM pg_class WHERE relnamespace = 'public'::regnamespace AND reloptions IS NOT NULL ORDER BY relname;
SELECT 'statistics ' || c.relname || ' ' || a.attnum || ' ' || a.attstattarget
FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid
WHERE c.relnamespace = 'public'::regnamespace AND c.relkind = 'i' AND a.attstattarget > 0
ORDER BY 1;
SQL
