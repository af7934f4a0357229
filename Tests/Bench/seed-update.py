#!/usr/bin/env python3
"""Seed updates: `seedgen diff` and `seedgen update` of two catalogs of N products that differ in
1% of their products, against building the new one, on the same machine in one run.

usage (from the project root, after `swift build -c release`):
    Tests/Bench/seed-update.py [N] [--runs R] [--seedgen PATH] [--keep DIR]

Builds the catalog (../shared/bench/gen_catalog.py, N products, default 1000000) as seed 1, and
seed 2 from the same source with 1% of the products touched: 0.5% with a new price, 0.25%
moved to another category, 0.25% removed, and as many new ones added. Times in alternation R
times (default 3) `seedgen build` of seed 2, `seedgen diff` of seed 1 against seed 2, and
`seedgen update` of seed 1 freshly installed (`seedgen install`, which records the seed in the
store, as the runtime's policy .update does; timed too) to seed 2; checks the diff's counts and
the update's, and prints wall and CPU seconds, the median ratios diff/build, update/build (target:
update at most 2x) and install/build, and peak memory; with N/4 as well, to show memory flat in
the number of objects. The last line is the figure to quote."""
import json, os, re, statistics, subprocess, sys
from benchkit import ROOT, options, run

BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")


def touched(source, target, n):
    """Seed 2's source: every 200th product repriced, every 400th (offset 1) recategorised,
    every 400th (offset 2) removed, and as many new products; returns the expected counts."""
    changed = removed = added = 0
    with open(source) as f, open(target, "w") as out:
        for line in f:
            m = re.match(r'  <Product sku="SKU-(\d+)"', line)
            if m:
                i = int(m.group(1))
                if i % 200 == 0:
                    line = re.sub(r'price="[^"]*"', 'price="0.01"', line)
                    changed += 1
                elif i % 400 == 1:
                    line = re.sub(r'category="[^"]*"', 'category="Category 0"', line)
                    changed += 1
                elif i % 400 == 2:
                    removed += 1
                    continue
            if line.startswith("</Catalog>"):
                for j in range(removed):
                    out.write('  <Product sku="NEW-%08d" name="New %d" price="1.5" category="Category 1"/>\n' % (j, j))
                    added += 1
            out.write(line)
    return {"added": added, "removed": removed, "changed": changed}


def measure(n, runs, seedgen, work, model):
    v1_source, v2_source = os.path.join(work, "catalog-%d.xml" % n), os.path.join(work, "catalog-%d-2.xml" % n)
    if not os.path.exists(v1_source):
        subprocess.run([sys.executable, os.path.join(BENCH, "gen_catalog.py"), str(n), v1_source], check=True, stdout=subprocess.DEVNULL)
    expected = touched(v1_source, v2_source, n)
    v1, v2 = os.path.join(work, "v1-%d.sqlite" % n), os.path.join(work, "v2-%d.sqlite" % n)
    subprocess.run([seedgen, "build", "--model", model, "--output", v1, "--quiet", v1_source], check=True)
    builds, diffs, updates, installs = [], [], [], []
    for i in range(runs + 1):  # the first of each is a warm-up
        if os.path.exists(v2):
            os.remove(v2)
        b = run([seedgen, "build", "--model", model, "--output", v2, "--quiet", v2_source])
        d = run_checked([seedgen, "diff", v1, v2, "--model", model, "--json"], 1, diff_counts, expected, work)
        installed = os.path.join(work, "installed.sqlite")
        for path in (installed, os.path.join(work, ".installed.sqlite.seedgen-lock")):
            if os.path.exists(path):
                os.remove(path)
        s = run([seedgen, "install", v1, installed])
        installed_bytes = os.path.getsize(installed)
        u = run_checked([seedgen, "update", installed, "--seed", v2, "--model", model, "--json"], 0, update_counts, expected, work)
        if i:
            builds.append(b)
            diffs.append(d)
            updates.append(u)
            installs.append(s)
            print("%d products run %d: build %.2fs wall %.2fs CPU %d MiB, diff %.2fs wall %.2fs CPU %d MiB, install %.2fs wall %.2fs CPU %d MiB, update %.2fs wall %.2fs CPU %d MiB"
                  % (n, i, b[0], b[2], b[1] // 1024, d[0], d[2], d[1] // 1024, s[0], s[2], s[1] // 1024, u[0], u[2], u[1] // 1024), flush=True)
    build_wall = statistics.median(b[0] for b in builds)
    diff_wall, update_wall = statistics.median(d[0] for d in diffs), statistics.median(u[0] for u in updates)
    build_cpu, diff_cpu, update_cpu = (statistics.median(x[2] for x in xs) for xs in (builds, diffs, updates))
    install_wall = statistics.median(s[0] for s in installs)
    return {"install": install_wall / build_wall, "install_wall": install_wall, "install_peak": max(s[1] for s in installs) // 1024,
            "seed_bytes": os.path.getsize(v1), "installed_bytes": installed_bytes, "updated_bytes": os.path.getsize(installed), "diff": diff_wall / build_wall, "diff_cpu": diff_cpu / build_cpu, "update": update_wall / build_wall,
            "update_cpu": update_cpu / build_cpu, "build_wall": build_wall, "diff_wall": diff_wall, "update_wall": update_wall,
            "diff_peak": max(d[1] for d in diffs) // 1024, "update_peak": max(u[1] for u in updates) // 1024,
            "build_peak": max(b[1] for b in builds) // 1024}


def run_checked(cmd, status, counts, expected, work):
    """Wall seconds, peak RSS (KiB) and CPU seconds of one command that prints JSON (to a file),
    exiting with `status`; `counts` reads the products added, removed and changed from its JSON,
    which must be `expected`."""
    output = os.path.join(work, "report.json")
    measured = run(cmd, output, status)
    with open(output) as f:
        got = counts(json.load(f))
    if got != expected:
        sys.exit("%s counted %s, expected %s" % (cmd[1], got, expected))
    return measured


def diff_counts(report):
    return {k: report["entities"]["Product"][k] for k in ("added", "removed", "changed")}


def update_counts(report):
    return {k: sum(1 for o in report[k] if o["entity"] == "Product") for k in ("added", "removed", "changed")}


def main():
    n, runs, seedgen, work = options(1000000, "seedgen-diff-bench-")
    sys.path.insert(0, BENCH)
    import gen_catalog
    model = os.path.join(work, "Catalog.xcdatamodel")
    os.makedirs(model, exist_ok=True)
    with open(os.path.join(model, "contents"), "w") as f:
        f.write(gen_catalog.MODEL)
    small = measure(max(1, n // 4), runs, seedgen, work, model)
    full = measure(n, runs, seedgen, work, model)
    print("diff/build %.2fx wall (%.2fs / %.2fs), %.2fx CPU, peak %d MiB (%d MiB at a quarter)"
          % (full["diff"], full["diff_wall"], full["build_wall"], full["diff_cpu"], full["diff_peak"], small["diff_peak"]))
    print("install (records the seed) %.2fs wall, %.2fx the build, peak %d MiB; the seed %d bytes, installed and recorded %d bytes, after the update %d bytes"
          % (full["install_wall"], full["install"], full["install_peak"], full["seed_bytes"], full["installed_bytes"], full["updated_bytes"]))
    print("update/build %.2fx wall (%.2fs / %.2fs), %.2fx CPU, %d products, 1%% touched; peak %d MiB (%d MiB at a quarter), build peak %d MiB; diff %.2fx"
          % (full["update"], full["update_wall"], full["build_wall"], full["update_cpu"], n, full["update_peak"], small["update_peak"], full["build_peak"], full["diff"]))


if __name__ == "__main__":
    main()
