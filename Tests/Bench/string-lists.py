#!/usr/bin/env python3
"""One SwiftData `[String]` of N strings (default 1000000), as JSON, an XML plist and CSV: peak memory
against the input's size.

usage (from the project root, after `swift build -c release`):
    Tests/Bench/string-lists.py [N] [--runs R] [--seedgen PATH] [--keep DIR]

A `@Model class Bag { @Attribute(.unique) var name: String; var labels: [String] = [] }` and one
bag whose labels are "label-0" ... "label-<N-1>", written three ways (bags.json, bags.plist,
Bags.csv with the list as JSON text in its cell). Each is built R times (default 3) after a
warm-up, beside a build of one empty bag (the process's own size); the three stores must be
byte-identical, and the dump of the JSON-built store as a property list must build back to the
same bytes. Prints each build's wall seconds and peak memory, and the peak above the empty
build's as a multiple of the JSON input's size. The last line is the figure to quote."""
import hashlib, os, shutil, statistics, subprocess, sys
from benchkit import arg, options, run

MODEL = """import SwiftData
@Model class Bag {
    @Attribute(.unique) var name: String
    var labels: [String] = []
}
"""


def generate(n, work):
    labels = ['"label-%d"' % i for i in range(n)]
    with open(os.path.join(work, "Bag.swift"), "w") as f:
        f.write(MODEL)
    with open(os.path.join(work, "bags.json"), "w") as f:
        f.write('{"Bags": [{"name": "a", "labels": [%s]}]}\n' % ", ".join(labels))
    with open(os.path.join(work, "empty.json"), "w") as f:
        f.write('{"Bags": [{"name": "a"}]}\n')
    with open(os.path.join(work, "bags.plist"), "w") as f:
        f.write('<?xml version="1.0" encoding="UTF-8"?>\n<plist version="1.0">\n<dict><key>Bags</key><array><dict>'
                '<key>name</key><string>a</string><key>labels</key><array>\n')
        f.writelines("<string>label-%d</string>\n" % i for i in range(n))
        f.write("</array></dict></array></dict>\n</plist>\n")
    with open(os.path.join(work, "Bags.csv"), "w") as f:
        f.write('name,labels\na,"[%s]"\n' % ",".join(labels).replace('"', '""'))


def sha256(path):
    digest = hashlib.sha256()
    with open(path, "rb") as f:
        for piece in iter(lambda: f.read(1 << 20), b""):
            digest.update(piece)
    return digest.hexdigest()


def main():
    if "--generate" in sys.argv:
        return generate(int(arg("--generate", "0")), sys.argv[-1])
    n, runs, seedgen, work = options(1_000_000, "seedgen-string-lists-")
    try:
        subprocess.run([sys.executable, os.path.abspath(__file__), "--generate", str(n), work], check=True)
        model = os.path.join(work, "Bag.swift")
        inputs = {"empty": "empty.json", "json": "bags.json", "plist": "bags.plist", "csv": "Bags.csv"}
        def build(name, source):
            output = os.path.join(work, name + ".sqlite")
            if os.path.exists(output):
                os.remove(output)
            return run([seedgen, "build", "--model", model, "--output", output, os.path.join(work, source)])
        for name, source in inputs.items():
            build(name, source)  # warm-up
        digests = {name: sha256(os.path.join(work, name + ".sqlite")) for name in inputs if name != "empty"}
        if len(set(digests.values())) != 1:
            sys.exit("the stores differ: %s" % digests)
        run([seedgen, "dump", "--model", model, "--format", "plist", "--output", os.path.join(work, "dump.plist"), os.path.join(work, "json.sqlite")])
        build("dumped", "dump.plist")
        if sha256(os.path.join(work, "dumped.sqlite")) != digests["json"]:
            sys.exit("the plist dump does not build back to the same store")
        walls, peaks = {k: [] for k in inputs}, {k: [] for k in inputs}
        for _ in range(runs):
            for name, source in inputs.items():
                wall, rss, _ = build(name, source)
                walls[name].append(wall); peaks[name].append(rss)
        size = os.path.getsize(os.path.join(work, "bags.json"))
        stored = os.path.getsize(os.path.join(work, "json.sqlite"))
        print("string-lists: one [String] of %d strings (json %.1f MB, plist %.1f MB, csv %.1f MB of input; store %.1f MB); "
              "the three stores and the plist dump's build are byte-identical"
              % (n, size / 1e6, os.path.getsize(os.path.join(work, "bags.plist")) / 1e6,
                 os.path.getsize(os.path.join(work, "Bags.csv")) / 1e6, stored / 1e6))
        base = min(peaks["empty"])
        for name in inputs:
            print("%-6s wall s: median %.3f, peak %.0f MiB (%.1fx the JSON input above an empty build's %.0f MiB)"
                  % (name, statistics.median(walls[name]), max(peaks[name]) / 1024,
                     (max(peaks[name]) - base) * 1024 / size, base / 1024))
        print("peak above an empty build, as a multiple of the JSON input: json %.1fx, plist %.1fx, csv %.1fx (median wall json %.2f s)"
              % tuple([(max(peaks[k]) - base) * 1024 / size for k in ("json", "plist", "csv")] + [statistics.median(walls["json"])]))
    finally:
        if "--keep" not in sys.argv:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
