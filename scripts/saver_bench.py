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
import json
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
TSV = os.path.normpath(os.path.join(ROOT, "..", "shared", "bench", "genmc-0.11-times.tsv"))

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


def genmc_rows():
    """The tsv's rows: (source, file, cflags, genmc_flags) -> dict."""
    rows = {}
    with open(TSV) as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if header is None:
                header = cells
                continue
            d = dict(zip(header, cells + [""] * (len(header) - len(cells))))
            rows[(d["source"], d["file"], d["cflags"], d["genmc_flags"])] = d
    return rows


def export(git_dir, paths, dest):
    """`git archive HEAD paths` of a bare repository, unpacked into dest."""
    os.makedirs(dest, exist_ok=True)
    tag = "HEAD" if "Dat3M" in git_dir else "v0.11.0"
    arch = subprocess.run(
        ["git", "--git-dir", git_dir, "archive", tag] + paths,
        stdout=subprocess.PIPE,
        check=True,
    ).stdout
    subprocess.run(["tar", "x", "-C", dest], input=arch, check=True)


def run_porf(porf, root, file, cflags, genmc_flags, timeout):
    args = [porf, "verify", "--json", "--threads", "1", "--timeout", str(timeout)]
    for flag in cflags.split():
        if flag.startswith("-I"):
            args.append("-I" + os.path.join(root, flag[2:]))
        else:
            args.append(flag)
    for flag in genmc_flags.split():
        if flag.startswith("-unroll="):
            args += ["--unroll", flag.split("=", 1)[1]]
    args.append(os.path.join(root, file))
    t0 = time.monotonic()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    try:
        v = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": (p.stdout + p.stderr).strip()[-300:], "wall": wall}
    v["wall"] = wall
    v["exit"] = p.returncode
    return v


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--porf", default=os.path.join(ROOT, "target", "release", "porf"))
    ap.add_argument("--timeout", type=int, default=300)
    ap.add_argument("--filter", default="")
    ap.add_argument("--dat3m-git", default="/work/.mirror/hernanponcedeleon+Dat3M/repo")
    ap.add_argument("--genmc-git", default="/work/.mirror/MPI-SWS+genmc/repo")
    ap.add_argument("--markdown", action="store_true")
    a = ap.parse_args()
    ref = genmc_rows()
    with tempfile.TemporaryDirectory(prefix="porf-saver-bench-") as tmp:
        roots = {"dat3m": os.path.join(tmp, "dat3m"), "genmc": os.path.join(tmp, "genmc")}
        export(a.dat3m_git, ["benchmarks/lfds", "benchmarks/locks", "include"], roots["dat3m"])
        export(a.genmc_git, ["tests/correct/data-structures/linuxrwlocks", "include"],
               roots["genmc"])
        print(f"porf: {a.porf}; load average {os.getloadavg()[0]:.2f}")
        sep = " | " if a.markdown else "  "
        head = ["program", "flags", "porf complete", "porf blocked", "porf s",
                "GenMC complete", "GenMC blocked", "GenMC s", "porf/GenMC", ""]
        if a.markdown:
            print("| " + " | ".join(head) + " |")
            print("|" + "---|" * len(head))
        else:
            print(sep.join(head))
        for src, file, cflags, gflags in ROWS:
            name = f"{os.path.basename(file)} {cflags} {gflags}"
            if a.filter not in name:
                continue
            v = run_porf(a.porf, roots[src], file, cflags, gflags, a.timeout)
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
            if a.markdown:
                print("| " + " | ".join(cells) + " |")
            else:
                print(sep.join(cells))
            sys.stdout.flush()


if __name__ == "__main__":
    main()
