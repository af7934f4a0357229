#!/usr/bin/env python3
"""The catalog workload as JSON and as CSV, against the same objects as entity XML.

usage (from the project root, after `swift build -c release`):
    Tests/Bench/formats.py [N] [--runs R] [--seedgen PATH] [--keep DIR]

N products (default 1000000) naming their category and supplier by key, from
../shared/bench/gen_catalog.py, written three ways with the same objects in the same order:
catalog.xml (the generator's entity XML, the reference), catalog.json (sections of objects, numbers
as JSON numbers) and Categories.csv, Products.csv, Suppliers.csv (one file per entity, named by
their file names). Runs the three builds in alternation R times (default 3) after a warm-up each,
checks that the three stores are byte-identical, and prints wall and CPU seconds, the median
ratios json/xml and csv/xml and the peak memory of each. The last line is the figure to quote."""
import hashlib, os, shutil, statistics, subprocess, sys
from benchkit import ROOT, arg, options, run

BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")


def generate(n, work):
    sys.path.insert(0, BENCH)
    import gen_catalog
    with open(os.path.join(work, "Bench.xcdatamodel"), "w") as f:
        f.write(gen_catalog.MODEL)
    subprocess.run([sys.executable, os.path.join(BENCH, "gen_catalog.py"), str(n), os.path.join(work, "catalog.xml")], check=True)
    cats, sups, products = gen_catalog.rows(n, 1)
    with open(os.path.join(work, "catalog.json"), "w", encoding="utf-8") as f:
        f.write('{\n"Categories": [\n')
        f.write(",\n".join('{"name": "Category %d"}' % c for c in range(cats)))
        f.write('\n],\n"Products": [\n')
        f.write(",\n".join('{"sku": "%s", "name": "%s", "price": %s, "stock": %d, "added": "%s", "category": "%s", "supplier": "%s"}' % p
                           for p in products))
        f.write('\n],\n"Suppliers": [\n')
        f.write(",\n".join('{"code": "S%06d", "country": "DE"}' % s for s in range(sups)))
        f.write("\n]\n}\n")
    with open(os.path.join(work, "Categories.csv"), "w", encoding="utf-8") as f:
        f.write("name\n" + "".join("Category %d\n" % c for c in range(cats)))
    with open(os.path.join(work, "Products.csv"), "w", encoding="utf-8") as f:
        f.write("sku,name,price,stock,added,category,supplier\n")
        f.writelines("%s,%s,%s,%d,%s,%s,%s\n" % p for p in products)
    with open(os.path.join(work, "Suppliers.csv"), "w", encoding="utf-8") as f:
        f.write("code,country\n" + "".join("S%06d,DE\n" % s for s in range(sups)))


def sha256(path):
    # In 1 MiB pieces: this process's size is where its children's peak memory starts.
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()

def main():
    if "--generate" in sys.argv:
        # In a process of its own: the children's peak memory must not start at this one's size.
        return generate(int(arg("--generate", "0")), sys.argv[-1])
    n, runs, seedgen, work = options(1_000_000, "seedgen-formats-")
    try:
        subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", str(n), work], check=True)
        model = os.path.join(work, "Bench.xcdatamodel")
        inputs = {"xml": ["catalog.xml"], "json": ["catalog.json"], "csv": ["Categories.csv", "Products.csv", "Suppliers.csv"]}
        commands = {name: [seedgen, "build", "--model", model, "--output", os.path.join(work, name + ".sqlite")]
                    + [os.path.join(work, f) for f in files] for name, files in inputs.items()}
        for command in commands.values():
            run(command)  # warm-up
        digests = {name: sha256(os.path.join(work, name + ".sqlite")) for name in inputs}
        if len(set(digests.values())) != 1:
            sys.exit("the stores differ: %s" % digests)
        walls, cpus, peaks = {k: [] for k in inputs}, {k: [] for k in inputs}, {k: [] for k in inputs}
        ratios = {"json": [], "csv": []}
        for _ in range(runs):
            for name, command in commands.items():
                wall, rss, cpu = run(command)
                walls[name].append(wall); cpus[name].append(cpu); peaks[name].append(rss)
            for name in ratios:
                ratios[name].append(walls[name][-1] / walls["xml"][-1])
        sizes = {name: sum(os.path.getsize(os.path.join(work, f)) for f in files) / 1e6 for name, files in inputs.items()}
        print("formats: %d products (xml %.0f MB, json %.0f MB, csv %.0f MB of input); the three stores are byte-identical"
              % (n, sizes["xml"], sizes["json"], sizes["csv"]))
        for name in inputs:
            print("%s%s wall s: median %.3f (min %.3f, max %.3f), cpu s median %.3f, peak %.0f MiB"
                  % (name, " (reference)" if name == "xml" else "", statistics.median(walls[name]), min(walls[name]),
                     max(walls[name]), statistics.median(cpus[name]), max(peaks[name]) / 1024))
        print("ratio json/xml: %.2f, csv/xml: %.2f median of %d; peak json %.0f MiB, csv %.0f MiB"
              % (statistics.median(ratios["json"]), statistics.median(ratios["csv"]), runs,
                 max(peaks["json"]) / 1024, max(peaks["csv"]) / 1024))
    finally:
        if "--keep" not in sys.argv:
            shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
