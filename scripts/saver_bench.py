#!/usr/bin/env python3
"""Spin-loop programs side by side with GenMC 0.11 (issue 25, item 1): runs `porf verify`
(one thread, rc11, its defaults) on Dat3M's lfds/treiber.c (NTHREADS 3 and 4),
locks/clh_mutex.c (NTHREADS 7) and GenMC's data-structures/linuxrwlocks (3
readers-writers, with and without --unroll 3) and prints, per row, porf's complete and
blocked counts and wall time next to GenMC's from ../shared/bench/genmc-0.11-times.tsv
(GenMC v0.11.0 at its defaults on this machine kind), and porf's time over GenMC's.

The sources are exported from the bare git directories of the two repositories (read
only, into a temporary directory); nothing of them enters porf's repository.

Not a test: timings depend on the machine and its load (the load average is printed).
A complete count that differs from GenMC's is marked DIFF (GenMC's reductions are not
all exact, and porf's are not all GenMC's: the row's note must explain it).

Usage: scripts/saver_bench.py [--porf PATH] [--timeout S] [--filter SUBSTR]
                              [--dat3m-git DIR] [--genmc-git DIR] [--markdown]
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

# (source, file, cflags, genmc flags) as the tsv writes them; porf gets the cflags and
# `--unroll N` for GenMC's `-unroll=N`.
ROWS = [
    ("dat3m", "benchmarks/lfds/treiber.c", "-Iinclude -DNTHREADS=3", ""),
    ("dat3m", "benchmarks/lfds/treiber.c", "-Iinclude -DNTHREADS=4", ""),
    ("dat3m", "benchmarks/locks/clh_mutex.c", "-Iinclude -DNTHREADS=7", ""),
    (
        "genmc",
        "tests/correct/data-structures/linuxrwlocks/variants/linuxrwlocks0.c",
        "-DCONFIG_RWLOCK_READERS=0 -DCONFIG_RWLOCK_WRITERS=0 -DCONFIG_RWLOCK_RDWR=3",
        "-unroll=3",
    ),
    (
        "genmc",
        "tests/correct/data-structures/linuxrwlocks/variants/linuxrwlocks0.c",
        "-DCONFIG_RWLOCK_READERS=0 -DCONFIG_RWLOCK_WRITERS=0 -DCONFIG_RWLOCK_RDWR=3",
        "",
    ),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--porf", default=os.path.join(benchlib.ROOT, "target", "release", "porf"))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--filter", default="")
    ap.add_argument("--dat3m-git", default=benchlib.DAT3M_GIT)
    ap.add_argument("--genmc-git", default=benchlib.GENMC_GIT)
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    ref = {benchlib.key(r): r for r in benchlib.read_tsv()}
    with tempfile.TemporaryDirectory(prefix="porf-saver-bench-") as tmp:
        roots = benchlib.export_sources(tmp, a.genmc_git, a.dat3m_git)
        print(f"porf: {a.porf}; load average {os.getloadavg()[0]:.2f}")
        table = benchlib.Table(
            ["program", "flags", "porf complete", "porf blocked", "porf s",
             "GenMC complete", "GenMC blocked", "GenMC s", "porf/GenMC", ""],
            a.markdown,
        )
        for src, file, cflags, gflags in ROWS:
            name = f"{os.path.basename(file)} {cflags} {gflags}"
            if a.filter not in name:
                continue
            row = {"source": src, "file": file, "cflags": cflags, "genmc_flags": gflags}
            v = benchlib.run_porf(a.porf, roots[src], row, a.timeout)
            g = ref.get((src, file, cflags, gflags), {})
            if "error" in v:
                cells = [os.path.basename(file), f"{cflags} {gflags}".strip(),
                         "error", "", f"{v['wall']:.2f}", g.get("complete", "?"),
                         g.get("blocked", "?"), g.get("genmc_s", "?"), "", v["error"]]
            else:
                timed_out = v.get("stopped_by") is not None
                porf_s = v["wall"]
                try:
                    ratio = f"{porf_s / float(g['genmc_s']):.2f}"
                except (KeyError, ValueError, ZeroDivisionError):
                    ratio = "?"
                note = ""
                if timed_out:
                    note = f"stopped by {v['stopped_by']}"
                elif str(v["complete"]) != g.get("complete"):
                    note = "DIFF"
                cells = [os.path.basename(file), f"{cflags} {gflags}".strip(),
                         str(v["complete"]), str(v["blocked"]),
                         f"{porf_s:.2f}" + (">" if timed_out else ""),
                         g.get("complete", "?"), g.get("blocked", "?"),
                         g.get("genmc_s", "?"), ratio, note]
            table.row(cells)
            sys.stdout.flush()


if __name__ == "__main__":
    main()
