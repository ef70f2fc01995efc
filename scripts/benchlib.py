"""Shared code of the side-by-side benchmark scripts (`genmc_bench.py`, `saver_bench.py`):
reading GenMC 0.11's recorded times (../shared/bench/genmc-0.11-times.tsv), exporting the
GenMC and Dat3M sources read-only from their bare git directories into a temporary
directory, running `porf verify --json` and a GenMC binary on one row, and printing a
table as text or markdown.

A row is a dict with the tsv's columns: source (genmc, dat3m, shared, repo), file, cflags,
genmc_flags, and GenMC's complete, blocked and genmc_s ("" where unknown); an optional
`model` (porf's `--model`, default rc11). Nothing here judges a result: the scripts do.
"""
import json
import os
import re
import subprocess
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, ".."))
SHARED = os.path.normpath(os.path.join(ROOT, "..", "shared"))
TSV = os.path.join(SHARED, "bench", "genmc-0.11-times.tsv")
GENMC_GIT = "/work/.mirror/MPI-SWS+genmc/repo"
DAT3M_GIT = "/work/.mirror/hernanponcedeleon+Dat3M/repo"
GENMC_TAG = "v0.11.0"


def read_tsv(path=TSV):
    """The tsv's rows, in order, as dicts keyed by its header (comment lines skipped)."""
    rows = []
    with open(path) as f:
        header = None
        for line in f:
            if line.startswith("#") or not line.strip():
                continue
            cells = line.rstrip("\n").split("\t")
            if header is None:
                header = cells
                continue
            rows.append(dict(zip(header, cells + [""] * (len(header) - len(cells)))))
    return rows


def key(row):
    """What identifies a row: (source, file, cflags, genmc_flags)."""
    return (row["source"], row["file"], row["cflags"], row["genmc_flags"])


def export(git_dir, rev, paths, dest):
    """`git archive REV PATHS` of a bare repository, unpacked into dest (read only)."""
    os.makedirs(dest, exist_ok=True)
    arch = subprocess.run(
        ["git", "--git-dir", git_dir, "archive", rev] + paths,
        stdout=subprocess.PIPE,
        check=True,
    ).stdout
    subprocess.run(["tar", "x", "-C", dest], input=arch, check=True)


def export_sources(tmp, genmc_git=GENMC_GIT, dat3m_git=DAT3M_GIT,
                   needed=("genmc", "dat3m")):
    """Exports GenMC v0.11.0's tests and Dat3M's benchmarks (those of the two sources in
    `needed`) under tmp; returns the root directory of each row source (shared:
    ../shared; repo: this repository)."""
    roots = {
        "genmc": os.path.join(tmp, "genmc"),
        "dat3m": os.path.join(tmp, "dat3m"),
        "shared": SHARED,
        "repo": ROOT,
    }
    if "genmc" in needed:
        export(genmc_git, GENMC_TAG, ["tests/correct", "include"], roots["genmc"])
    if "dat3m" in needed:
        export(dat3m_git, "HEAD", ["benchmarks", "include"], roots["dat3m"])
    return roots


def cflags_args(root, cflags):
    """The row's cflags with `-IDIR` made absolute under the source's root."""
    out = []
    for flag in cflags.split():
        if flag.startswith("-I"):
            out.append("-I" + os.path.join(root, flag[2:]))
        else:
            out.append(flag)
    return out


def run_porf(porf, root, row, timeout, threads=1):
    """`porf verify --json` on the row: its JSON report plus `wall` (s) and `exit`, or
    {"error": text, "wall": s} when the output is not a report."""
    args = [porf, "verify", "--json", "--threads", str(threads), "--timeout", str(timeout)]
    args += ["--model", row.get("model") or "rc11"]
    args += cflags_args(root, row["cflags"])
    for flag in row["genmc_flags"].split():
        if flag.startswith("-unroll="):
            args += ["--unroll", flag.split("=", 1)[1]]
    args.append(os.path.join(root, row["file"]))
    t0 = time.monotonic()
    p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - t0
    try:
        v = json.loads(p.stdout)
    except json.JSONDecodeError:
        return {"error": (p.stdout + p.stderr).strip()[-300:], "wall": wall}
    v["wall"] = wall
    v["exit"] = p.returncode
    return v


def run_genmc(genmc, root, row, timeout):
    """`genmc -rc11 -disable-estimation [GENMC_FLAGS] -- CFLAGS FILE` (the tsv's command)
    with a wall-time limit: {"complete", "blocked", "verdict", "wall"}; verdict is safe
    ("No errors were detected"), error, timeout, or failed (anything else)."""
    args = [genmc, "-rc11", "-disable-estimation"] + row["genmc_flags"].split()
    args += ["--"] + cflags_args(root, row["cflags"]) + [os.path.join(root, row["file"])]
    t0 = time.monotonic()
    try:
        p = subprocess.run(args, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           text=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return {"complete": "", "blocked": "", "verdict": "timeout", "wall": timeout}
    wall = time.monotonic() - t0
    out = p.stdout
    m = re.search(r"Number of complete executions explored: (\d+)", out)
    b = re.search(r"Number of blocked executions seen: (\d+)", out)
    if "No errors were detected" in out:
        verdict = "safe"
    elif re.search(r"Error detected|Error:", out):
        verdict = "error"
    else:
        verdict = "failed"
    return {
        "complete": m.group(1) if m else "",
        "blocked": b.group(1) if b else "0",
        "verdict": verdict,
        "wall": wall,
        "output": out.strip()[-300:] if verdict == "failed" else "",
    }


def porf_outcome(v):
    """porf's verdict as the comparison reads it: safe, error, timeout (a limit stopped
    an otherwise clean run) or failed (no report)."""
    if "error" in v:
        return "failed"
    word = v.get("verdict", "")
    if word == "safe":
        return "safe"
    if word == "incomplete":
        return "timeout" if v.get("stopped_by") else "incomplete"
    return "error"


class Table:
    """Prints a header and rows, as space-separated text or as a markdown table."""

    def __init__(self, head, markdown=False):
        self.markdown = markdown
        if markdown:
            print("| " + " | ".join(head) + " |")
            print("|" + "---|" * len(head))
        else:
            print("  ".join(head))

    def row(self, cells):
        cells = [str(c) for c in cells]
        if self.markdown:
            print("| " + " | ".join(cells) + " |", flush=True)
        else:
            print("  ".join(c if c else "-" for c in cells), flush=True)
