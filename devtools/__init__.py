"""Development tools, outside the ``selector`` package that production runs: the demo data
(``demo``, ``manage.py seed_demo``) and the demo staff account of ``make run``
(``manage.py ensure_demo_staff``); and the private servers the tests and harnesses start
for themselves (``pgcluster``: a throw-away PostgreSQL cluster; ``ports``), which need no
Django.

The app is installed only when ``DEVTOOLS`` is on (its default is ``DEBUG``; the test and
bench settings turn it on), and no module of ``selector`` imports it
(tests/test_layers.py), so a production process never loads it.
"""
