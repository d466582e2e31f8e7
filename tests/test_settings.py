import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _load_settings(**env):
    """Import selector.settings in a fresh interpreter with exactly the given environment."""
    clean = {k: v for k, v in os.environ.items()
             if k not in {"SECRET_KEY", "DEBUG", "DATABASE_URL", "ALLOWED_HOSTS",
                          "SECURE_SSL_REDIRECT", "STATIC_PLAIN", "DEVTOOLS"}}
    clean.update(env)
    return subprocess.run(
        [sys.executable, "-c",
         "import selector.settings as s; print(s.DEBUG, s.LANGUAGE_CODE, "
         "s.DATABASES['default']['ENGINE'], s.SECURE_SSL_REDIRECT)"],
        cwd=ROOT, env=clean, capture_output=True, text=True, timeout=60,
    )


def test_production_without_secret_key_refuses_to_start():
    result = _load_settings()
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_debug_off_by_default_and_chinese_first():
    result = _load_settings(SECRET_KEY="x" * 50)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["False", "zh-hans", "django.db.backends.sqlite3", "True"]


def _devtools_installed(**env) -> str:
    result = _load_settings(**env)
    assert result.returncode == 0, result.stderr
    code = "import selector.settings as s; print('devtools' in s.INSTALLED_APPS)"
    clean = {k: v for k, v in os.environ.items() if k not in {"DEBUG", "DEVTOOLS"}}
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, env={**clean, **env},
                          capture_output=True, text=True, timeout=60, check=True).stdout.strip()


def test_the_demo_data_is_installed_in_development_only():
    assert _devtools_installed(SECRET_KEY="x" * 50, DEBUG="0") == "False"
    assert _devtools_installed(SECRET_KEY="x" * 50, DEBUG="1") == "True"
    assert _devtools_installed(SECRET_KEY="x" * 50, DEBUG="0", DEVTOOLS="1") == "True"


def test_bad_boolean_is_a_clear_error():
    result = _load_settings(DEBUG="perhaps")
    assert result.returncode != 0
    assert "DEBUG must be a boolean" in result.stderr


def test_postgres_url_selects_postgres_with_pool():
    result = subprocess.run(
        [sys.executable, "-c",
         "import selector.settings as s; d=s.DATABASES['default']; "
         "print(d['ENGINE'], 'pool' in d['OPTIONS'])"],
        cwd=ROOT, env={**os.environ, "SECRET_KEY": "x" * 50,
                       "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x"},
        capture_output=True, text=True, timeout=60,
    )
    assert result.stdout.split() == ["django.db.backends.postgresql", "True"], result.stderr


def _cache_prefix(**env) -> str:
    clean = {k: v for k, v in os.environ.items()
             if k not in {"DEBUG", "DATABASE_URL", "CACHE_KEY_PREFIX", "REDIS_URL"}}
    code = ("import selector.settings as s; "
            "print({c['KEY_PREFIX'] for c in s.CACHES.values()}.pop())")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT,
                            env={**clean, "DEBUG": "1", **env},
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_two_deployments_sharing_one_redis_use_different_cache_keys():
    """Issue 24 (11): the dashboard and pipeline figures of one deployment were read by
    another sharing its Redis. Every cache key now starts with the deployment's prefix."""
    redis = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    one = _cache_prefix(DATABASE_URL="postgres://u@db1:5432/selector", **redis)
    other = _cache_prefix(DATABASE_URL="postgres://u@db1:5432/selector_staging", **redis)
    again = _cache_prefix(DATABASE_URL="postgres://u@db1:5432/selector", **redis)
    assert one and other and one != other
    assert one == again  # every process of one deployment shares its keys
    assert _cache_prefix(CACHE_KEY_PREFIX="site-a", **redis) == "site-a"
