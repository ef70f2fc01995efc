#!/usr/bin/env python3
"""Runs Dat3M's litmus corpus through porf: by default parses it (`porf litmus
--parse-only`), with `--run` checks every test and compares porf's verdict with the one
Dat3M expects.

Dat3M's files are not part of porf (keep them out of the repository): pass a checkout,
or a git directory of hernanponcedeleon/Dat3M, e.g.

    scripts/dat3m_litmus.py --dat3m /path/to/Dat3M
    scripts/dat3m_litmus.py --dat3m-git /work/.mirror/hernanponcedeleon+Dat3M/repo --arch PPC
    scripts/dat3m_litmus.py --dat3m /path/to/Dat3M --run --arch X86

The folders are `litmus/{AARCH64,RISCV,PPC,X86}` (every `*.litmus` below them; `--run`
also knows `LKMM`, C tests run with `--model lkmm`).

Parsing: for each folder the script prints the number of tests, how many parsed, how
many porf refuses as unsupported (grouped by construct, the ten most frequent) and how
many are malformed (an error that is not "unsupported"), then every file that did not
parse with its message (`--quiet` leaves that list out). The exit status is 0 when every
folder parsed at least `--target` percent of its tests (99.5 by default), else 1.

Running (`--run`): each test runs as `porf litmus --json FILE` (under the
architecture's model unless `--model`/`--model-file` says otherwise; `--jobs` at once,
each stopped after `--timeout` seconds). Dat3M's expected verdicts are in
`dartagnan/src/test/resources/{ARM8,RISCV,PPC,TSO,LKMM}-expected.csv`, lines
`litmus/ARCH/.../NAME.litmus,B`: Dat3M reads B = 1 as PASS and 0 as FAIL
(`ResourceHelper.getExpectedResults`), and PASS is herd's `Ok`: the condition holds
(`exists`: some execution satisfies it; `~exists`: none does; `forall`: all do). So
AARCH64's `Fence2/MP+dmb.sys.litmus` (exists the message-passing outcome, forbidden with
full barriers) is 0 and `Fence2/MP.litmus` is 1. For each folder the script prints `N
passed, M failed, K not run` (a test passes when porf's `Ok`/`No` equals the expected
one), the share of the folder that passed, porf's own time on the answered tests (total,
median, 90th percentile, maximum, as each run's JSON says), then every disagreement (porf's observation
and counts, the expected verdict) and every test porf could not run with the reason
(`--quiet` leaves the lists out). The exit status is 0 when every folder passed at least
`--target` percent of its tests with an expected verdict, else 1 (tests Dat3M gives no
verdict for are listed, not counted). A test porf cannot answer because one of its loops
never ends (a store-conditional that may fail for ever) is rerun bounded as herd bounds
it (`--herd-unroll K`, herd7's `-unroll` default 2, is porf's `--unroll K+1`): its answer
holds up to the bound, as herd's does, and the tally says how many passed so.
`--under SUB` runs (or parses) only the tests
below `litmus/ARCH/SUB`.
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
# The expected-verdict file of each folder, and the model a folder's tests need
# beyond their architecture's default.
EXPECTED = {"AARCH64": "ARM8", "RISCV": "RISCV", "PPC": "PPC", "X86": "TSO", "LKMM": "LKMM"}
FOLDER_MODEL = {"LKMM": "lkmm"}
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


def expected_verdicts(root, arch):
    """{path relative to root: True (herd's Ok) / False (No)} from Dat3M's CSV."""
    f = os.path.join(root, "dartagnan", "src", "test", "resources",
                     f"{EXPECTED[arch]}-expected.csv")
    out = {}
    if not os.path.exists(f):
        return None
    with open(f) as h:
        for line in h:
            line = line.strip()
            if not line or line.startswith("//"):
                continue
            parts = line.split(",")
            if len(parts) == 2:
                out[os.path.normpath(parts[0])] = parts[1].strip() == "1"
    return out


def run_one(porf, f, extra, timeout):
    """(json object, None) or (None, reason)."""
    try:
        r = subprocess.run([porf, "litmus", "--json", "--threads", "1", *extra, f],
                           capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return None, f"timeout after {timeout} s"
    lines = [x for x in r.stdout.splitlines() if x.strip()]
    if r.returncode in (0, 4) and lines:
        o = json.loads(lines[-1])
        return o, None
    err = r.stderr.strip().splitlines()
    reason = err[0] if err else f"exit {r.returncode}"
    # Drop the file's path from the message: the list names the file.
    reason = re.sub(r"^\S*?:\d+:\d+: ", "", reason)
    return None, reason


def run_folder(a, root, arch, files):
    """Runs every test of one folder; prints the tally; True if it met the target."""
    import concurrent.futures
    expected = expected_verdicts(root, arch)
    if expected is None:
        print(f"{arch}: no {EXPECTED[arch]}-expected.csv under {root}/dartagnan/src/test/resources")
        return False
    extra = []
    if a.model_file:
        extra += ["--model-file", a.model_file]
    elif a.model:
        extra += ["--model", a.model]
    elif arch in FOLDER_MODEL:
        extra += ["--model", FOLDER_MODEL[arch]]
    if a.unroll is not None:
        extra += ["--unroll", str(a.unroll)]
    def run(f):
        o, reason = run_one(a.porf, f, extra, a.timeout)
        # A loop that never ends leaves porf without a verdict (its execution grows to
        # porf's event limit, or past the time limit first); herd answers such a test
        # up to its unrolling bound, and so does the rerun: `loop_cut` in its JSON if
        # the bound cut an execution, else its answer is complete.
        if (o is None and a.unroll is None and a.herd_unroll >= 0
                and ("--max-events-per-execution" in reason or reason.startswith("timeout"))):
            return run_one(a.porf, f, extra + ["--unroll", str(a.herd_unroll + 1)], a.timeout)
        return o, reason

    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        results = dict(zip(files, ex.map(run, files)))
    passed, failed, not_run, no_expect = [], [], [], []
    bounded_passed = 0
    for f in files:
        rel = os.path.normpath(os.path.relpath(f, root))
        o, reason = results[f]
        if rel not in expected:
            no_expect.append(rel)
            continue
        if o is None:
            not_run.append((rel, reason))
            continue
        ok = o["verdict"] == "Ok"
        bounded = " (up to the --unroll bound)" if o.get("loop_cut") else ""
        if o["verdict"] == "Undef":
            failed.append((rel, f"porf: Undef (a data race), expected "
                                 f"{'Ok' if expected[rel] else 'No'}"))
        elif ok == expected[rel]:
            passed.append(rel)
            bounded_passed += 1 if o.get("loop_cut") else 0
        else:
            failed.append((rel, f"porf: {o['verdict']} ({o['kind']}, {o['observation']} "
                                 f"{o['positive']} {o['negative']}){bounded}, expected "
                                 f"{'Ok' if expected[rel] else 'No'}"))
    n = len(files) - len(no_expect)
    pct = 100.0 * len(passed) / n if n else 0.0
    ok = pct >= a.target
    print(f"{arch}: {len(passed)} passed ({bounded_passed} of them up to the loop bound), "
          f"{len(failed)} failed, {len(not_run)} not run "
          f"(of {n} tests with an expected verdict; {pct:.2f}% passed), "
          f"{len(no_expect)} without one{'' if ok else '  BELOW TARGET'}")
    times = sorted(o["time_s"] for o, _ in results.values() if o is not None)
    if times:
        print(f"{arch}: porf's time on the {len(times)} answered tests: {sum(times):.1f} s, "
              f"median {1000 * times[len(times) // 2]:.1f} ms, "
              f"90th percentile {1000 * times[(9 * len(times)) // 10]:.1f} ms, "
              f"max {times[-1]:.2f} s (one thread each)")
    if not a.quiet:
        for rel, why in failed:
            print(f"  disagrees: {rel}: {why}")
        # Grouped by the reason with its quoted parts and positions left out.
        def kind(r):
            r = re.sub(r"`[^`]*`", "`…`", r)
            return re.sub(r"\([^)]*\.litmus[^)]*\)", "(…)", r)
        reasons = collections.Counter(kind(r) for _, r in not_run)
        for r, k in reasons.most_common():
            print(f"  not run ({k}): {r}")
            for rel, why in not_run:
                if kind(why) == r:
                    print(f"    {rel}: {why}")
        for rel in no_expect:
            print(f"  no expected verdict: {rel}")
    return ok


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
    ap.add_argument("--arch", choices=ARCHES + ["LKMM"], action="append",
                    help="only this folder (repeatable; default: the four assembly ones)")
    ap.add_argument("--under", help="only the tests below this subfolder of each folder "
                    "(e.g. `mixed`, `manual/locked`)")
    ap.add_argument("--run", action="store_true",
                    help="run the tests and compare with Dat3M's expected verdicts")
    ap.add_argument("--model", help="--run: the model for every test (porf's name)")
    ap.add_argument("--model-file", help="--run: a cat model for every test")
    ap.add_argument("--unroll", type=int, help="--run: porf litmus --unroll N for every test")
    ap.add_argument("--herd-unroll", type=int, default=2,
                    help="--run, without --unroll: a test porf cannot answer because a loop "
                         "never ends is rerun bounded as herd7's `-unroll K` (porf's "
                         "--unroll K+1; herd's default K = 2), its answer counted as "
                         "holding up to the bound; -1: no rerun")
    ap.add_argument("--jobs", type=int, default=2, help="--run: tests at once (2)")
    ap.add_argument("--timeout", type=float, default=120.0,
                    help="--run: seconds per test (120)")
    ap.add_argument("--porf", default=porf_default(), help="the porf binary")
    ap.add_argument("--target", type=float, default=99.5,
                    help="percentage of each folder that must parse (99.5)")
    ap.add_argument("--quiet", action="store_true", help="no list of failing files")
    a = ap.parse_args()

    tmp = None
    root = a.dat3m
    if a.dat3m_git:
        tmp = tempfile.TemporaryDirectory()
        paths = ["litmus"] + (["dartagnan/src/test/resources"] if a.run else [])
        archive = subprocess.run(["git", "--git-dir", a.dat3m_git, "archive", a.rev, *paths],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", tmp.name], input=archive, check=True)
        root = tmp.name
    ok_all = True
    for arch in a.arch or ARCHES:
        d = os.path.join(root, "litmus", arch)
        if a.under:
            d = os.path.join(d, a.under)
        files = sorted(glob.glob(os.path.join(d, "**", "*.litmus"), recursive=True))
        if not files:
            print(f"{arch}: no tests under {d}")
            ok_all = False
            continue
        if a.run:
            ok_all &= run_folder(a, root, arch, files)
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


def lkmm_main(argv):
    """`dat3m_litmus.py lkmm --dat3m PATH`: runs Dat3M's `litmus/LKMM` tests under porf's
    `lkmm` model and compares herd's answer (`Ok` = 1) with
    `dartagnan/src/test/resources/LKMM-expected.csv`. Each test runs alone with
    `--threads 1` under a time limit; the summary counts agreements, disagreements
    (listed), tests porf refuses (grouped by message) and time-outs."""
    import concurrent.futures
    ap = argparse.ArgumentParser(prog="dat3m_litmus.py lkmm", description=lkmm_main.__doc__)
    ap.add_argument("--dat3m", required=True,
                    help="a checkout (or an extracted archive) of hernanponcedeleon/Dat3M "
                         "holding litmus/LKMM and dartagnan/src/test/resources")
    ap.add_argument("--expected", help="the CSV (default: under --dat3m)")
    ap.add_argument("--porf", default=porf_default(), help="the porf binary")
    ap.add_argument("--timeout", type=float, default=10.0, help="seconds per test (10)")
    ap.add_argument("--jobs", type=int, default=2, help="tests run at once (2)")
    ap.add_argument("--only", help="only tests whose path contains this")
    a = ap.parse_args(argv)
    csv = a.expected or os.path.join(a.dat3m, "dartagnan/src/test/resources/LKMM-expected.csv")
    expected = {}
    with open(csv) as f:
        for line in f:
            path, _, v = line.strip().rpartition(",")
            if path and (a.only is None or a.only in path):
                expected[path] = v == "1"

    def run(path):
        f = os.path.join(a.dat3m, path)
        if not os.path.exists(f):
            return path, "missing", None, 0.0
        try:
            r = subprocess.run([a.porf, "litmus", "--json", "--model", "lkmm", "--threads", "1", f],
                               capture_output=True, text=True, timeout=a.timeout)
        except subprocess.TimeoutExpired:
            return path, "timeout", None, a.timeout
        if r.returncode in (0, 4) and r.stdout.strip():
            o = json.loads(r.stdout.splitlines()[0])
            return path, "ran", o["verdict"] == "Ok", o["time_s"]
        msg = (r.stderr.strip().splitlines() or ["?"])[-1]
        msg = re.sub(r"^.*?: (error: )?", "", msg)
        return path, "refused", msg, 0.0

    counts = collections.Counter()
    refused = collections.Counter()
    wrong = []
    total_time = 0.0
    with concurrent.futures.ThreadPoolExecutor(max_workers=a.jobs) as ex:
        for path, kind, v, t in ex.map(run, sorted(expected)):
            total_time += t
            if kind == "ran":
                if v == expected[path]:
                    counts["agree"] += 1
                else:
                    counts["disagree"] += 1
                    wrong.append((path, expected[path], v))
            else:
                counts[kind] += 1
                if kind == "refused":
                    refused[re.sub(r"`[^`]*`", "`_`", v)[:90]] += 1
    n = len(expected)
    ran = counts["agree"] + counts["disagree"]
    print(f"LKMM: {n} tests; {ran} answered, {counts['agree']} agree with the CSV "
          f"({100.0 * counts['agree'] / max(n, 1):.2f}% of all, "
          f"{100.0 * counts['agree'] / max(ran, 1):.2f}% of those answered), "
          f"{counts['disagree']} disagree, {counts['refused']} refused, "
          f"{counts['timeout']} timed out (> {a.timeout:g} s), {counts['missing']} missing; "
          f"{total_time:.1f} s in the answered tests")
    for m, k in refused.most_common(12):
        print(f"  {k:6}  {m}")
    for path, e, v in wrong:
        print(f"  DISAGREE {path}: expected {int(e)}, porf {int(v)}")
    sys.exit(0 if counts["disagree"] == 0 else 1)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "lkmm":
        lkmm_main(sys.argv[2:])
    else:
        main()
