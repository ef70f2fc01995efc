#!/usr/bin/env python3
"""Runs `porf litmus` on litmus files under two explorers and compares what they print
(states, positive/negative witness counts, observation; the Time line ignored).

    scripts/compare_explorers.py --porf target/ci/porf --dir /tmp/dat3m/litmus/AARCH64 \
        --limit 300 [--a values --b deferred] [--timeout 30] [--skip mixed]

Prints one line per disagreement and a summary: tests compared, agreeing, disagreeing,
how many each explorer left without a verdict (non-zero exit, timeout), and the
wall-clock seconds each explorer's runs took.
"""
import argparse
import os
import subprocess
import sys
import time


# Wall-clock seconds each explorer's runs took (process start to exit).
spent = {}


def run(porf, explorer, path, timeout):
    cmd = [porf, "litmus", "--threads", "1", "--explorer", explorer, path]
    start = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return ("timeout", None)
    finally:
        spent[explorer] = spent.get(explorer, 0.0) + time.monotonic() - start
    out = "\n".join(l for l in p.stdout.splitlines() if not l.startswith("Time "))
    if p.returncode != 0:
        return ("exit %d" % p.returncode, (p.stderr.strip().splitlines() or [""])[-1])
    return ("ok", out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--porf", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--limit", type=int, default=300)
    ap.add_argument("--a", default="values")
    ap.add_argument("--b", default="deferred")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--skip", action="append", default=["mixed"])
    args = ap.parse_args()
    files = []
    for root, dirs, names in os.walk(args.dir):
        dirs.sort()
        if any(s in root.lower() for s in args.skip):
            continue
        files += [os.path.join(root, n) for n in sorted(names) if n.endswith(".litmus")]
    files = files[: args.limit]
    same = differ = 0
    none = {args.a: 0, args.b: 0}
    for f in files:
        ra = run(args.porf, args.a, f, args.timeout)
        rb = run(args.porf, args.b, f, args.timeout)
        if ra[0] != "ok" or rb[0] != "ok":
            for name, r in ((args.a, ra), (args.b, rb)):
                if r[0] != "ok":
                    none[name] += 1
                    print("NOVERDICT %s %s: %s %s" % (name, f, r[0], r[1] or ""))
            continue
        if ra[1] == rb[1]:
            same += 1
        else:
            differ += 1
            print("DIFFER %s\n--- %s\n%s\n--- %s\n%s" % (f, args.a, ra[1], args.b, rb[1]))
        sys.stdout.flush()
    print(
        "files %d compared %d agree %d differ %d no-verdict %s seconds %s"
        % (
            len(files),
            same + differ,
            same,
            differ,
            none,
            {k: round(v, 2) for k, v in spent.items()},
        )
    )


if __name__ == "__main__":
    main()
