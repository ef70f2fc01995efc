#!/usr/bin/env python3
"""Runs porf over Dat3M's C benchmarks (benchmarks/**/*.c) under rc11 and tso, and
compares with the verdicts Dat3M's own tests expect.

Dat3M's files are not part of porf (keep them out of the repository): pass a checkout,
or a git directory of hernanponcedeleon/Dat3M, e.g.

    scripts/dat3m_suite.py --dat3m /path/to/Dat3M
    scripts/dat3m_suite.py --dat3m-git /work/.mirror/hernanponcedeleon+Dat3M/repo

Every `.c` file under `benchmarks/` is run as is with `-I include` (Dat3M's headers:
dat3m.h, lkmm.h, rcu.h), once per model. Dat3M's expectations live in its JUnit tests
(`dartagnan/src/test/java/com/dat3m/dartagnan/llvm/*.java`): rows `{"name", TARGET,
RESULT[, bound]}` for a compiled benchmark `<dir>/<name>.ll`, checked under a memory model
given by name (`createWmmFromName`) or by the target architecture, for the property
`program_spec` (assertions; classes that check termination or trackability are not
compared). The model mapping, which is the honest part:

* porf `rc11` <- Dat3M's `rc11` model (RC11, Lahav et al., PLDI 2017: the same model).
  Where Dat3M has no rc11 row, its `c11` model's row is used and marked `c11`: c11 allows
  load-buffering cycles (po ∪ rf) that RC11 forbids, so a c11 FAIL may be an RC11 PASS.
* porf `tso` <- rows with target TSO checked under the architecture's model (x86-TSO; Dat3M
  compiles LLVM's atomics to it; porf reads C11 atomics as their x86 compilation does).
* No other model of Dat3M's (imm, vmm, lkmm, arm8, power, riscv, opencl, ...) is porf's.

A row names a variant of a file: `ttas-acq2rx` is `locks/ttas.c` with `-DACQ2RX`, and so
`-rel2rx` `-DREL2RX`, `-fail` and `-CAS-relaxed` `-DFAIL` (in the lfds headers FAIL makes
the CAS relaxed): the suffix's define, when the file or a header of its directory tests
it. Rows whose variant has no define in the current sources (e.g. `mutex-acq2rx_futex`,
built from an older source) are listed, not run. Variants with defines are run besides
the plain file.

Dat3M unrolls every loop `bound` times (1 unless the class or the row says) and answers UNKNOWN when
an execution reached the bound without an assertion failing. porf runs without `--unroll`
(spin-assume ends spin loops; `__VERIFIER_loop_bound` hints still cut their loops), with
`--disable-race-detection` (Dat3M's tests check assertions only, not data races; pass
`--races` to keep porf's race detection) and `--threads 1`. Classes:

  passed     the verdicts agree: PASS and FAIL as Dat3M says; Dat3M's UNKNOWN (no error up
             to its bound) agrees with porf's "safe" and "up to the bound". Dat3M's FAIL is
             a failing assertion: when porf's first error is of another kind (a memory
             error), porf runs again with --keep-going and the row passes only if an
             assertion fails too
  unknown    porf's answer holds up to a bound (exit 4: a hint or the recursion limit cut
             an execution) where Dat3M says PASS or FAIL
  differing  another verdict (an error where Dat3M says PASS or UNKNOWN, or none where it
             says FAIL)
  unchecked  no Dat3M expectation for this model: porf's verdict is shown
  rejected   porf refuses the program (exit 3): the first message is kept
  timeout    porf's --timeout stopped the exploration
"""

import argparse
import concurrent.futures
import glob
import json
import os
import re
import shlex
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PORF = os.path.join(ROOT, "target", "release", "porf")
MODELS = ["rc11", "tso"]
CLASSES = ["passed", "unknown", "differing", "unchecked", "rejected", "timeout"]
TESTS = "dartagnan/src/test/java/com/dat3m/dartagnan/llvm"
# Suffixes whose define is not the suffix upper-cased.
ALIASES = {"cas-relaxed": "FAIL", "fail": "FAIL"}


def parse_tests(root):
    """{(rel path without .ll, porf model): (result, bound, Dat3M model, class)}."""
    rows = {}
    for path in sorted(glob.glob(os.path.join(root, TESTS, "*.java"))):
        text = open(path).read()
        cls = os.path.basename(path)[:-5]
        if re.search(r"Property\.(TERMINATION|TRACKABILITY|CAT_SPEC|DATARACEFREEDOM)", text):
            continue
        m = re.search(r'getTestResourcePath\("([^"]*)"\s*\+\s*name', text)
        prefix = m.group(1) if m else ""
        m = re.search(r'createWmmFromName\(\(\)\s*->\s*"([^"]+)"\)', text)
        wmm = m.group(1) if m else None
        m = re.search(r'getBoundProvider\(\)\s*\{\s*return\s*\(\)\s*->\s*(\d+)', text)
        class_bound = int(m.group(1)) if m else 1
        for line in text.splitlines():
            if line.strip().startswith("//"):
                continue
            r = re.search(r'\{"([^"]+)",\s*(\w+),\s*(PASS|FAIL|UNKNOWN)(?:,\s*(\d+))?\}', line)
            if not r:
                continue
            name, target, result, bound = r.group(1), r.group(2), r.group(3), r.group(4)
            model = wmm or target.lower()
            porf_model = {"rc11": "rc11", "c11": "rc11", "tso": "tso"}.get(model)
            if porf_model is None:
                continue
            key = (prefix + name, porf_model)
            # An rc11 row wins over a c11 one.
            if key in rows and rows[key][2] == "rc11" and model != "rc11":
                continue
            rows[key] = (result, int(bound) if bound else class_bound, model, cls)
    return rows


def defines_tested(cfile):
    """The macros `#ifdef`/`#ifndef`/`#if defined()` test in a file and the files it
    includes with `#include "..."` (transitively)."""
    names, seen, todo = set(), set(), [cfile]
    while todo:
        p = todo.pop()
        if p in seen or not os.path.exists(p):
            continue
        seen.add(p)
        text = open(p, errors="replace").read()
        for m in re.finditer(r"#\s*if(?:n?def)?\s+(?:defined\s*\(?\s*)?(\w+)|defined\s*\(\s*(\w+)",
                             text):
            names.add(m.group(1) or m.group(2))
        for m in re.finditer(r'#\s*include\s*"([^"]+)"', text):
            todo.append(os.path.join(os.path.dirname(p), m.group(1)))
    return names


def variant(bench, name):
    """(file, [defines]) for the test name `dir/name`, or None if not reproducible."""
    direct = os.path.join(bench, name + ".c")
    if os.path.exists(direct):
        return direct, []
    d, base = os.path.split(name)
    cands = sorted((f for f in glob.glob(os.path.join(bench, d, "*.c"))
                    if base.startswith(os.path.basename(f)[:-2] + "-")),
                   key=len, reverse=True)
    for f in cands:
        suffix = base[len(os.path.basename(f)) - 2 + 1:]
        define = ALIASES.get(suffix.lower(), suffix.upper().replace("-", "_"))
        if define in defines_tested(f):
            return f, [define]
    return None


def run_porf(root, cfile, defines, model, timeout, races, keep_going=False):
    rel = os.path.relpath(cfile, root)
    cmd = [PORF, "verify", cfile, "--model", model, "--json", "--no-progress",
           "--threads", "1", "--timeout", str(timeout), "-I", os.path.join(root, "include")]
    if not races:
        cmd.append("--disable-race-detection")
    if keep_going:
        cmd.append("--keep-going")
    for d in defines:
        cmd += ["-D", d]
    r = {"file": rel, "defines": defines, "model": model,
         "cmd": " ".join(shlex.quote(c) for c in cmd[1:]).replace(root + "/", "")}
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        r.update({"class": "timeout", "got": "killed after the limit"})
        return r
    r["exit"] = p.returncode
    if p.returncode in (2, 3):
        msg = next((ln for ln in p.stderr.splitlines()
                    if ln.strip() and ": warning: " not in ln), "")
        if not msg:
            msg = next((ln for ln in p.stdout.splitlines() if ln.strip()), "")
        r.update({"class": "rejected", "got": msg.replace(root + "/", "")})
        return r
    try:
        j = json.loads(p.stdout)
    except ValueError:
        msg = (p.stderr.strip().splitlines() or ["no output"])[-1]
        r.update({"class": "rejected", "got": f"exit {p.returncode}: {msg}"})
        return r
    if j.get("stopped_by") == "timeout" and p.returncode == 4:
        r.update({"class": "timeout", "got": f"stopped by the time limit ({j['complete']} complete)"})
        return r
    if p.returncode == 42:
        e = j["errors"][0]
        r["verdict"] = "FAIL"
        r["kinds"] = sorted({x.get("kind") for x in j["errors"]})
        r["got"] = f"FAIL ({e.get('kind')}: {e.get('message')})"
    elif p.returncode == 0:
        r["verdict"] = "PASS"
        r["got"] = f"PASS ({j['complete']} complete)"
    elif p.returncode == 4:
        r["verdict"] = "UNKNOWN"
        r["got"] = f"UNKNOWN (up to the {j.get('stopped_by')}, {j['complete']} complete)"
    else:
        r.update({"class": "rejected", "got": f"exit {p.returncode}"})
    return r


def run_and_judge(root, cfile, defines, model, timeout, races, expected):
    """One run, judged; an expected FAIL (an assertion in Dat3M's tests) met by another
    kind of error first is run again with --keep-going, to see whether an assertion
    fails too."""
    r = judge(run_porf(root, cfile, defines, model, timeout, races), expected)
    if r["class"] == "passed" and expected and expected[0] == "FAIL" \
            and "assertion" not in r.get("kinds", []):
        k = run_porf(root, cfile, defines, model, timeout, races, keep_going=True)
        if "assertion" in k.get("kinds", []):
            r["got"] += "; with --keep-going an assertion fails too"
        else:
            r["class"] = "differing"
            r["got"] += f"; with --keep-going no assertion fails ({k.get('got')})"
    return r


def judge(r, expected):
    if expected is not None:
        want, bound, dmodel, cls = expected
        r["want"] = f"{want} ({dmodel}, bound {bound}, {cls})"
    if "class" in r:
        return r
    if expected is None:
        r["class"] = "unchecked"
        return r
    got = r["verdict"]
    if want == "UNKNOWN":
        r["class"] = "passed" if got in ("PASS", "UNKNOWN") else "differing"
    elif got == want:
        r["class"] = "passed"
    elif got == "UNKNOWN":
        r["class"] = "unknown"
    else:
        r["class"] = "differing"
    return r


def main():
    global PORF
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--dat3m", help="a Dat3M checkout (holding benchmarks/, include/, dartagnan/)")
    g.add_argument("--dat3m-git", help="a git directory of hernanponcedeleon/Dat3M")
    ap.add_argument("--rev", default="HEAD", help="with --dat3m-git: the revision (default HEAD)")
    ap.add_argument("--porf", help=f"the porf binary (default {PORF})")
    ap.add_argument("--model", action="append", choices=MODELS,
                    help="run only this model (repeatable; default rc11 and tso)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per run (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="porf runs in parallel (default 1)")
    ap.add_argument("--filter", default="", help="run only files whose path contains this")
    ap.add_argument("--races", action="store_true",
                    help="keep porf's data-race detection (Dat3M's tests check assertions only)")
    ap.add_argument("--json", help="save every result to this file")
    ap.add_argument("--markdown", action="store_true", help="print the tables as Markdown")
    a = ap.parse_args()
    PORF = os.path.abspath(a.porf) if a.porf else PORF
    if not os.path.exists(PORF):
        sys.exit(f"build porf first: cargo build --release ({PORF} is missing)")
    tmp = tempfile.TemporaryDirectory()
    if a.dat3m_git:
        archive = subprocess.run(["git", "--git-dir", a.dat3m_git, "archive", a.rev,
                                  "benchmarks", "include", TESTS],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp.name], input=archive, check=True)
        root = tmp.name
    else:
        root = os.path.abspath(a.dat3m)
    bench = os.path.join(root, "benchmarks")
    expected = parse_tests(root)
    # The runs: every file as is, then every variant a test names that has a define.
    runs = {}
    for f in sorted(glob.glob(os.path.join(bench, "**", "*.c"), recursive=True)):
        runs[(f, ())] = os.path.relpath(f, bench)[:-2]
    skipped = set()
    for (name, _model) in expected:
        v = variant(bench, name)
        if v is None:
            skipped.add(name)
        elif v[1]:
            runs.setdefault((v[0], tuple(v[1])), name)
    if a.filter:
        runs = {k: n for k, n in runs.items() if a.filter in os.path.relpath(k[0], root)}
    results, summary = [], []
    for model in a.model or MODELS:
        jobs = sorted(runs.items(), key=lambda kv: (kv[0][0], kv[0][1]))
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            res = list(ex.map(lambda kv: run_and_judge(
                root, kv[0][0], list(kv[0][1]), model, a.timeout, a.races,
                expected.get((kv[1], model))), jobs))
        counts = {c: 0 for c in CLASSES}
        if a.markdown:
            print(f"\n### {model}\n\n| benchmark | result | Dat3M expects | porf |\n|---|---|---|---|")
        for r in res:
            counts[r["class"]] += 1
            name = r["file"].removeprefix("benchmarks/") + \
                "".join(f" -D{d}" for d in r["defines"])
            want = r.get("want", "")
            got = r.get("got", "")
            if a.markdown:
                got_md = got.replace("|", "\\|")
                print(f"| `{name}` | {r['class']} | {want} | {got_md} |")
            else:
                print(f"{model:4} {r['class']:9} {name}  [{want}] {got}".rstrip())
            sys.stdout.flush()
        line = f"{model}: " + ", ".join(f"{counts[c]} {c}" for c in CLASSES) + \
            f" ({len(res)} runs)"
        summary.append(line)
        results += res
    print()
    for line in summary:
        print(line)
    if skipped:
        print(f"Dat3M test rows not run (no define in the current sources makes the variant): "
              f"{', '.join(sorted(skipped))}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"results": results, "summary": summary,
                       "skipped_variants": sorted(skipped)}, f, indent=1)


if __name__ == "__main__":
    main()
