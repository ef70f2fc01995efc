#!/usr/bin/env python3
"""Runs porf over GenMC v0.11.0's test suite (tests/correct and tests/wrong) with the
semantics of GenMC's own driver (scripts/driver.sh, runcorrect.sh, runwrong.sh).

GenMC's tests are not part of porf (keep them out of the repository): pass a GenMC
checkout, or a git directory of MPI-SWS/genmc holding the tag, e.g.

    scripts/genmc_suite.py --genmc /path/to/genmc
    scripts/genmc_suite.py --genmc-git /work/.mirror/MPI-SWS+genmc/repo --json out.json

What the driver does, and so what this script does, per model M:

* correct/{infr,litmus,saver,ipr,sr,liveness,synthetic,data-structures} run with
  coherence `mo`. A directory without `variants/` is skipped. If `args.M.mo.in` exists,
  its lines pair up with those of `expected.M.mo.in` (and `blocked.M.mo.in`): each line
  is `GENMC-ARGS | CLANG-ARGS` (a line without `|` is both) and every variant
  (`variants/*.c`, `*.cpp`) must report that many complete executions. Otherwise the
  first line of `expected.M.mo.in` is the count (a missing file means any count, only
  the verdict is checked). A non-zero exit status (an error found) fails the test. The
  blocked count is checked in `saver` and, unless M is imm, in `ipr` (a missing blocked
  file means 0).
* wrong/{safety,liveness,infr,racy,memory,locking,barriers,helper} run with coherence
  `wb` (`mo` for liveness and helper), clang arguments from the first line of
  `args.M.C.in`, `-unroll=N` from `unroll.in` and checker arguments from `genmc.M.C.in`;
  each variant must exit with status 42 (an error found). The driver suppresses the
  trace diff, so the kind of error is not compared.

The driver's models are rc11 and imm; porf has no IMM, so this script runs rc11 and sc
(`expected.sc.mo.in`). GenMC's suite has no sc expectations for the wrong/ tests: under
sc they are judged as under rc11 (an error must be found), which is wrong for bugs that
need weak memory (such rows are marked in the notes).

GenMC arguments map to porf's: `-unroll=N` to `--unroll N` (GenMC kills a cut thread and
counts the execution as complete, porf blocks it: README "Loop bounds"),
`-disable-race-detection`, `-check-liveness`, `-disable-spin-assume` and `-disable-sr` to porf's flags of
the same name when `porf verify --help` lists them; `-D`, `-I` and `-include FILE` are
passed to the preprocessor (paths relative to GenMC's root). Arguments that tune GenMC's
exploration (symmetry reduction, in-place revisiting, BAM, LAPOR, helper, consistency
checking points) have no porf counterpart and are recorded in the notes.

Each variant is classified:
  passed     same verdict (and count, and blocked count where checked) as GenMC expects
  rejected   porf's front end refuses the program (exit 3); the first message is kept
  timeout    porf's --timeout (default 60 s) stopped the exploration
  differing  another verdict or count (both are recorded)
A directory takes its worst variant's class (rejected > timeout > differing > passed).
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

CORRECT = ["infr", "litmus", "saver", "ipr", "sr", "liveness", "synthetic", "data-structures"]
WRONG = ["safety", "liveness", "infr", "racy", "memory", "locking", "barriers", "helper"]
MODELS = ["rc11", "sc"]
ORDER = {"rejected": 0, "timeout": 1, "differing": 2, "passed": 3}

# GenMC flags that only tune how GenMC explores (no porf counterpart); recorded as notes.
TUNING = {
    "-disable-sr": "GenMC run without symmetry reduction",
    "-disable-ipr": "GenMC run without in-place revisiting",
    "-disable-bam": "GenMC run without barrier-aware model checking",
    "-lapor": "GenMC run with LAPOR",
    "-helper": "GenMC run with Helper",
    "-disable-load-annotation": "GenMC run without load annotation",
}
# GenMC flags that mean nothing for the verdict or the count.
IGNORED = ("-check-consistency-type", "-check-consistency-point", "-disable-estimation",
           "-disable-mm-detector", "-print-error-trace", "-persevere",
           "-disable-stop-on-system-error", "-std", "-Wno-error", "-fno-use-cxa-atexit")


def read_lines(path):
    if not os.path.exists(path):
        return None
    with open(path) as f:
        return f.read().split("\n")


def first_line(path):
    lines = read_lines(path)
    return None if lines is None else lines[0].strip()


def nth_line(path, n):
    lines = read_lines(path)
    if lines is None or n >= len(lines):
        return None
    return lines[n].strip()


def variants(d):
    return sorted(glob.glob(os.path.join(d, "variants", "*.c"))) + \
        sorted(glob.glob(os.path.join(d, "variants", "*.cpp")))


def correct_configs(d, model, cat):
    """[(args line, expected complete or None, expected blocked or None)] as runcorrect.sh."""
    check_blocked = cat == "saver" or (cat == "ipr" and model != "imm")
    coherence = "mo"
    args_f = os.path.join(d, f"args.{model}.{coherence}.in")
    exp_f = os.path.join(d, f"expected.{model}.{coherence}.in")
    blk_f = os.path.join(d, f"blocked.{model}.{coherence}.in")
    out = []
    if os.path.exists(args_f):
        args = open(args_f).read().split("\n")
        exps = (read_lines(exp_f) or [])
        # `while read a <&3 && read e <&4`: stops at the end of either file (a last line
        # without a newline still counts, an empty trailing field does not).
        if args and args[-1] == "":
            args = args[:-1]
        if exps and exps[-1] == "":
            exps = exps[:-1]
        for i, (a, e) in enumerate(zip(args, exps)):
            b = nth_line(blk_f, i) if check_blocked else None
            out.append((a, e.strip() or None, (b or "0") if check_blocked else None))
    else:
        e = first_line(exp_f)
        b = first_line(blk_f) if check_blocked else None
        out.append(("", e or None, (b or "0") if check_blocked else None))
    return out


def split_args(line):
    """GENMC-ARGS | CLANG-ARGS; `cut -f1/-f2 -d'|'` gives the whole line for both when
    there is no `|`."""
    if "|" in line:
        g, c = line.split("|", 1)
        c = c.split("|", 1)[0]
    else:
        g = c = line
    return shlex.split(g), shlex.split(c)


def resolve(genmc_root, p):
    """Paths in GenMC's argument files are relative to its root (`./tests/...`) or to a
    build directory below it (`../tests/...`)."""
    if os.path.isabs(p):
        return p
    for base in (genmc_root, os.path.join(genmc_root, "build")):
        q = os.path.normpath(os.path.join(base, p))
        if os.path.exists(q):
            return q
    return os.path.normpath(os.path.join(genmc_root, p))


def porf_args(genmc_args, clang_args, genmc_root, porf_flags):
    """(porf arguments, files to -include, notes)."""
    args, includes, notes = [], [], []
    # A line without `|` is given to both GenMC and clang: take it once.
    toks = genmc_args + (clang_args if clang_args != genmc_args else [])
    i = 0
    while i < len(toks):
        t = toks[i]
        i += 1
        name = t.split("=", 1)[0]
        if t.startswith("-D") and len(t) > 2:
            args += ["-D", t[2:]]
        elif t == "-D" and i < len(toks):
            args += ["-D", toks[i]]
            i += 1
        elif t.startswith("-I") and len(t) > 2:
            args += ["-I", resolve(genmc_root, t[2:])]
        elif t == "-include" and i < len(toks):
            includes.append(resolve(genmc_root, toks[i]))
            i += 1
        elif name == "-unroll":
            args += ["--unroll", t.split("=", 1)[1]]
        elif name in ("-disable-race-detection", "-check-liveness", "-disable-spin-assume",
                      "-disable-sr"):
            flag = "-" + name
            if flag in porf_flags:
                args.append(flag)
            else:
                notes.append(f"GenMC run with {name} (porf has no such flag)")
        elif name == "-no-unroll":
            notes.append(f"GenMC does not unroll {t.split('=', 1)[1]}")
        elif name in TUNING:
            notes.append(TUNING[name])
        elif name.startswith(IGNORED):
            pass
        else:
            notes.append(f"unknown GenMC argument {t}")
    return args, includes, notes


def run_porf(path, model, args, includes, timeout, tmpdir):
    """One porf run: a dict with exit, verdict, complete, blocked, message."""
    target = path
    if includes:
        # `clang -include F x.c`: F's text comes first. A wrapper in a temporary
        # directory does the same for porf.
        fd, target = tempfile.mkstemp(suffix=".c", dir=tmpdir)
        with os.fdopen(fd, "w") as f:
            for inc in includes + [path]:
                f.write(f'#include "{inc}"\n')
    cmd = [PORF, "verify", target, "--model", model, "--json", "--timeout", str(timeout)] + args
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout + 60)
    except subprocess.TimeoutExpired:
        return {"exit": None, "class": "timeout", "message": "killed after the limit"}
    r = {"exit": p.returncode, "cmd": " ".join(shlex.quote(c) for c in cmd[1:])}
    if p.returncode == 3 or p.returncode == 2:
        msg = next((ln for ln in p.stderr.splitlines() if ln.strip()), "")
        if not msg:
            msg = next((ln for ln in p.stdout.splitlines() if ln.strip()), "")
        r.update({"class": "rejected", "message": msg.replace(tmpdir + "/", "")})
        return r
    try:
        j = json.loads(p.stdout)
    except ValueError:
        msg = (p.stderr.strip().splitlines() or ["no output"])[-1]
        r.update({"class": "rejected", "message": f"exit {p.returncode}: {msg}"})
        return r
    r.update({"verdict": j.get("verdict"), "complete": j.get("complete"),
              "blocked": j.get("blocked"), "bound_cut": j.get("bound_cut", 0),
              "stopped_by": j.get("stopped_by"),
              "errors": [e.get("message") for e in j.get("errors", [])][:1]})
    if j.get("stopped_by") == "timeout" and p.returncode == 4:
        r["class"] = "timeout"
    return r


def judge(kind, r, expected, blocked):
    """Fills r['class'] for a finished run, with r['want'] and r['got']."""
    if "class" in r:
        return r
    if kind == "wrong":
        r["want"] = "error"
        r["got"] = f"{r['verdict']}: {r['errors'][0]}" if r["errors"] else \
            f"{r['verdict']}, {r['complete']} complete"
        r["class"] = "passed" if r["exit"] == 42 else "differing"
        return r
    want = "safe"
    # GenMC's "no errors" under -unroll is porf's "no errors up to the bound" (exit 4,
    # stopped by a bound, not by the time limit).
    ok = r["exit"] == 0 or (r["exit"] == 4 and r.get("stopped_by") in ("loop bound", "recursion limit"))
    if expected is not None:
        want += f", {expected} complete"
        ok = ok and str(r["complete"]) == expected
    if blocked is not None:
        want += f", {blocked} blocked"
        ok = ok and str(r["blocked"]) == blocked
    r["want"] = want
    if r["errors"]:
        r["got"] = f"{r['verdict']}: {r['errors'][0]}"
    else:
        r["got"] = f"{r['verdict']}, {r['complete']} complete, {r['blocked']} blocked"
        if r.get("bound_cut"):
            r["got"] += f" ({r['bound_cut']} cut by --unroll)"
    r["class"] = "passed" if ok else "differing"
    return r


def collect(base, genmc_root, model, porf_flags):
    """[(test name, kind, [(variant, porf args, includes, expected, blocked, notes)])]."""
    tests = []
    for kind, cats in (("correct", CORRECT), ("wrong", WRONG)):
        for cat in cats:
            cdir = os.path.join(base, kind, cat)
            if not os.path.isdir(cdir):
                continue
            for name in sorted(os.listdir(cdir)):
                d = os.path.join(cdir, name)
                if not os.path.isdir(os.path.join(d, "variants")) or not variants(d):
                    continue
                runs = []
                if kind == "correct":
                    for line, exp, blk in correct_configs(d, model, cat):
                        g, c = split_args(line)
                        a, inc, notes = porf_args(g, c, genmc_root, porf_flags)
                        for v in variants(d):
                            runs.append((v, a, inc, exp, blk, notes))
                else:
                    coh = "mo" if cat in ("liveness", "helper") else "wb"
                    clang = first_line(os.path.join(d, f"args.{model}.{coh}.in")) or ""
                    checker = open(os.path.join(d, f"genmc.{model}.{coh}.in")).read().split() \
                        if os.path.exists(os.path.join(d, f"genmc.{model}.{coh}.in")) else []
                    unroll = first_line(os.path.join(d, "unroll.in"))
                    g = checker + ([f"-unroll={unroll}"] if unroll else [])
                    a, inc, notes = porf_args(g, shlex.split(clang), genmc_root, porf_flags)
                    if model != "rc11" and model != "imm":
                        notes = notes + [f"no {model} expectation in GenMC's suite"]
                    for v in variants(d):
                        runs.append((v, a, inc, None, None, notes))
                tests.append((f"{kind}/{cat}/{name}", kind, runs))
    return tests


def run_test(test, model, timeout, tmpdir):
    name, kind, runs = test
    results = []
    worst = None
    for v, a, inc, exp, blk, notes in runs:
        r = judge(kind, run_porf(v, model, a, inc, timeout, tmpdir), exp, blk)
        r["variant"] = os.path.basename(v)
        r["notes"] = notes
        results.append(r)
        if worst is None or ORDER[r["class"]] < ORDER[worst["class"]]:
            worst = r
        if r["class"] in ("rejected", "timeout"):
            break  # the other variants would not change the directory's class
    return {"test": name, "model": model, "class": worst["class"], "worst": worst,
            "variants": results}


def describe(res):
    w = res["worst"]
    if w["class"] == "rejected":
        text = w["message"]
    elif w["class"] == "timeout":
        text = "stopped by the time limit"
    elif w["class"] == "differing":
        text = f"GenMC: {w.get('want')}; porf: {w.get('got')}"
    else:
        text = ""
    notes = sorted(set(n for r in res["variants"] for n in r.get("notes", [])))
    if notes and w["class"] != "passed":
        text += " [" + "; ".join(notes) + "]"
    return text


def main():
    global PORF
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    g = ap.add_mutually_exclusive_group(required=True)
    g.add_argument("--genmc", help="a GenMC source checkout (holding tests/)")
    g.add_argument("--genmc-git", help="a git directory of MPI-SWS/genmc")
    ap.add_argument("--tag", default="v0.11.0")
    ap.add_argument("--porf", help=f"the porf binary (default {PORF})")
    ap.add_argument("--model", action="append", choices=["rc11", "sc"],
                    help="run only this model (repeatable; default rc11 and sc)")
    ap.add_argument("--timeout", type=int, default=60, help="seconds per variant (default 60)")
    ap.add_argument("--jobs", type=int, default=1, help="porf runs in parallel (default 1)")
    ap.add_argument("--filter", default="", help="run only tests whose name contains this")
    ap.add_argument("--json", help="save every result to this file")
    ap.add_argument("--markdown", action="store_true", help="print the table as Markdown")
    ap.add_argument("--compare", metavar="BEFORE.json",
                    help="also print a per-directory before/after Markdown table against the "
                         "results saved (--json) by an earlier run")
    ap.add_argument("--results", metavar="AFTER.json",
                    help="with --compare: take this run's results from a saved file instead "
                         "of running porf")
    a = ap.parse_args()
    if a.results:
        if not a.compare:
            sys.exit("--results needs --compare")
        compare(json.load(open(a.compare))["results"], json.load(open(a.results))["results"])
        return
    PORF = os.path.abspath(a.porf) if a.porf else PORF
    if not os.path.exists(PORF):
        sys.exit(f"build porf first: cargo build --release ({PORF} is missing)")
    porf_flags = set(re.findall(r"--[a-z-]+", subprocess.run(
        [PORF, "verify", "--help"], capture_output=True, text=True).stdout))
    tmp = tempfile.TemporaryDirectory()
    if a.genmc_git:
        archive = subprocess.run(["git", "--git-dir", a.genmc_git, "archive", a.tag, "tests"],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp.name], input=archive, check=True)
        genmc_root = tmp.name
    else:
        genmc_root = os.path.abspath(a.genmc)
    base = os.path.join(genmc_root, "tests")
    wrappers = os.path.join(tmp.name, "wrappers")
    os.makedirs(wrappers, exist_ok=True)
    all_results = []
    summary = []
    for model in a.model or MODELS:
        tests = [t for t in collect(base, genmc_root, model, porf_flags) if a.filter in t[0]]
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
            results = list(ex.map(lambda t: run_test(t, model, a.timeout, wrappers), tests))
        counts = {k: 0 for k in ORDER}
        if a.markdown:
            print(f"\n### {model}\n\n| test | result | detail |\n|---|---|---|")
        for res in results:
            counts[res["class"]] += 1
            text = describe(res).replace(genmc_root + "/", "").replace("|", "\\|")
            if a.markdown:
                print(f"| `{res['test']}` | {res['class']} | {text} |")
            else:
                print(f"{model:5} {res['class']:9} {res['test']}  {text}".rstrip())
            sys.stdout.flush()
        line = (f"{model}: {counts['passed']} passed, {counts['rejected']} rejected, "
                f"{counts['timeout']} timeout, {counts['differing']} differing "
                f"({len(results)} directories)")
        summary.append(line)
        print(line if not a.markdown else f"\n{line}")
        all_results += results
    for line in summary:
        print(line)
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "results": all_results}, f, indent=1)
    if a.compare:
        compare(json.load(open(a.compare))["results"], all_results)


def compare(before, after):
    """Prints, as Markdown, every directory's class per model before and after, the
    totals, and how many directories moved from one class to another."""
    models = sorted({r["model"] for r in after}, key=lambda m: MODELS.index(m)
                    if m in MODELS else 99)
    b = {(r["test"], r["model"]): r for r in before}
    x = {(r["test"], r["model"]): r for r in after}
    tests = sorted({t for t, _ in x})
    head = " | ".join(f"{m} before | {m} after" for m in models)
    print(f"\n| directory | {head} | after: detail ({models[0]}, else {models[-1]}) |")
    print("|---|" + "---|---|" * len(models) + "---|")
    moves = {}
    for t in tests:
        cells = []
        detail = ""
        for m in models:
            old = b.get((t, m), {}).get("class", "-")
            new = x[(t, m)]["class"] if (t, m) in x else "-"
            cells += [old, new]
            moves[(m, old, new)] = moves.get((m, old, new), 0) + 1
            if not detail and (t, m) in x and new != "passed":
                detail = describe(x[(t, m)]).replace("|", "\\|")
        print(f"| `{t}` | " + " | ".join(cells) + f" | {detail} |")
    print()
    for m in models:
        for label, res in (("before", [r for r in before if r["model"] == m]),
                           ("after", [r for r in after if r["model"] == m])):
            c = {k: sum(1 for r in res if r["class"] == k) for k in ORDER}
            print(f"{m} {label}: {c['passed']} passed, {c['rejected']} rejected, "
                  f"{c['timeout']} timeout, {c['differing']} differing ({len(res)} directories)")
    print()
    for (m, old, new), n in sorted(moves.items()):
        if old != new:
            print(f"{m}: {old} -> {new}: {n}")


if __name__ == "__main__":
    main()
