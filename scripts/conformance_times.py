#!/usr/bin/env python3
"""Times `porf verify` on every row of ../shared/conformance/expected.tsv with the given
equivalence and sets the total against the reference tool's recorded wall time
(`ref_time_s`, on the same machine class, its compile step included: GenMC 0.11 for
`co`, Nidhugg `--rf` / the RF-SMC fork for `rf`, the RVF-SMC authors' Nidhugg fork for
`rvf`). Prints the total of each, their ratio, and the five slowest rows for porf with
both times. Rows where porf printed no JSON result are listed (and make the exit status 1).

Usage: scripts/conformance_times.py [--porf target/release/porf] [--equiv co|rf|rvf]
                                   [--explorer graph|reference|rf-smc|rf-part-smc]
"""
import argparse
import json
import os
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "conformance"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--porf", default=os.path.join(HERE, "..", "target", "release", "porf"))
    ap.add_argument("--equiv", default="co", choices=["co", "rf", "rvf"])
    ap.add_argument("--explorer", default=None, help="passed through to porf verify")
    args = ap.parse_args()
    with open(os.path.join(CONF, "expected.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, l.rstrip("\n").split("\t"))) for l in f if l.strip() and not l.startswith("#")]
    results = []
    failed = []
    sources = set()
    for row in rows:
        if row["equiv"] != args.equiv:
            continue
        cmd = [args.porf, "verify", "--json", "--model", row["model"], "--equiv", row["equiv"]]
        if args.explorer:
            cmd += ["--explorer", args.explorer]
        for d in row["defines"].split():
            cmd += ["-D", d[2:] if d.startswith("-D") else d]
        cmd.append(os.path.join(CONF, row["file"]))
        t0 = time.time()
        proc = subprocess.run(cmd, capture_output=True, text=True)
        dt = time.time() - t0
        label = f'{row["file"]} {row["defines"]} {row["model"]}'
        try:
            json.loads(proc.stdout.strip().splitlines()[-1])
        except (ValueError, IndexError):
            failed.append(f"{label}: exit {proc.returncode}")
        sources.add(row["source"])
        results.append((dt, float(row["ref_time_s"]), label))
    if not results:
        print(f"no {args.equiv} rows")
        return 1
    porf = sum(r[0] for r in results)
    ref = sum(r[1] for r in results)
    print(f"--equiv {args.equiv}, {len(results)} rows: porf {porf:.2f}s, reference "
          f"({', '.join(sorted(sources))}) {ref:.2f}s, ratio porf/reference {porf / ref:.2f}")
    print("slowest rows for porf (porf s, reference s):")
    for dt, rt, label in sorted(results, reverse=True)[:5]:
        print(f"  {label:<40} {dt:8.2f} {rt:8.2f}")
    for f in failed:
        print(f"no result: {f}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main())
