#!/usr/bin/env python3
"""Two seedgen builds' migrations of the same stores, alternating, against SQLite's copy.

usage (from the project root, after `Tests/Bench/migrate.py N --keep DIR` made the stores):
    Tests/Bench/migrate_ab.py DIR OLD_SEEDGEN NEW_SEEDGEN [--rounds R]

Each round copies the 1M-product store of `migrate.py` (`VACUUM INTO`, the ratio's base), then
migrates a fresh copy of it with each binary in turn, for three cases: products' table rebuilt
(with the seed record), the table kept (changes on Category), and the store as Core Data writes
it (no record), rebuilt. Prints each run and the medians (ratio to the copy, wall and CPU seconds,
peak memory): a change's cost measured in one run on a noisy machine."""
import os, shutil, statistics, sys
from benchkit import run

CASES = [("rebuilt", "v1-1000000.sqlite", "Catalog.xcdatamodeld"),
         ("kept", "v1-1000000.sqlite", "Catalog-kept.xcdatamodeld"),
         ("no record", "v1-1000000-bare.sqlite", "Catalog.xcdatamodeld")]
VACUUM = "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute(\"VACUUM INTO '%s'\" % sys.argv[2])"


def main():
    if len(sys.argv) < 4:
        sys.exit(__doc__)
    work, binaries = sys.argv[1], sys.argv[2:4]
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
    results = {}
    for _ in range(rounds):
        for name, store, model in CASES:
            source, copy, migrated = (os.path.join(work, f) for f in (store, "ab-copy.sqlite", "ab-migrated.sqlite"))
            c = run([sys.executable, "-c", VACUUM, source, copy])
            os.remove(copy)
            for binary in binaries:
                shutil.copyfile(source, migrated)
                m = run([binary, "migrate", migrated, "--model", os.path.join(work, model)])
                results.setdefault((name, binary), []).append((m[0] / c[0], m[0], m[2], m[1] // 1024))
                print("%s, %s: copy %.2fs, migrate %.2fs wall %.2fs CPU %d MiB" % (name, binary, c[0], m[0], m[2], m[1] // 1024), flush=True)
            os.remove(migrated)
    for (name, binary), runs in results.items():
        print("%s, %s: median %.2fx the copy, %.2fs wall, %.2fs CPU, peak %d MiB" % (
            name, binary, statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs),
            statistics.median(r[2] for r in runs), max(r[3] for r in runs)))


if __name__ == "__main__":
    main()
