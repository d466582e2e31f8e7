"""The smallest WSGI app, for tests that start gunicorn with the production configuration
but need nothing of the site (tests/test_gunicorn_control.py)."""


def app(environ, start_response):
    start_response("200 OK", [("Content-Type", "text/plain")])
    return [b"hello"]
