# The two commands a newcomer needs: `make run` and `make test`. See README.md.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
PORT ?= 8000
# Python 3.13 (pyenv's shim honours .python-version); overridable: make PYTHON=/path/python3.13
PYTHON ?= $(shell command -v python3.13 || ls -d $$HOME/.pyenv/versions/3.13*/bin/python3.13 2>/dev/null | tail -n 1 || echo python3)
# Debian packages: Pango for WeasyPrint, HarfBuzz subsetting (fast CJK PDFs), the Noto CJK
# fonts, Chromium for the browser tests, gettext for translations, poppler for PDF previews,
# Redis for the shared cache of `make serve-prod`, HAProxy for `make scale-test`.
DEB_PACKAGES := libpango-1.0-0 libpangoft2-1.0-0 libharfbuzz-subset0 fonts-noto-cjk chromium gettext poppler-utils redis-server haproxy
# Tests only: PostgreSQL's server, for the throw-away cluster `make test` and `make load` run
# on (devtools/pgcluster.py; nothing needs to be running); LibreOffice Calc (headless) opens
# the staff exports as a spreadsheet user would (tests/staff/test_export_spreadsheet.py);
# about 260 MB, no GUI.
# Java runs the Nu Html Checker (tests/public/test_html_validity.py). wrk loads the
# gunicorn of `make bench` (bench/bench_http.py).
DEV_DEB_PACKAGES := postgresql libreoffice-calc-nogui default-jre-headless wrk
# The Nu Html Checker (the W3C's vnu.jar) from npm's vnu-jar package, into the virtualenv.
VNU_VERSION := 26.9.27
VNU_JAR := $(VENV)/node/node_modules/vnu-jar/build/dist/vnu.jar
# Lighthouse (npm) for `make lighthouse`, in a folder of its own (not the Nu checker's).
LIGHTHOUSE_VERSION := 12.8.2
LIGHTHOUSE := $(VENV)/lighthouse/node_modules/.bin/lighthouse
PO_FILES := $(shell find selector -path '*/LC_MESSAGES/*' -name django.po)
MO_FILES := $(PO_FILES:.po=.mo)

.PHONY: help install install-dev system-deps dev-system-deps run test bench lint fmt messages report-screenshots serve-prod load pdf-soak scale-test lighthouse

help:
	@echo "make run    - install, migrate, load content, serve on http://127.0.0.1:$(PORT)/"
	@echo "make test   - install with dev tools and run the whole test suite (PostgreSQL)"
	@echo "make bench  - print the benchmark figures"
	@echo "make serve-prod - gunicorn + task worker with production settings on PostgreSQL"
	@echo "make scale-test - two app servers behind HAProxy: shared state and fail-over"
	@echo "make lint   - ruff and mypy"
	@echo "make lighthouse - Lighthouse mobile scores of the public pages"
	@echo "make messages - list strings that lack a Chinese translation"

install: system-deps $(VENV)/.installed $(MO_FILES)

install-dev: install dev-system-deps $(VENV)/.installed-dev $(VNU_JAR)

dev-system-deps:
	@$(MAKE) --no-print-directory system-deps DEB_PACKAGES="$(DEV_DEB_PACKAGES)" APT_OPTS=--no-install-recommends

system-deps:
	@missing=""; for p in $(DEB_PACKAGES); do \
	  dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q "install ok installed" || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing Debian packages:$$missing"; \
	  SUDO=""; [ "$$(id -u)" = 0 ] || SUDO=sudo; \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq $(APT_OPTS) $$missing; \
	fi

$(PY):
	$(PYTHON) -m venv $(VENV)
	@$(PY) -c 'import sys; assert sys.version_info[:2] == (3, 13), "Python 3.13 is required, got " + sys.version' \
	  || { rm -rf $(VENV); exit 1; }
	$(PY) -m pip install -q --upgrade pip

$(VENV)/.installed: requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements.txt
	@touch $@

$(VENV)/.installed-dev: requirements-dev.txt requirements.txt | $(PY)
	$(PY) -m pip install -q -r requirements-dev.txt
	@touch $@

$(VNU_JAR): Makefile | $(PY)
	@command -v npm >/dev/null || { echo "npm is needed for the Nu Html Checker (vnu-jar)"; exit 1; }
	npm install --prefix $(VENV)/node --no-save --no-audit --no-fund --silent vnu-jar@$(VNU_VERSION)
	@touch $@

%.mo: %.po | system-deps
	msgfmt --check-format -o $@ $<

run: export DEBUG ?= 1
run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py load_content
	@echo "How customers reach you (company profile, edited in the admin):"
	@$(PY) manage.py company_channels
	@if [ -z "$$DATABASE_URL" ] && [ "$$DEBUG" = 1 ]; then $(PY) manage.py ensure_demo_staff; fi
	@echo "Serving on http://127.0.0.1:$(PORT)/  (staff: http://127.0.0.1:$(PORT)/staff/)"
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

# The whole suite on PostgreSQL: the database DATABASE_URL names, or without it a private
# throw-away cluster (devtools/pgcluster.py: started, used, removed). Then the smoke set on
# SQLite, `make run`'s embedded database (tests/test_smoke.py).
test: install-dev
	@if [ -n "$$DATABASE_URL" ]; then $(PY) -m pytest $(PYTEST_ARGS); \
	else $(PY) -m devtools.pgcluster -- $(PY) -m pytest $(PYTEST_ARGS); fi
	@tmp=$$(mktemp -d) && trap 'rm -rf "$$tmp"' EXIT && \
	  env -u TEST_DATABASE_NAME DATABASE_URL=sqlite:///$$tmp/smoke.sqlite3 \
	  SMOKE_DATABASE_VENDOR=sqlite $(PY) -m pytest -q tests/test_smoke.py

serve-prod: install
	deploy/serve-prod.sh

# Load and fault test of the serve-prod stack (loopback, ~6 minutes) on a PostgreSQL server,
# a Redis and a fake group robot of its own (free ports); each fault touches only those.
# LOAD_FAULTS=postgres,redis,worker,robot,webhook (the default) or a few of them; LOAD_USERS (3).
load: install-dev
	$(PY) bench/load.py

# Two gunicorn app servers and the task workers behind HAProxy on a PostgreSQL server and a
# Redis of their own, on free ports (about 2 minutes; loopback only); SCALE_REDIS_URL (host,
# port, database) to use a given Redis database instead, the only one it flushes.
scale-test: install-dev
	$(PY) bench/scale_test.py

# Lighthouse's mobile audit of the public journey in both languages, served as production
# serves it on a database, Redis and gunicorn of its own (about 3 minutes).
lighthouse: install-dev $(LIGHTHOUSE)
	DATABASE_URL=$(BENCH_DATABASE_URL) TEST_DATABASE_NAME="$${TEST_DATABASE_NAME:-test_selector_lh_$$$$}" \
	  $(PY) bench/lighthouse.py

$(LIGHTHOUSE): Makefile | $(PY)
	npm install --prefix $(VENV)/lighthouse --no-save --no-audit --no-fund --silent lighthouse@$(LIGHTHOUSE_VERSION)
	@touch $@

# PDF worker memory over 500 consecutive renders (a few minutes).
pdf-soak: install-dev
	$(PY) bench/pdf_soak.py

# Benchmarks run on the local PostgreSQL (the figures the issues ask for are PostgreSQL
# figures); BENCH_DATABASE_URL=sqlite:///bench.sqlite3 for SQLite. BENCH_LOAD=0 skips
# the load/fault test and the PDF soak (together about 10 minutes), and the scale-out test
# unless BENCH_SCALE=1 (BENCH_SCALE=0 skips only that one).
# The test database the benchmarks create and drop: TEST_DATABASE_NAME from the
# environment, else one named after this run's shell (two runs on one server never share it).
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/selector_bench
bench: install-dev
	DATABASE_URL=$(BENCH_DATABASE_URL) TEST_DATABASE_NAME="$${TEST_DATABASE_NAME:-test_selector_bench_$$$$}" \
	  DB_POOL=0 $(PY) bench/run.py

# ruff, then mypy (configured in pyproject.toml: strict on selector/domain and selector/core).
lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/mypy

fmt: install-dev
	$(VENV)/bin/ruff check --fix .

# Sample reports (both languages) as PDF, web HTML and one PNG per page, in a throw-away
# SQLite database so the dev database is untouched. Open artifacts/report/*.png.
report-screenshots: install
	@rm -rf artifacts/report && mkdir -p artifacts/report
	@tmp=$$(mktemp -d) && export DATABASE_URL=sqlite:///$$tmp/report.sqlite3 DEBUG=0 \
	  SECRET_KEY=report-screenshots-only STATIC_PLAIN=1 \
	  SITE_URL=$${SITE_URL:-http://127.0.0.1:$(PORT)} && \
	  $(PY) manage.py migrate --noinput -v 0 && $(PY) manage.py load_content -v 0 && \
	  $(PY) manage.py report_sample --out artifacts/report; rc=$$?; rm -rf $$tmp; exit $$rc
	@for pdf in artifacts/report/*.pdf; do pdftoppm -r 80 -png "$$pdf" "$${pdf%.pdf}"; done
	@ls artifacts/report/*.png

# Each app keeps its own hand-edited catalogue (selector/<app>/locale/zh_Hans/...);
# this lists every translatable string that still lacks a Chinese translation.
messages: install-dev
	$(PY) -m pytest -q tests/test_i18n.py
