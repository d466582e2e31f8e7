#!/usr/bin/env bash
# Start the production stack locally: gunicorn with production settings on PostgreSQL,
# static files through whitenoise, and the supervised task workers (`manage.py task_supervisor`).
# Used by `make serve-prod` and by the load test. Loopback only; plain HTTP, so the
# HTTPS-only cookie and redirect settings are relaxed here (and only here).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python

export DEBUG=0
export DATABASE_URL="${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/selector}"
export ALLOWED_HOSTS="${ALLOWED_HOSTS:-127.0.0.1,localhost}"
export SITE_URL="${SITE_URL:-http://127.0.0.1:${PORT:-8000}}"
export SECURE_SSL_REDIRECT="${SECURE_SSL_REDIRECT:-0}"
export SECURE_COOKIES="${SECURE_COOKIES:-0}"
export SECURE_HSTS_SECONDS="${SECURE_HSTS_SECONDS:-0}"
export TASKS_BACKEND="${TASKS_BACKEND:-database}"
export BIND="127.0.0.1:${PORT:-8000}"
# The shared cache (rate limits, login throttle, PDFs) for every gunicorn worker: Redis.
# REDIS_URL= (empty) falls back to the database cache, the same requirement met in PostgreSQL.
export REDIS_URL="${REDIS_URL-redis://127.0.0.1:6379/0}"
if [ -n "$REDIS_URL" ]; then
  redis_host="${REDIS_URL#*://}"; redis_host="${redis_host%%/*}"; redis_host="${redis_host##*@}"
  redis_port="${redis_host##*:}"; redis_host="${redis_host%%:*}"
  if ! redis-cli -h "$redis_host" -p "$redis_port" ping >/dev/null 2>&1; then
    echo "Redis is not answering on ${redis_host}:${redis_port}; starting it"
    redis-server --daemonize yes --bind "$redis_host" --port "$redis_port" --save "" \
      --appendonly no
    for _ in $(seq 1 20); do redis-cli -h "$redis_host" -p "$redis_port" ping >/dev/null 2>&1 && break; sleep 0.25; done
  fi
fi
if [ -z "${SECRET_KEY:-}" ]; then
  [ -f .secret_key ] || python3 -c 'import secrets; print(secrets.token_urlsafe(64))' > .secret_key
  SECRET_KEY="$(cat .secret_key)"
  export SECRET_KEY
fi

# Create the database if it is missing (local PostgreSQL, trust auth).
db_name="${DATABASE_URL##*/}"; db_name="${db_name%%\?*}"
if ! psql "${DATABASE_URL%/*}/postgres" -tAc "SELECT 1 FROM pg_database WHERE datname='${db_name}'" | grep -q 1; then
  psql "${DATABASE_URL%/*}/postgres" -qc "CREATE DATABASE \"${db_name}\""
fi

$PY manage.py migrate --noinput
$PY manage.py load_content
$PY manage.py collectstatic --noinput -v0
# Refuse to start what customers could not reach (no hotline and no e-mail in the company
# profile, the default sender): errors only, the HTTPS relaxations above are warnings.
# A loopback stand-in that no customer uses (bench/load.py) silences those two ids and
# Django's refusal of its file e-mail backend with
# SILENCED_SYSTEM_CHECKS=content.E001,leads.E001,mail.E001; a deployment never does.
$PY manage.py check --deploy --fail-level ERROR

worker_pid=""
if [ "$TASKS_BACKEND" = database ]; then
  # The sales workspace's recurring tick (SLA escalations, daily digests); idempotent.
  $PY manage.py staff_tick --schedule
  # Sent quotes past their validity date become "expired", hourly; idempotent.
  $PY manage.py quotes_expire --schedule
  # TASK_WORKERS (default 2) task workers, each restarted if it exits; they wait out a
  # database outage and re-run a dead worker's task (docs/background-work.md).
  $PY manage.py task_supervisor &
  worker_pid=$!
fi
trap '[ -n "$worker_pid" ] && kill "$worker_pid" 2>/dev/null || true' EXIT
echo "Serving the production stack on http://${BIND}/"
.venv/bin/gunicorn selector.wsgi:application -c deploy/gunicorn.conf.py
