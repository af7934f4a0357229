#!/usr/bin/env python3
"""An app's first start under the policy .update against copying the seed: `seedgen install`
(the runtime's installer, the same code) of the catalog against `cp` + fsync of the same seed, on
the same machine in one run.

usage (from the project root, after `swift build -c release`):
    Tests/Bench/install.py [N] [--runs R] [--seedgen PATH] [--keep DIR] [--classic PATH]

Builds the catalog (../shared/bench/gen_catalog.py, N products, default 1000000) twice: a plain
seed, and one built with `--updatable`, which carries its packed record (ten bytes an object).
Then times in alternation R times (default 5; the first round warms the cache and is left out):
copying the plain seed with fsync (a child process, as the installer's copy is), installing the
updatable seed (a copy: the record rides in it), installing the plain seed (the record packed on
the device, from the copy's rows). With --classic, a seedgen binary from before the packed record,
whose install writes the full record (each key as text and a 16-byte digest), is timed too.
Prints medians, the ratios to the copy, each store's bytes against the plain seed's, and peak
memory. The last line is the figure to quote: the updatable seed's install against the copy
(target: at most 2) and its store against the plain seed (target: at most 1.1)."""
import os, shutil, statistics, subprocess, sys
from benchkit import ROOT, arg, options, run

BENCH = os.path.join(os.path.dirname(ROOT), "shared", "bench")
COPY = "import os, shutil, sys; shutil.copyfile(sys.argv[1], sys.argv[2]); f = os.open(sys.argv[2], os.O_RDONLY); os.fsync(f); os.close(f)"


def main():
    n, runs, seedgen, work = options(1000000, "seedgen-install-")
    runs = int(arg("--runs", "5"))
    classic = arg("--classic", None)
    sys.path.insert(0, BENCH)
    import gen_catalog
    model = os.path.join(work, "Catalog.xcdatamodel")
    os.makedirs(model, exist_ok=True)
    with open(os.path.join(model, "contents"), "w") as f:
        f.write(gen_catalog.MODEL)
    source = os.path.join(work, "catalog.xml")
    if not os.path.exists(source):
        subprocess.run([sys.executable, os.path.join(BENCH, "gen_catalog.py"), str(n), source], check=True, stdout=subprocess.DEVNULL)
    seeds = {}
    for name, extra in (("plain", []), ("updatable", ["--updatable"])):
        seeds[name] = os.path.join(work, name + ".sqlite")
        if os.path.exists(seeds[name]):
            os.remove(seeds[name])
        wall, peak, _ = run([seedgen, "build", "--model", model, "--output", seeds[name], "--quiet"] + extra + [source])
        print("build %-9s %6.2f s, peak %3d MiB, %d bytes" % (name, wall, peak // 1024, os.path.getsize(seeds[name])))
    plain = os.path.getsize(seeds["plain"])
    data = os.path.join(work, "data")
    kinds = [("cp + fsync", lambda target: [sys.executable, "-c", COPY, seeds["plain"], target]),
             ("install updatable", lambda target: [seedgen, "install", seeds["updatable"], target]),
             ("install plain", lambda target: [seedgen, "install", seeds["plain"], target])]
    if classic:
        kinds.append(("install classic", lambda target: [classic, "install", seeds["plain"], target]))
    times = {kind: [] for kind, _ in kinds}
    peaks = {kind: 0 for kind, _ in kinds}
    sizes = {}
    for round in range(runs + 1):
        for index, (kind, command) in enumerate(kinds):
            shutil.rmtree(data, ignore_errors=True)
            os.makedirs(data)
            target = os.path.join(data, "store%d.sqlite" % index)
            wall, peak, _ = run(command(target))
            sizes[kind] = os.path.getsize(target)
            if round > 0:
                times[kind].append(wall)
                peaks[kind] = max(peaks[kind], peak)
    copy = statistics.median(times["cp + fsync"])
    for kind, _ in kinds:
        median = statistics.median(times[kind])
        print("%-18s median %6.3f s (%s), %.2fx the copy, store %.4fx the plain seed, peak %d MiB"
              % (kind, median, " ".join("%.3f" % t for t in times[kind]), median / copy, sizes[kind] / plain, peaks[kind] // 1024))
    print("updatable seed: %.4fx the plain seed's bytes" % (os.path.getsize(seeds["updatable"]) / plain))
    if not arg("--keep", None):
        shutil.rmtree(work, ignore_errors=True)
    print("install (policy .update) of the updatable seed: %.2fx cp + fsync (target <= 2), store %.4fx the seed's bytes (target <= 1.1), peak %d MiB"
          % (statistics.median(times["install updatable"]) / copy, sizes["install updatable"] / plain, peaks["install updatable"] // 1024))


if __name__ == "__main__":
    main()
