#!/usr/bin/env python3
"""Runs porf on GenMC v0.11.0's own tests for memory and locking errors and compares
the error kind porf reports with the one in GenMC's expected traces.

GenMC's tests are not part of porf (keep them out of the repository): pass a GenMC
checkout, or a git directory of MPI-SWS/genmc with the tag, e.g.

    scripts/genmc_error_tests.py --genmc /path/to/genmc
    scripts/genmc_error_tests.py --genmc-git /work/.mirror/MPI-SWS+genmc/repo

For each variant, porf runs under rc11 twice: stopping at the first error (as GenMC
does) and with --keep-going (every error). A test passes when GenMC's error kind is
among porf's errors; the table also says whether it is porf's first one (the first
error met depends on the exploration order, which differs from GenMC's).
"""

import argparse
import json
import os
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORF = os.path.join(ROOT, "target", "release", "porf")

TESTS = [
    "wrong/memory/access-freed",
    "wrong/memory/access-freed2",
    "wrong/memory/access-freed3",
    "wrong/memory/malloc-not-hb2",
    "wrong/locking/destroyed-mutex",
    "wrong/locking/diff-thread-unlock",
    "correct/ipr/lock-inplace3",
]

# GenMC's error line -> (porf kind, part of porf's message).
KINDS = {
    "Attempt to access freed memory": ("memory", "access to freed memory"),
    "Attempt to access non-allocated memory": ("memory", "access to non-allocated memory"),
    "Invalid unlock() operation": ("lock", "invalid unlock"),
    # GenMC reports a lock of a destroyed mutex as a read of uninitialised memory,
    # with the note "Called lock() on destroyed mutex!".
    "Attempt to read from uninitialized memory": ("memory", "lock of a destroyed mutex"),
    "Non-Atomic race": ("race", ""),
}


def genmc_expectation(test_dir, variant):
    """('error', kind) from the variant's rc11 trace, or ('safe', complete, blocked)."""
    stem = variant[:-2]
    for suffix in (".rc11.wb.trace", ".rc11.mo.trace"):
        trace = os.path.join(test_dir, "variants", stem + suffix)
        if os.path.exists(trace):
            first = open(trace).readline().strip()
            assert first.startswith("Error detected: "), first
            return ("error", first[len("Error detected: "):].rstrip("!"))
    complete = open(os.path.join(test_dir, "expected.rc11.mo.in")).readline().strip()
    blocked_file = os.path.join(test_dir, "blocked.rc11.mo.in")
    blocked = open(blocked_file).readline().strip() if os.path.exists(blocked_file) else "0"
    return ("safe", int(complete), int(blocked))


def porf(path, keep_going):
    args = [PORF, "verify", path, "--model", "rc11", "--json"]
    if keep_going:
        args.append("--keep-going")
    out = subprocess.run(args, capture_output=True, text=True, timeout=600)
    return json.loads(out.stdout)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--genmc", help="a GenMC source checkout (holding tests/)")
    g.add_argument("--genmc-git", help="a git directory of MPI-SWS/genmc")
    ap.add_argument("--tag", default="v0.11.0")
    a = ap.parse_args()
    if not os.path.exists(PORF):
        sys.exit(f"build porf first: cargo build --release ({PORF} is missing)")
    tmp = None
    if a.genmc_git:
        tmp = tempfile.TemporaryDirectory()
        paths = ["tests/" + t for t in TESTS]
        archive = subprocess.run(
            ["git", "--git-dir", a.genmc_git, "archive", a.tag] + paths,
            capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp.name], input=archive, check=True)
        base = os.path.join(tmp.name, "tests")
    else:
        base = os.path.join(a.genmc, "tests")
    passed = failed = 0
    for t in TESTS:
        d = os.path.join(base, t)
        for v in sorted(os.listdir(os.path.join(d, "variants"))):
            if not v.endswith(".c"):
                continue
            path = os.path.join(d, "variants", v)
            exp = genmc_expectation(d, v)
            first, every = porf(path, False), porf(path, True)
            got = [(e["kind"], e["message"]) for e in every["errors"]]
            head = (first["errors"][0]["kind"], first["errors"][0]["message"]) if first["errors"] else None
            if exp[0] == "error":
                kind, part = KINDS[exp[1]]
                ok = any(k == kind and part in m for k, m in got)
                is_first = head is not None and head[0] == kind and part in head[1]
                note = "first error" if is_first else f"also found; first: {head}"
                want = f"GenMC: {exp[1]}"
            else:
                # GenMC: no error, `complete` and `blocked` executions.
                ok = not got and first["complete"] == exp[1]
                want = f"GenMC: no error, {exp[1]} complete, {exp[2]} blocked"
                note = f"porf: {got or 'no error'}, {every['complete']} complete"
                if not ok and exp[1] == 0 and all(k == "deadlock" for k, _ in got) and got:
                    ok = True
                    note += " (documented: a thread re-locking a mutex it holds is a deadlock in porf, blocked in GenMC)"
            passed += ok
            failed += not ok
            print(f"{'ok  ' if ok else 'FAIL'} {t}/{v}: {want}; {note}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
