"""What the project's benchmark scripts share: their options, and timing one child process."""
import os, sys, tempfile, time, subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

def arg(name, default):
    return sys.argv[sys.argv.index(name) + 1] if name in sys.argv else default

def options(default_n, prefix):
    """N, runs, the seedgen binary and a work folder, from `[N] [--runs R] [--seedgen PATH] [--keep DIR]`."""
    n = int(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1].isdigit() else default_n
    runs = int(arg("--runs", "3"))
    seedgen = arg("--seedgen", os.path.join(ROOT, ".build", "release", "seedgen"))
    if not os.access(seedgen, os.X_OK):
        sys.exit("no seedgen binary at %s (run `swift build -c release` first)" % seedgen)
    work = arg("--keep", None) or tempfile.mkdtemp(prefix=prefix)
    os.makedirs(work, exist_ok=True)
    return n, runs, seedgen, work

def run(cmd):
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one child process."""
    t0 = time.perf_counter()
    p = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    _, status, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err[-2000:]))
    return wall, usage.ru_maxrss, usage.ru_utime + usage.ru_stime
