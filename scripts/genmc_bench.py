#!/usr/bin/env python3
"""porf side by side with GenMC 0.11 (issue 27's acceptance benchmark): runs `porf verify`
(one thread, rc11 unless the row names a model, its defaults) on every row of
../shared/bench/genmc-0.11-times.tsv and on this script's extra rows (GenMC's other `sr`
tests, the programs under bench/), with a wall-time limit per run. With `--genmc PATH` it
runs that GenMC binary on each row too (`genmc -rc11 -disable-estimation [-unroll=N] --
CFLAGS FILE`, the tsv's command) and compares against the measured time; otherwise against
the tsv's recorded time (extra rows: `-`, with GenMC's expected count where its test suite
has one).

Per row: porf's complete and blocked counts, time and verdict; GenMC's; porf's time over
GenMC's. DIFF marks a verdict or complete count that differs (porf's missing in-place
revisiting is a documented cause, in the tsv's note column; symmetry reduction no longer
is: porf counts GenMC's reduced counts, `--disable-sr` its unreduced ones);
SLOWER marks a ratio over 1.0. The summary gives the geometric mean of the ratios, the rows
slower and the rows differing. The tsv's rows are GenMC runs that ended with "No errors
were detected", so their recorded verdict is safe.

The sources are exported from the bare git directories of GenMC (tag v0.11.0) and Dat3M
(read only, into a temporary directory); nothing of them enters porf's repository.
Not a test: timings depend on the machine and its load (the load average is printed).

Usage: scripts/genmc_bench.py [--porf PATH] [--genmc PATH] [--timeout S] [--filter SUBSTR]
                              [--genmc-git DIR] [--dat3m-git DIR] [--markdown] [--json]
"""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import benchlib  # noqa: E402

# Rows of issue 27 the tsv lacks: GenMC's other symmetry-reduction tests (their expected
# rc11 count from GenMC's test suite, tests/correct/sr/*/expected.rc11.mo.in) and the
# seq_cst-fence programs under bench/ (no GenMC figure).
SR_TESTS = ["ainc", "conf-loop-small", "conf-loop"]
EXTRA = [
    ("repo", "bench/fences3.c", ""),
    ("repo", "bench/fences3.c", "-DNOFENCES"),
    ("repo", "bench/chase_lev.c", "-DTHIEVES=3"),
    ("repo", "bench/chase_lev.c", "-DTHIEVES=4"),
    ("repo", "bench/chase_lev.c", "-DTHIEVES=3 -DNOFENCES"),
]


def rows(genmc_git):
    """The tsv's rows, then the extra rows it does not hold."""
    out = benchlib.read_tsv()
    have = {benchlib.key(r) for r in out}
    for t in SR_TESTS:
        file = f"tests/correct/sr/{t}/variants/{t.split('-small')[0]}0.c"
        r = {"source": "genmc", "file": file, "cflags": "", "genmc_flags": ""}
        if benchlib.key(r) in have:
            continue
        expected = subprocess.run(
            ["git", "--git-dir", genmc_git, "show",
             f"{benchlib.GENMC_TAG}:tests/correct/sr/{t}/expected.rc11.mo.in"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
        ).stdout.strip()
        r.update(complete=expected, blocked="", genmc_s="", note="GenMC: expected count")
        out.append(r)
    for src, file, cflags in EXTRA:
        r = {"source": src, "file": file, "cflags": cflags, "genmc_flags": ""}
        if benchlib.key(r) not in have:
            r.update(complete="", blocked="", genmc_s="", note="")
            out.append(r)
    return out


def name(r):
    """The row's name: its file (for GenMC's tests, `TEST/FILE`, the test's folder over
    `variants/`), cflags and GenMC flags."""
    parts = r["file"].split("/")
    file = parts[-1]
    if len(parts) >= 3 and parts[-2] == "variants":
        file = parts[-3] + "/" + file
    return " ".join(x for x in [file, r["cflags"], r["genmc_flags"]] if x)


def compare(r, v, g):
    """One result record from porf's report v and GenMC's figures g."""
    rec = {"program": name(r), "source": r["source"], "file": r["file"],
           "cflags": r["cflags"], "genmc_flags": r["genmc_flags"]}
    if "error" in v:
        rec.update(porf_complete="", porf_blocked="", porf_verdict="failed",
                   porf_note=v["error"])
    else:
        rec.update(porf_complete=str(v["complete"]), porf_blocked=str(v["blocked"]),
                   porf_verdict=benchlib.porf_outcome(v), porf_note="")
    rec["porf_s"] = round(v["wall"], 3)
    rec.update(genmc_complete=g["complete"], genmc_blocked=g["blocked"],
               genmc_s=g["s"], genmc_verdict=g["verdict"])
    ratio = None
    decided = ("safe", "error")
    if isinstance(g["s"], float) and g["s"] > 0 and g["verdict"] in decided:
        if rec["porf_verdict"] in decided:
            ratio = v["wall"] / g["s"]
        elif rec["porf_verdict"] == "timeout":
            ratio = max(v["wall"], 1e-9) / g["s"]  # a lower bound
    rec["ratio"] = ratio
    marks = []
    pv, gv = rec["porf_verdict"], g["verdict"]
    if pv in decided and gv in decided and pv != gv:
        marks.append("DIFF")
    elif (pv == "safe" and gv == "safe" and g["complete"]
          and rec["porf_complete"] != g["complete"]):
        marks.append("DIFF")
    if pv not in decided:
        marks.append(pv.upper())
    if ratio is not None and ratio > 1.0:
        marks.append("SLOWER")
    rec["marks"] = marks
    return rec


def genmc_figures(a, roots, r):
    """GenMC's complete, blocked, seconds and verdict: measured with --genmc, else the
    tsv's record (safe where it has a time or a count: GenMC's correct tests and the
    tsv's no-error runs; `-` where it has neither)."""
    if a.genmc:
        m = benchlib.run_genmc(a.genmc, roots[r["source"]], r, a.timeout)
        s = round(m["wall"], 3) if m["verdict"] != "timeout" else float(a.timeout)
        return {"complete": m["complete"], "blocked": m["blocked"], "s": s,
                "verdict": m["verdict"]}
    try:
        s = float(r["genmc_s"])
    except ValueError:
        s = ""
    return {"complete": r["complete"], "blocked": r["blocked"], "s": s,
            "verdict": "safe" if s != "" or r["complete"] else ""}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--porf", default=os.path.join(benchlib.ROOT, "target", "release", "porf"))
    ap.add_argument("--genmc", help="a GenMC 0.11 binary to run side by side")
    ap.add_argument("--timeout", type=int, default=120, help="seconds per run (default 120)")
    ap.add_argument("--filter", default="", help="only rows whose name contains this")
    ap.add_argument("--genmc-git", default=benchlib.GENMC_GIT)
    ap.add_argument("--dat3m-git", default=benchlib.DAT3M_GIT)
    ap.add_argument("--markdown", action="store_true", help="print a markdown table")
    ap.add_argument("--json", action="store_true", help="print one JSON document")
    a = ap.parse_args()
    recs = []
    selected = [r for r in rows(a.genmc_git) if a.filter in name(r)]
    with tempfile.TemporaryDirectory(prefix="porf-genmc-bench-") as tmp:
        roots = benchlib.export_sources(tmp, a.genmc_git, a.dat3m_git,
                                        {r["source"] for r in selected})
        ref = "GenMC " + (a.genmc if a.genmc else "0.11 as recorded in " + benchlib.TSV)
        load = os.getloadavg()[0]
        table = None
        if not a.json:
            print(f"porf: {a.porf} (--threads 1, --timeout {a.timeout}); {ref}; "
                  f"load average {load:.2f}")
            table = benchlib.Table(
                ["program", "porf complete", "porf blocked", "porf s", "porf verdict",
                 "GenMC complete", "GenMC blocked", "GenMC s", "GenMC verdict",
                 "porf/GenMC", "marks"],
                a.markdown,
            )
        for r in selected:
            root = roots[r["source"]]
            v = benchlib.run_porf(a.porf, root, r, a.timeout)
            rec = compare(r, v, genmc_figures(a, roots, r))
            rec["note"] = r.get("note", "")
            recs.append(rec)
            if table:
                timed_out = rec["porf_verdict"] == "timeout"
                table.row([
                    rec["program"], rec["porf_complete"], rec["porf_blocked"],
                    f"{rec['porf_s']:.2f}" + (">" if timed_out else ""),
                    rec["porf_verdict"], rec["genmc_complete"], rec["genmc_blocked"],
                    rec["genmc_s"], rec["genmc_verdict"],
                    "" if rec["ratio"] is None
                    else f"{rec['ratio']:.2f}" + (">" if timed_out else ""),
                    " ".join(rec["marks"] + ([rec["porf_note"]] if rec["porf_note"] else [])),
                ])
    ratios = [x["ratio"] for x in recs if x["ratio"] is not None]
    geo = math.exp(sum(math.log(max(x, 1e-9)) for x in ratios) / len(ratios)) if ratios else None
    slower = [x["program"] for x in recs if "SLOWER" in x["marks"]]
    differ = [x["program"] for x in recs if "DIFF" in x["marks"]]
    summary = {"rows": len(recs), "rows_with_ratio": len(ratios), "geomean_ratio": geo,
               "rows_slower": len(slower), "rows_differing": len(differ)}
    if a.json:
        json.dump({"porf": a.porf, "genmc": a.genmc, "timeout": a.timeout,
                   "load_average": load, "rows": recs, "summary": summary},
                  sys.stdout, indent=1)
        print()
        return
    geo_s = f"{geo:.2f}" if geo is not None else "-"
    print(f"summary: {len(recs)} rows, {len(ratios)} with a ratio; geometric mean "
          f"porf/GenMC {geo_s}; {len(slower)} rows slower; {len(differ)} rows differing")


if __name__ == "__main__":
    main()
