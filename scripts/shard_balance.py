#!/usr/bin/env python3
"""Sharding check (issue 13): runs `porf verify --shard i/N` for every i, one shard at a
time, merges the reports with `porf merge --json`, and compares the merged counts and
verdict with the unsharded run of the same binary. Prints, per N, each shard's
executions and time and the largest shard over the mean (executions and time).

Not a timed test: a measurement tool. Exits non-zero if some merged result differs
from the unsharded one.

    scripts/shard_balance.py --porf target/release/porf \\
        --case nw1r.c:-DN=8:rc11 --case treiber.c:-DN=3:rc11 --case lastzero.c:-DN=15:rc11
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CONFORMANCE = os.path.join(ROOT, "..", "shared", "conformance")


def verify(porf, args):
    t0 = time.perf_counter()
    out = subprocess.run([porf, "verify", "--json", *args], capture_output=True, text=True)
    return json.loads(out.stdout), time.perf_counter() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--porf", default=os.path.join(ROOT, "target", "release", "porf"))
    ap.add_argument("--dir", default=CONFORMANCE, help="where the programs are")
    ap.add_argument("--case", action="append", required=True,
                    help="FILE:DEFINES:MODEL, defines separated by commas (may be empty)")
    ap.add_argument("--shards", default="1,2,3,7")
    ap.add_argument("--shard-probe", type=int, default=None,
                    help="pass --shard-probe NODES to every shard (the pre-pass budget)")
    args = ap.parse_args()
    bad = 0
    for case in args.case:
        file, defines, model = case.split(":")
        flags = [d for d in defines.split(",") if d] + ["--model", model,
                                                       os.path.join(args.dir, file)]
        whole, wall = verify(args.porf, flags)
        print(f"{file} {defines} {model}: unsharded {whole['complete']} complete, "
              f"{whole['blocked']} blocked, {whole['verdict']}, {wall:.2f}s")
        for n in [int(x) for x in args.shards.split(",")]:
            with tempfile.TemporaryDirectory() as tmp:
                paths = []
                for i in range(n):
                    p = os.path.join(tmp, f"shard{i}.json")
                    with open(p, "w") as f:
                        probe = ([] if args.shard_probe is None
                                 else ["--shard-probe", str(args.shard_probe)])
                        subprocess.run([args.porf, "verify", "--shard", f"{i}/{n}", *probe, *flags],
                                       stdout=f, check=True)
                    paths.append(p)
                out = subprocess.run([args.porf, "merge", "--json", *paths],
                                     capture_output=True, text=True)
                m = json.loads(out.stdout)
            same = all(m[k] == whole[k] for k in ("complete", "blocked", "bound_cut", "verdict"))
            bad += not same
            sh = m["shards"]
            execs = " ".join(str(s["executions"]) for s in sh["per_shard"])
            times = " ".join(f"{s['time_s']:.2f}" for s in sh["per_shard"])
            print(f"  N={n}: merged {m['complete']} complete, {m['blocked']} blocked, "
                  f"{m['verdict']} [{'same' if same else 'DIFFERENT'}]; depth "
                  f"{sh['split_depth']}, {sh['subtrees']} subtrees; pre-pass depth "
                  f"{sh.get('probe_depth')}, {sh.get('probe_nodes')} nodes, "
                  f"{sh.get('probe_s', 0):.2f} s; executions {execs} "
                  f"(max/mean {sh['executions_max_over_mean']:.2f}); time {times} s "
                  f"(max/mean {sh['time_max_over_mean']:.2f}, all shards "
                  f"{sh['time_total_s']:.2f} s)")
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
