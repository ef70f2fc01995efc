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


if __name__ == "__main__":
    main()
