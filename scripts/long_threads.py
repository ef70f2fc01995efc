#!/usr/bin/env python3
"""Times `porf verify` on bench/long_threads.c (issue 13, "long threads") for growing N.

For each model, prints the wall time per N and the growth exponent between successive
N, log(t2/t1)/log(N2/N1): 1 is linear, 2 quadratic, 3 cubic (N·log N gives slightly
above 1). The execution count must be 4 for every N (see the program's comment); the
script fails if it is not. Not a timed test: a measurement tool.
"""
import argparse
import math
import os
import re
import subprocess
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(porf, model, n, prog, timeout, cflags=()):
    t0 = time.perf_counter()
    try:
        out = subprocess.run(
            [porf, "verify", "--model", model, f"-DN={n}", *cflags, prog],
            capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, None
    dt = time.perf_counter() - t0
    m = re.search(r"complete executions explored: (\d+)", out.stdout)
    return dt, int(m.group(1)) if m else None


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--porf", default=os.path.join(ROOT, "target/release/porf"))
    ap.add_argument("--models", default="rc11,sc,tso")
    ap.add_argument("--ns", default="50,100,200,400,800")
    ap.add_argument("--prog", default=os.path.join(ROOT, "bench/long_threads.c"))
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="seconds per run; larger N are skipped after a timeout")
    ap.add_argument("--cflags", default="",
                    help="extra flags for the program, e.g. -DFENCES (seq_cst fences)")
    ap.add_argument("--repeat", type=int, default=1, help="runs per point (the minimum is kept)")
    args = ap.parse_args()
    ns = [int(x) for x in args.ns.split(",")]
    ok = True
    for model in args.models.split(","):
        print(f"model {model}")
        print(f"  {'N':>6} {'time (s)':>10} {'exponent':>9}")
        prev = None
        for n in ns:
            best, count = None, None
            for _ in range(args.repeat):
                dt, count = run(args.porf, model, n, args.prog, args.timeout,
                                args.cflags.split())
                if dt is None:
                    break
                best = dt if best is None else min(best, dt)
            if best is None:
                print(f"  {n:>6} {'timeout':>10}")
                break
            if count != 4:
                print(f"  {n:>6}: expected 4 executions, got {count}")
                ok = False
            exp = ""
            if prev is not None and prev[1] > 0:
                exp = f"{math.log(best / prev[1]) / math.log(n / prev[0]):9.2f}"
            print(f"  {n:>6} {best:>10.3f} {exp}")
            prev = (n, best)
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
