//! The README matches the program.
//!
//! - Every sample output is a fenced block opened by ```` ```console ```` whose first
//!   line is `$ porf ARGS` (run from the repository's root; ending the line with
//!   ` 2>&1` shows stderr too, interleaved as on a terminal) and whose other lines are exactly what
//!   porf prints, compared after [`common::normalise`] (times, memory). A command that
//!   names `../shared` is skipped when the shared data is absent.
//!   `PORF_BLESS=1` (`scripts/bless_golden.sh`, which also rewrites `tests/golden`)
//!   rewrites the blocks that differ from the current porf; review with `git diff`.
//! - Every long flag of `porf verify`, `litmus`, `reach`, `merge` and `example` (their
//!   `--help`, i.e. the clap definitions) is documented in the README.

mod common;

use std::path::PathBuf;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// One sample: the line range of its body (0-based, end exclusive) and its command.
struct Sample {
    command: String,
    body: std::ops::Range<usize>,
}

fn samples(lines: &[&str]) -> Vec<Sample> {
    let mut v = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        if lines[i].trim_end() == "```console" {
            let command = lines.get(i + 1).copied().unwrap_or_default();
            assert!(
                command.starts_with("$ porf "),
                "README.md:{}: a console block starts with `$ porf `",
                i + 2
            );
            let end = (i + 2..lines.len())
                .find(|&j| lines[j].trim_end() == "```")
                .unwrap_or_else(|| panic!("README.md:{}: unclosed block", i + 1));
            v.push(Sample {
                command: command.to_string(),
                body: i + 2..end,
            });
            i = end;
        }
        i += 1;
    }
    v
}

/// What porf prints for `command` (`$ porf ARGS [2>&1]`), run from the repository root.
fn output_of(command: &str) -> String {
    let rest = command.strip_prefix("$ porf ").unwrap();
    let (rest, merged) = match rest.strip_suffix(" 2>&1") {
        Some(r) => (r, true),
        None => (rest, false),
    };
    // With ` 2>&1`, both streams go to one pipe, interleaved as on a terminal.
    let redirect = if merged { " 2>&1" } else { " 2>/dev/null" };
    let out = std::process::Command::new("sh")
        .arg("-c")
        .arg(format!("exec \"$0\" \"$@\"{redirect}"))
        .arg(env!("CARGO_BIN_EXE_porf"))
        .args(common::shell_words(rest))
        .current_dir(root())
        .env_remove("PORF_THREADS")
        .output()
        .expect("cannot run porf");
    let text = String::from_utf8_lossy(&out.stdout).into_owned();
    text.trim_end_matches('\n').to_string()
}

#[test]
fn readme_sample_outputs_are_what_porf_prints() {
    let path = root().join("README.md");
    let text = std::fs::read_to_string(&path).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    let bless = std::env::var_os("PORF_BLESS").is_some();
    let mut replaced: Vec<(std::ops::Range<usize>, String)> = Vec::new();
    let mut failures = Vec::new();
    let all = samples(&lines);
    assert!(all.len() >= 8, "only {} README samples", all.len());
    for s in &all {
        if s.command.contains("../shared/") {
            let tool = s
                .command
                .split_whitespace()
                .find_map(|w| w.strip_prefix("../shared/"))
                .unwrap();
            if common::shared_absent(tool) {
                continue;
            }
        }
        let want = lines[s.body.clone()].join("\n");
        let got = output_of(&s.command);
        if common::normalise(&want) != common::normalise(&got) {
            if bless {
                replaced.push((s.body.clone(), got));
            } else {
                failures.push(format!(
                    "README.md:{}: `{}` prints differently (re-bless with \
                     scripts/bless_golden.sh and review the diff)\n--- README\n{want}\n--- porf\n{got}",
                    s.body.start,
                    s.command
                ));
            }
        }
    }
    if bless && !replaced.is_empty() {
        let mut out: Vec<String> = Vec::new();
        let mut i = 0;
        for (range, got) in &replaced {
            out.extend(lines[i..range.start].iter().map(|l| l.to_string()));
            out.extend(got.lines().map(str::to_string));
            i = range.end;
        }
        out.extend(lines[i..].iter().map(|l| l.to_string()));
        std::fs::write(&path, out.join("\n") + "\n").unwrap();
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The long flags a subcommand's `--help` lists.
fn flags_of(sub: &str) -> Vec<String> {
    let (code, out, err) = common::porf(&[sub, "--help"]);
    assert_eq!(code, 0, "{sub} --help: {err}");
    // Only the `Options:` section (the exit-code notes below it name flags too).
    let mut flags: Vec<String> = out
        .lines()
        .skip_while(|l| *l != "Options:")
        .skip(1)
        .take_while(|l| l.is_empty() || l.starts_with(' '))
        .filter_map(|l| {
            // `  --model <MODEL>  ...` or `  -D, --define <..>  ...`
            let l = l.trim_start();
            let l = match l.strip_prefix('-') {
                Some(r) if !r.starts_with('-') => r.split_once(", ")?.1,
                _ => l,
            };
            let name: String = l
                .strip_prefix("--")?
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                .collect();
            (!name.is_empty()).then(|| format!("--{name}"))
        })
        .filter(|f| f != "--help" && f != "--version")
        .collect();
    flags.sort();
    flags.dedup();
    flags
}

/// The README's paragraph listing a subcommand's flags: from `Flags of `porf SUB`:` to
/// the next `Flags of` or the paragraph's end.
fn flag_list(readme: &str, sub: &str) -> String {
    let flat = readme.replace("Flags of\n`porf", "Flags of `porf");
    let head = format!("Flags of `porf {sub}`:");
    let start = flat
        .find(&head)
        .unwrap_or_else(|| panic!("README.md has no {head:?} list"));
    let rest = &flat[start + head.len()..];
    let end = [rest.find("Flags of `porf"), rest.find("\n\n")]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(rest.len());
    rest[..end].to_string()
}

#[test]
fn every_flag_is_in_the_readme() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let mut missing = Vec::new();
    let mut n = 0;
    for sub in ["verify", "litmus", "reach", "merge", "example"] {
        let text = flag_list(&readme, sub);
        let documented = |flag: &str| {
            text.match_indices(flag).any(|(i, _)| {
                !text[i + flag.len()..]
                    .chars()
                    .next()
                    .is_some_and(|c| c.is_ascii_alphanumeric() || c == '-')
            })
        };
        for f in flags_of(sub) {
            n += 1;
            if !documented(&f) {
                missing.push(format!("porf {sub} {f}"));
            }
        }
    }
    assert!(n >= 30, "only {n} flags found in the --help texts");
    assert!(
        missing.is_empty(),
        "flags missing from README.md's lists (`Flags of `porf SUB`:`):\n{}",
        missing.join("\n")
    );
}

#[test]
fn normalising_hides_times_only() {
    assert_eq!(
        common::normalise("Found after 3 iterations (4 minimal states), 0.12 s. The run"),
        "Found after 3 iterations (4 minimal states), <varies> s. The run"
    );
    assert_eq!(
        common::normalise("Time SB+rlx 0.03"),
        "Time SB+rlx <varies>"
    );
    assert_eq!(
        common::normalise("2 executions, 1.5s, ~10.2s left; 3.5 MiB x1.2s2"),
        "2 executions, <varies> s, ~<varies> s left; 3.5 MiB x1.2s2"
    );
}

/// The README's list of bundled headers ("porf brings its own ...") names every file of
/// `crates/porf-c/headers`.
#[test]
fn every_bundled_header_is_listed() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme.find("porf brings its own").expect("the header list");
    let list = &readme[start..start + readme[start..].find("compile unchanged").unwrap()];
    let dir = root().join("crates/porf-c/headers");
    let mut missing = Vec::new();
    let mut stack = vec![(dir, String::new())];
    while let Some((d, prefix)) = stack.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let e = e.unwrap();
            let name = format!("{prefix}{}", e.file_name().to_string_lossy());
            if e.path().is_dir() {
                stack.push((e.path(), format!("{name}/")));
            } else if !list.contains(&format!("`{name}`")) {
                missing.push(name);
            }
        }
    }
    assert!(
        missing.is_empty(),
        "headers missing from README.md: {missing:?}"
    );
}
