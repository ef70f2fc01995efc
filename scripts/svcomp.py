#!/usr/bin/env python3
"""Runs porf over SV-COMP tasks (github sosy-lab/sv-benchmarks, `c/pthread*`,
`c/goblint-regression`, ...) the way a user would, and scores its verdicts.

The tasks are not part of porf (keep them out of the repository). Pass a directory of
task definitions (`*.yml`, format 2.0) with their input files beside them:

    scripts/svcomp.py /work/svcomp --timeout 60 --json out.json

Each task runs under `--model sc` with its input as given (a `.i` file is not
preprocessed) and its data model (`data_model: ILP32` is `--data-model ilp32`). When
the task's input file is missing but a `.c` file of the same stem is there (the
original before preprocessing), that file runs instead, with porf's bundled headers,
and the row says so.

Properties (docs/svcomp.md gives the mapping and its argument); every run passes
`--abort-blocks`: in SV-COMP `abort()` only ends the path (tasks write `assume(e)` as
`if (!(e)) abort();`), it violates none of these properties.

* `unreach-call`: `--keep-going --disable-race-detection`. False iff some execution
  calls `reach_error()` or `__VERIFIER_error()`; true iff the exploration is complete
  and found no error at all. Any other error (a memory error, a failed `assert`, a
  deadlock) ends its execution, which may hide a later `reach_error()`: unknown.
  Races are not violations of this property and are not looked for.
* `no-data-race`: `--keep-going`. False iff porf reports a data race; true iff the
  exploration is complete and found no error. Other errors: unknown.
* `valid-memsafety`: `--keep-going --disable-race-detection`. False iff porf reports a
  memory error (invalid dereference, invalid free), unless the expected subproperty is
  `valid-memtrack`, which porf does not check (leaks): then unknown. Never true, for the
  same reason.
* other properties (termination, overflow, ...): unsupported.

Bounds: the first run uses spin-assume (porf's default) and no loop bound. When it
times out or a call needs values porf does not enumerate by default
(`__VERIFIER_nondet_int` and the like), the task runs again with `--unroll U`
and `--nondet-range LO..HI` (a subset of the values): then an error found is a real
violation (every value in the range is a value the call may return, every bounded
execution a real one), and no error found is unknown, never true.

Each (task, property) is classified:
  correct      porf's verdict (true / false) is the expected one
  wrong        porf's verdict is the opposite one (listed one by one)
  unknown      no verdict: a bounded or incomplete run without a violation, or an error
               that is not a violation of the property
  unsupported  porf's front end or interpreter refused the program (the first message
               is kept, counted by message below)
  timeout      the run (and the bounded re-run) hit --timeout without a verdict
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PROPERTIES = {
    "unreach-call": ["--keep-going", "--disable-race-detection", "--abort-blocks"],
    "no-data-race": ["--keep-going", "--abort-blocks"],
    "valid-memsafety": ["--keep-going", "--disable-race-detection", "--abort-blocks"],
}
ERROR_CALLS = ("reach_error() is called", "__VERIFIER_error() is called")


def parse_task(path):
    """The few keys of a task definition the runner needs (no YAML library needed)."""
    text = open(path).read()
    inputs = re.findall(r"input_files:\s*'?([^'\n\[\]]+?)'?\s*$", text, re.M)
    if not inputs:
        inputs = re.findall(r"^\s*-\s*'?([^'\n]+\.(?:i|c))'?\s*$", text, re.M)
    props = []
    for block in re.split(r"\n\s*-\s*property_file:", "\n" + text.split("properties:", 1)[-1])[1:]:
        m = re.match(r"\s*(\S+)", block)
        name = os.path.basename(m.group(1)).replace(".prp", "") if m else "?"
        v = re.search(r"expected_verdict:\s*(true|false)", block)
        sub = re.search(r"subproperty:\s*(\S+)", block)
        props.append((name, v.group(1) == "true" if v else None, sub.group(1) if sub else None))
    dm = re.search(r"data_model:\s*(\S+)", text)
    return {
        "input": inputs[0].strip() if inputs else None,
        "properties": props,
        "data_model": (dm.group(1) if dm else "ILP32").lower(),
    }


def porf(binary, file, args, timeout):
    cmd = [binary, "verify", "--model", "sc", "--json", "--timeout", str(timeout)] + args + [file]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 30)
    except subprocess.TimeoutExpired:
        return {"verdict": "killed"}, cmd
    try:
        return json.loads(p.stdout), cmd
    except ValueError:
        msg = (p.stderr.strip().splitlines() or ["no output"])[0]
        return {"verdict": "unsupported" if p.returncode == 3 else "crash", "message": msg}, cmd


def judge(prop, sub, out):
    """porf's answer for `prop` from one JSON report: (verdict, note)."""
    if out.get("verdict") in ("unsupported", "crash") and not out.get("errors"):
        return out["verdict"], out.get("message", "")
    if out.get("verdict") == "killed":
        return "timeout", "killed"
    errors = out.get("errors", [])
    unsup = [e for e in errors if e.get("kind") == "unsupported"]
    if prop == "unreach-call":
        hit = [e for e in errors if e.get("kind") == "assertion" and e.get("message") in ERROR_CALLS]
    elif prop == "no-data-race":
        hit = [e for e in errors if e.get("kind") == "race"]
    else:
        hit = [e for e in errors if e.get("kind") == "memory"]
        if hit and sub == "valid-memtrack":
            return "unknown", "porf does not check leaks (valid-memtrack)"
    if hit:
        return "false", hit[0].get("message", "")
    if unsup:
        return "unsupported", unsup[0].get("message", "")
    if errors:
        return "unknown", "other error: %s" % errors[0].get("message", "")
    if out.get("stopped_by") == "timeout" or out.get("stopped_by") == "time":
        return "timeout", ""
    if out.get("verdict") == "safe":
        if prop == "valid-memsafety":
            return "unknown", "porf does not check leaks (valid-memtrack)"
        return "true", ""
    return "unknown", "incomplete: %s" % out.get("stopped_by")


def needs_bound(out):
    if out.get("verdict") == "killed" or out.get("stopped_by") in ("timeout", "time"):
        return True
    for e in out.get("errors", []):
        if e.get("kind") == "unsupported" and "nondet" in e.get("message", ""):
            return True
    return out.get("verdict") == "unsupported" and "nondet" in out.get("message", "")


def run_task(task, binary, timeout, unroll, nondet):
    d = parse_task(task)
    folder = os.path.dirname(task)
    rows = []
    if not d["input"]:
        return [(task, "?", None, "unsupported", "no input file in the task")]
    file = os.path.join(folder, d["input"])
    note = ""
    if not os.path.exists(file):
        alt = os.path.splitext(file)[0] + ".c"
        if not os.path.exists(alt):
            return [(task, p, v, "missing", "input file not copied") for p, v, _ in d["properties"]]
        file, note = alt, "(.c) "
    dm = ["--data-model", "ilp32"] if d["data_model"] == "ilp32" else []
    for prop, expected, sub in d["properties"]:
        if prop not in PROPERTIES:
            rows.append((task, prop, expected, "unsupported", "property not checked by porf"))
            continue
        out, _ = porf(binary, file, dm + PROPERTIES[prop], timeout)
        verdict, why = judge(prop, sub, out)
        if verdict in ("timeout", "unsupported") and needs_bound(out):
            extra = ["--unroll", str(unroll), "--nondet-range", nondet]
            out2, _ = porf(binary, file, dm + PROPERTIES[prop] + extra, timeout)
            v2, why2 = judge(prop, sub, out2)
            if v2 == "true":
                v2, why2 = "unknown", "no violation up to --unroll %d, --nondet-range %s" % (unroll, nondet)
            verdict, why = v2, why2 + " [bounded re-run]"
        rows.append((task, prop, expected, verdict, note + why))
    return rows


def classify(expected, verdict):
    if verdict in ("true", "false"):
        if expected is None:
            return "unknown"
        return "correct" if (verdict == "true") == expected else "wrong"
    if verdict in ("unsupported", "crash", "missing"):
        return "unsupported"
    return verdict


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("tasks", help="directory of SV-COMP task definitions (*.yml)")
    ap.add_argument("--porf", default=os.path.join(ROOT, "target", "ci", "porf"))
    ap.add_argument("--timeout", type=int, default=60, help="seconds per run (porf's --timeout)")
    ap.add_argument("--unroll", type=int, default=3, help="loop bound of the bounded re-run")
    ap.add_argument("--nondet-range", default="-1..2", help="nondet values of the bounded re-run")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", help="write every row to this file")
    a = ap.parse_args()
    tasks = sorted(glob.glob(os.path.join(a.tasks, "**", "*.yml"), recursive=True))
    rows = []
    with concurrent.futures.ThreadPoolExecutor(a.jobs) as ex:
        for r in ex.map(lambda t: run_task(t, a.porf, a.timeout, a.unroll, a.nondet_range), tasks):
            rows.extend(r)
    table = {}
    wrong, unsup = [], {}
    for task, prop, expected, verdict, why in rows:
        c = classify(expected, verdict)
        exp = {True: "true", False: "false", None: "?"}[expected]
        table.setdefault(prop, {}).setdefault(exp, {}).setdefault(c, 0)
        table[prop][exp][c] += 1
        if c == "wrong":
            wrong.append((task, prop, exp, verdict, why))
        if c == "unsupported":
            key = re.sub(r"^\S+:\d+:\d+: ", "", why)[:90]
            unsup[key] = unsup.get(key, 0) + 1
        print("%-60s %-16s expected %-5s porf %-11s %s" % (os.path.relpath(task, a.tasks), prop, exp, verdict, why[:100]))
    print()
    cols = ["correct", "wrong", "unknown", "unsupported", "timeout"]
    print("%-16s %-8s " % ("property", "expected") + " ".join("%11s" % c for c in cols))
    for prop in sorted(table):
        for exp in sorted(table[prop]):
            print("%-16s %-8s " % (prop, exp) + " ".join("%11d" % table[prop][exp].get(c, 0) for c in cols))
    print("\nwrong verdicts: %d" % len(wrong))
    for w in wrong:
        print("  %s %s expected %s, porf %s: %s" % w)
    print("\nunsupported, by first message:")
    for k, n in sorted(unsup.items(), key=lambda x: -x[1]):
        print("  %3d  %s" % (n, k))
    if a.json:
        json.dump([dict(zip(["task", "property", "expected", "verdict", "note"], r)) for r in rows], open(a.json, "w"), indent=1)
    return 1 if wrong else 0


if __name__ == "__main__":
    sys.exit(main())
