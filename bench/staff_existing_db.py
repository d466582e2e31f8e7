#!/usr/bin/env python
"""bench/bench_staff.py's figures on an existing, already seeded database (no test
database, no seeding), up to the managers' page (the exports are left out). The five
bench reps are created and given the unassigned leads round-robin, as seed(owners=...)
does, and the table is then vacuumed and analysed, as seed() ends. It writes to the
database it is pointed at: use a copy.

Two copies of one seeded database, one per code version, measured at the same time,
compare two versions under the same machine load (issue 16's dashboard figures):

    createdb -h 127.0.0.1 -U postgres -T seeded copy_main
    createdb -h 127.0.0.1 -U postgres -T seeded copy_branch
    (cd main && DATABASE_URL=postgres://postgres@127.0.0.1:5432/copy_main DB_POOL=0 \
       python bench/staff_existing_db.py) &
    (cd branch && DATABASE_URL=postgres://postgres@127.0.0.1:5432/copy_branch DB_POOL=0 \
       python bench/staff_existing_db.py) &
"""

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "tests.settings")


def main() -> int:
    import django

    django.setup()
    from django.db import connection
    from django.test.utils import setup_test_environment

    import bench.bench_staff as staff

    setup_test_environment()

    def assign_only(*, owners, **kwargs):
        with connection.cursor() as cursor:
            cursor.execute(
                "UPDATE leads_lead SET owner_id = (%s::bigint[])[1 + id %% %s] "
                "WHERE owner_id IS NULL AND id %% 6 <> 0", [owners, len(owners)])
            # As seed() ends (devtools.demo), and as autovacuum would within a minute
            # or two: without it every figure after this update of ~166,000 rows is taken
            # with statistics that say no lead has an owner (the planner sorts a rep's
            # 28,000 leads for a 50-row page) and without the visibility map (index-only
            # counts visit the heap for every row).
            cursor.execute("VACUUM ANALYZE leads_lead")
        return 0, 0

    # The staff bench seeds a database; on an existing one it only assigns owners.
    staff.seed = assign_only  # type: ignore[assignment]
    for name, value, unit in staff.run():
        if name.startswith("staff_csv"):
            break
        if name.startswith("staff_seed"):
            continue  # the owners' assignment here, not a seed
        if isinstance(value, float):
            value = f"{value:.4g}" if abs(value) < 1000 else f"{value:.0f}"
        print(f"{name:<44} {value:>12} {unit}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
