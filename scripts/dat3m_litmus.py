#!/usr/bin/env python3
"""Parses Dat3M's assembly litmus corpus with porf and reports, per folder, how many tests
porf reads into its typed instructions. For now it only parses (`porf litmus
--parse-only`): nothing is run and no verdict is compared.

Dat3M's files are not part of porf (keep them out of the repository): pass a checkout,
or a git directory of hernanponcedeleon/Dat3M, e.g.

    scripts/dat3m_litmus.py --dat3m /path/to/Dat3M
    scripts/dat3m_litmus.py --dat3m-git /work/.mirror/hernanponcedeleon+Dat3M/repo --arch PPC

The folders are `litmus/{AARCH64,RISCV,PPC,X86}` (every `*.litmus` below them). For each
folder the script prints the number of tests, how many parsed, how many porf refuses as
unsupported (grouped by construct, the ten most frequent) and how many are malformed
(an error that is not "unsupported"), then every file that did not parse with its
message (`--quiet` leaves that list out). The exit status is 0 when every folder parsed
at least `--target` percent of its tests (99.5 by default), else 1.
"""

import argparse
import collections
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

ARCHES = ["AARCH64", "RISCV", "PPC", "X86"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def porf_default():
    for p in ["target/ci/porf", "target/release/porf", "target/debug/porf"]:
        q = os.path.join(ROOT, p)
        if os.path.exists(q):
            return q
    return "porf"


def parse_files(porf, files, batch=500):
    """{file: None (parsed) or the error message}."""
    out = {}
    for i in range(0, len(files), batch):
        chunk = files[i:i + batch]
        r = subprocess.run([porf, "litmus", "--parse-only", "--json", *chunk],
                           capture_output=True, text=True)
        if r.returncode not in (0, 3):
            sys.exit(f"porf failed (exit {r.returncode}):\n{r.stderr}")
        for line in r.stdout.splitlines():
            o = json.loads(line)
            out[o["file"]] = None if o["parsed"] else o["error"]
        for f in chunk:
            if f not in out:
                sys.exit(f"porf printed nothing for {f}:\n{r.stderr}")
    return out


def construct(msg):
    """The construct an "unsupported" message names, else None."""
    m = re.search(r"error: (unsupported .*?)(?: \(in `.*`\))?$", msg)
    return m.group(1) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--dat3m", help="a checkout of hernanponcedeleon/Dat3M")
    src.add_argument("--dat3m-git", help="a git directory of hernanponcedeleon/Dat3M")
    ap.add_argument("--rev", default="HEAD", help="revision for --dat3m-git (HEAD)")
    ap.add_argument("--arch", choices=ARCHES, action="append",
                    help="only this folder (repeatable; default: all four)")
    ap.add_argument("--porf", default=porf_default(), help="the porf binary")
    ap.add_argument("--target", type=float, default=99.5,
                    help="percentage of each folder that must parse (99.5)")
    ap.add_argument("--quiet", action="store_true", help="no list of failing files")
    a = ap.parse_args()

    tmp = None
    root = a.dat3m
    if a.dat3m_git:
        tmp = tempfile.TemporaryDirectory()
        archive = subprocess.run(["git", "--git-dir", a.dat3m_git, "archive", a.rev, "litmus"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp.name], input=archive, check=True)
        root = tmp.name
    ok_all = True
    for arch in a.arch or ARCHES:
        d = os.path.join(root, "litmus", arch)
        files = sorted(glob.glob(os.path.join(d, "**", "*.litmus"), recursive=True))
        if not files:
            print(f"{arch}: no tests under {d}")
            ok_all = False
            continue
        res = parse_files(a.porf, files)
        parsed = sum(1 for e in res.values() if e is None)
        unsup = collections.Counter()
        n_unsup = n_err = 0
        for e in res.values():
            if e is None:
                continue
            c = construct(e)
            if c:
                unsup[c] += 1
                n_unsup += 1
            else:
                n_err += 1
        pct = 100.0 * parsed / len(files)
        ok = pct >= a.target
        ok_all &= ok
        print(f"{arch}: {len(files)} tests, {parsed} parsed ({pct:.2f}%), "
              f"{n_unsup} unsupported, {n_err} errors{'' if ok else '  BELOW TARGET'}")
        for c, n in unsup.most_common(10):
            print(f"  {n:6}  {c}")
        if not a.quiet:
            for f, e in sorted(res.items()):
                if e is not None:
                    print(f"  {os.path.relpath(f, root)}: {e.split(': error: ', 1)[-1]}")
    sys.exit(0 if ok_all else 1)


def lkmm_main(argv):
    """`dat3m_litmus.py lkmm --dat3m PATH`: runs Dat3M's `litmus/LKMM` tests under porf's
    `lkmm` model and compares herd's answer (`Ok` = 1) with
    `dartagnan/src/test/resources/LKMM-expected.csv`. Each test runs alone with
    `--threads 1` under a time limit; the summary counts agreements, disagreements
    (listed), tests porf refuses (grouped by message) and time-outs."""
    import concurrent.futures
    ap = argparse.ArgumentParser(prog="dat3m_litmus.py lkmm", description=lkmm_main.__doc__)
    ap.add_argument("--dat3m", required=True,
                    help="a checkout (or an extracted archive) of hernanponcedeleon/Dat3M "
                         "holding litmus/LKMM and dartagnan/src/test/resources")
    ap.add_argument("--expected", help="the CSV (default: under --dat3m)")
    ap.add_argument("--porf", default=porf_default(), help="the porf binary")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per test (10)")
    ap.add_argument("--jobs", type=int, default=2, help="tests run at once (2)")
    ap.add_argument("--only", help="only tests whose path contains this")
    a = ap.parse_args(argv)
    csv = a.expected or os.path.join(a.dat3m, "dartagnan/src/test/resources/LKMM-expected.csv")
    expected = {}
    with open(csv) as f:
        for line in f:
            path, _, v = line.strip().rpartition(",")
            if path and (a.only is None or a.only in path):
                expected[path] = v == "1"

    def run(path):
        f = os.path.join(a.dat3m, path)
        if not os.path.exists(f):
            return path, "missing", None, 0.0
        try:
            r = subprocess.run([a.porf, "litmus", "--json", "--model", "lkmm", "--threads", "1", f],
                               capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            return path, "timeout", None, a.timeout
        if r.returncode in (0, 4) and r.stdout.strip():
            o = json.loads(r.stdout.splitlines()[0])
            return path, "ran", o["verdict"] == "Ok", o["time_s"]
        msg = (r.stderr.strip().splitlines() or ["?"])[-1]
        msg = re.sub(r"^.*?: (error: )?", "", msg)
        return path, "refused", msg, 0.0

    counts = collections.Counter()
    refused = collections.Counter()
    wrong = []
    total_time = 0.0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for path, kind, v, t in ex.map(run, sorted(expected)):
            total_time += t
            if kind == "ran":
                if v == expected[path]:
                    counts["agree"] += 1
                else:
                    counts["disagree"] += 1
                    wrong.append((path, expected[path], v))
            else:
                counts[kind] += 1
                if kind == "refused":
                    refused[re.sub(r"`[^`]*`", "`_`", v)[:90]] += 1
    n = len(expected)
    ran = counts["agree"] + counts["disagree"]
    print(f"LKMM: {n} tests; {ran} answered, {counts['agree']} agree with the CSV "
          f"({100.0 * counts['agree'] / max(n, 1):.2f}% of all, "
          f"{100.0 * counts['agree'] / max(ran, 1):.2f}% of those answered), "
          f"{counts['disagree']} disagree, {counts['refused']} refused, "
          f"{counts['timeout']} timed out (> {a.timeout:g} s), {counts['missing']} missing; "
          f"{total_time:.1f} s in the answered tests")
    for m, k in refused.most_common(12):
        print(f"  {k:6}  {m}")
    for path, e, v in wrong:
        print(f"  DISAGREE {path}: expected {int(e)}, porf {int(v)}")
    sys.exit(0 if counts["disagree"] == 0 else 1)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "lkmm":
        lkmm_main(sys.argv[2:])
    else:
        main()
