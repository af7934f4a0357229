"""What the project's benchmark scripts share: their options, and timing one child process."""
import os, re, sys, tempfile, time, subprocess

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

def run(cmd, output=None, status=0):
    """Wall seconds, peak RSS (KiB) and CPU seconds (user + system) of one child process, which
    must exit with `status`; its standard output goes to the file `output` (else nowhere).

    The peak is the one seedgen reports of itself (SEEDGEN_REPORT_PEAK_MEMORY): Linux gives a
    spawned program its parent's peak until it exits, so `ru_maxrss` read here was at least this
    script's own (58 MiB at 1M products, which hid an install's 39 MiB). Other programs: ru_maxrss."""
    t0 = time.perf_counter()
    env = dict(os.environ, SEEDGEN_REPORT_PEAK_MEMORY="1")
    with open(output or os.devnull, "w") as out:
        p = subprocess.Popen(cmd, stdout=out, stderr=subprocess.PIPE, env=env)
        _, code, usage = os.wait4(p.pid, 0)
    wall = time.perf_counter() - t0
    err = p.stderr.read().decode(errors="replace")
    if os.waitstatus_to_exitcode(code) != status:
        sys.exit("failed: %s\n%s" % (" ".join(cmd), err[-2000:]))
    reported = re.findall(r"seedgen: peak memory: (\d+) KiB", err)
    peak = int(reported[-1]) if reported else usage.ru_maxrss
    return wall, peak, usage.ru_utime + usage.ru_stime
