#!/usr/bin/env python3
"""Migrating a store against copying it: `seedgen migrate` on N products against SQLite's own
copy of the same store (`VACUUM INTO`), on the same machine in one run.

usage (from the project root, after `swift build -c release`):
    Tests/Bench/migrate.py [N] [--runs R] [--seedgen PATH] [--keep DIR]

Builds the catalog (../shared/bench/gen_catalog.py, N products, default 1000000) at version 1 of
its model, then times in alternation R times (default 3), each on a fresh copy of that store:
SQLite copying it (`VACUUM INTO`, in a child Python process on the system's libsqlite3, as
seedgen uses it) and `seedgen migrate` to version 2, which renames Product to Item (by renaming
identifier), adds an attribute with a default to it and adds an entity (Warehouse): the table of
the N products is rebuilt. Then variants: the same changes made to Category instead (renamed
Group), where the products' table is kept as it is; the added entity named Aisle, which sorts
first and so renumbers every entity (`Z_ENT`); the products named by their values (no uniqueness
constraint on sku: the seed record names each by a digest of its values, which the added
attribute changes). Checks each migrated store with `seedgen verify`. The store is installed by
`seedgen install`, so it carries a seed record (a digest per object, which a migration digests
again where the rows change), as an app's store installed under the policy .update does; the same
store without it, as Core Data writes them, is migrated too. Prints wall and
CPU seconds, the median ratio migrate/copy (target: at most 3) and peak memory; with N/4 as
well, to show memory flat in the number of objects. The last line is the figure to quote."""
import os, shutil, statistics, subprocess, sys
from benchkit import ROOT, options, run

BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")


def bundle(work, on_products=True, added="Warehouse", constrained=True):
    """Versions 1 and 2 of the catalog's model: Product (or Category) renamed, given an
    attribute with a default; an entity (`added`) added; without `constrained`, no uniqueness
    constraint on Product's sku in either."""
    sys.path.insert(0, BENCH)
    import gen_catalog
    v1 = gen_catalog.MODEL
    if not constrained:
        sku = '<uniquenessConstraints><uniquenessConstraint><constraint value="sku"/></uniquenessConstraint></uniquenessConstraints>'
        assert sku in v1, "the catalog model changed: update migrate.py"
        v1 = v1.replace(sku, "")
    old, new, anchor = ("Product", "Item", '<attribute name="price"') if on_products else ("Category", "Group", '<relationship name="products"')
    v2 = (v1.replace('<entity name="%s" representedClassName="%s"' % (old, old), '<entity name="%s" elementID="%s" representedClassName="%s"' % (new, old, new))
            .replace('destinationEntity="%s"' % old, 'destinationEntity="%s"' % new).replace('inverseEntity="%s"' % old, 'inverseEntity="%s"' % new)
            .replace(anchor, '<attribute name="packed" optional="YES" attributeType="Integer 16" defaultValueString="1" usesScalarValueType="YES"/>\n        ' + anchor, 1)
            .replace('</model>', '    <entity name="%s"><attribute name="city" optional="YES" attributeType="String"/></entity>\n</model>' % added))
    assert v2.count(new) >= 4 and "packed" in v2 and added in v2, "the catalog model changed: update migrate.py"
    name = "Catalog" + ("" if on_products else "-kept") + ("" if added == "Warehouse" else "-" + added) + ("" if constrained else "-unconstrained")
    root = os.path.join(work, name + ".xcdatamodeld")
    for version, contents in (("Catalog", v1), ("Catalog 2", v2)):
        os.makedirs(os.path.join(root, version + ".xcdatamodel"), exist_ok=True)
        with open(os.path.join(root, version + ".xcdatamodel", "contents"), "w") as f:
            f.write(contents)
    with open(os.path.join(root, ".xccurrentversion"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0"><dict><key>_XCCurrentVersionName</key>'
                '<string>Catalog 2.xcdatamodel</string></dict></plist>\n')
    return root


def measure(n, runs, seedgen, work, model, record=True, unconstrained=False):
    source = os.path.join(work, "catalog-%d.xml" % n)
    if not os.path.exists(source):
        subprocess.run([sys.executable, os.path.join(BENCH, "gen_catalog.py"), str(n), source], check=True, stdout=subprocess.DEVNULL)
    v1 = os.path.join(work, "v1-%d%s.sqlite" % (n, "-unconstrained" if unconstrained else ""))
    if not os.path.exists(v1):
        seed = v1 + ".seed"
        subprocess.run([seedgen, "build", "--model", os.path.join(model, "Catalog.xcdatamodel"), "--output", seed, "--quiet", source], check=True)
        subprocess.run([seedgen, "install", seed, v1], check=True, stdout=subprocess.DEVNULL)
    if not record:  # the same store as Core Data writes them: no seed record
        bare = os.path.join(work, "v1-%d-bare.sqlite" % n)
        if not os.path.exists(bare):
            shutil.copyfile(v1 + ".seed", bare)
            subprocess.run([sys.executable, "-c", "import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); "
                            "c.executescript('DROP TABLE SEEDGEN_MODEL; VACUUM')", bare], check=True)
        v1 = bare
    copy, store = os.path.join(work, "copy.sqlite"), os.path.join(work, "migrated.sqlite")
    vacuum = "import sqlite3, sys; sqlite3.connect(sys.argv[1]).execute(\"VACUUM INTO '%s'\" % sys.argv[2])"
    copies, migrations = [], []
    for i in range(runs + 1):  # the first of each is a warm-up
        for path in (copy, store):
            if os.path.exists(path):
                os.remove(path)
        shutil.copyfile(v1, store)
        c = run([sys.executable, "-c", vacuum, v1, copy])
        m = run([seedgen, "migrate", store, "--model", model])
        subprocess.run([seedgen, "verify", store, "--model", os.path.join(model, "Catalog 2.xcdatamodel")], check=True, stdout=subprocess.DEVNULL)
        if i:
            copies.append(c)
            migrations.append(m)
            print("%s, %d products%s run %d: copy %.2fs wall %.2fs CPU, migrate %.2fs wall %.2fs CPU %d MiB"
                  % (os.path.basename(model), n, "" if record else " (no seed record)", i, c[0], c[2], m[0], m[2], m[1] // 1024), flush=True)
    copy_wall, migrate_wall = statistics.median(c[0] for c in copies), statistics.median(m[0] for m in migrations)
    copy_cpu, migrate_cpu = statistics.median(c[2] for c in copies), statistics.median(m[2] for m in migrations)
    return migrate_wall / copy_wall, migrate_cpu / copy_cpu, migrate_wall, copy_wall, max(m[1] for m in migrations) // 1024, os.path.getsize(v1)


def main():
    n, runs, seedgen, work = options(1000000, "seedgen-migrate-bench-")
    model, kept_model = bundle(work), bundle(work, on_products=False)
    small = measure(max(1, n // 4), runs, seedgen, work, model)
    full = measure(n, runs, seedgen, work, model)
    kept = measure(n, runs, seedgen, work, kept_model)
    bare = measure(n, runs, seedgen, work, model, record=False)
    first = measure(n, runs, seedgen, work, bundle(work, added="Aisle"))
    by_values = measure(n, runs, seedgen, work, bundle(work, constrained=False), unconstrained=True)
    print("the added entity sorts first, every entity renumbered, with the seed record: migrate/copy %.2fx wall (%.2fs / %.2fs), %.2fx CPU, peak %d MiB"
          % (first[0], first[2], first[3], first[1], first[4]))
    print("products named by their values (no key), with the seed record: migrate/copy %.2fx wall (%.2fs / %.2fs), %.2fx CPU, peak %d MiB"
          % (by_values[0], by_values[2], by_values[3], by_values[1], by_values[4]))
    print("products' table kept (changes on Category): migrate/copy %.2fx wall (%.2fs / %.2fs), %.2fx CPU, peak %d MiB"
          % (kept[0], kept[2], kept[3], kept[1], kept[4]))
    print("products' table rebuilt, with the seed record: migrate/copy %.2fx wall (%.2fs / %.2fs), %.2fx CPU, peak %d MiB"
          % (full[0], full[2], full[3], full[1], full[4]))
    print("migrate/copy %.2fx wall (%.2fs / %.2fs), %.2fx CPU, %d products (%d MB store, as Core Data writes it: no seed record) rebuilt, "
          "peak %d MiB (%d MiB at a quarter with its record); %.2fx with the seed record, %.2fx with the table kept"
          % (bare[0], bare[2], bare[3], bare[1], n, bare[5] // 1000000, bare[4], small[4], full[0], kept[0])
          + "; %.2fx every entity renumbered, %.2fx products named by their values" % (first[0], by_values[0]))


if __name__ == "__main__":
    main()
