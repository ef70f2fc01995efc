#!/usr/bin/env python3
"""Times `porf verify` on every co row of ../shared/conformance/expected.tsv and sets the
total against the reference tool's recorded wall time (`ref_time_s`, GenMC 0.11 on the
same machine class, its compile step included). Prints the total of each, their ratio,
and the five slowest rows for porf with both times.

Usage: scripts/conformance_times.py [--porf target/release/porf] [--equiv co]
                                   [--explorer graph|reference|rf-smc]

Rows porf refuses (exit code 3: an unsupported construct, e.g. an RMW under
`--explorer rf-smc`) are left out of both totals and counted separately.
"""
import argparse
import os
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CONF = os.path.normpath(os.path.join(HERE, "..", "..", "shared", "conformance"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--porf", default=os.path.join(HERE, "..", "target", "release", "porf"))
    ap.add_argument("--equiv", default="co")
    ap.add_argument("--explorer", default=None)
    args = ap.parse_args()
    with open(os.path.join(CONF, "expected.tsv")) as f:
        header = f.readline().rstrip("\n").split("\t")
        rows = [dict(zip(header, l.rstrip("\n").split("\t"))) for l in f if l.strip() and not l.startswith("#")]
    results, refused = [], []
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
        proc = subprocess.run(cmd, capture_output=True)
        dt = time.time() - t0
        if proc.returncode == 3:
            refused.append(f'{row["file"]} {row["defines"]} {row["model"]}')
            continue
        results.append((dt, float(row["ref_time_s"]), f'{row["file"]} {row["defines"]} {row["model"]}'))
    porf = sum(r[0] for r in results)
    ref = sum(r[1] for r in results)
    print(f"{len(results)} rows: porf {porf:.2f}s, reference {ref:.2f}s, ratio porf/reference {porf / ref:.2f}")
    if refused:
        print(f"{len(refused)} rows refused (exit 3), left out: {', '.join(refused)}")
    print("slowest rows for porf (porf s, reference s):")
    for dt, rt, label in sorted(results, reverse=True)[:5]:
        print(f"  {label:<40} {dt:8.2f} {rt:8.2f}")


if __name__ == "__main__":
    main()
