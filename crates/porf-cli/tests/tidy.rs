//! Checks of the architecture that the compiler cannot make: every crate states its
//! architecture invariant and API boundary at the top of its root file, and the
//! invariants that can be read off the source hold (which crate may name what), as
//! rust-analyzer's tidy tests do. Comments and `#[cfg(test)]` code are not scanned.

use std::path::{Path, PathBuf};

fn crates_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// The `.rs` files under `dir`, recursively.
fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The code lines of a non-test source file: comments and everything from the first
/// `#[cfg(test)]` on are left out; test-only files (`tests.rs`, `testkit.rs`) are empty.
fn code_lines(p: &Path) -> Vec<(usize, String)> {
    let name = p.file_name().unwrap().to_str().unwrap();
    if name == "tests.rs" || name == "testkit.rs" {
        return Vec::new();
    }
    let text = std::fs::read_to_string(p).unwrap();
    text.lines()
        .enumerate()
        .take_while(|(_, l)| l.trim() != "#[cfg(test)]")
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_string()))
        .collect()
}

/// Whether `line` names `word` as a whole identifier or path segment.
fn names(line: &str, word: &str) -> bool {
    let is_ident = |c: char| c.is_alphanumeric() || c == '_';
    line.match_indices(word).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + word.len()..].chars().next();
        !before.is_some_and(is_ident) && !after.is_some_and(is_ident)
    })
}

#[test]
fn crates_state_their_invariant_and_boundary() {
    for krate in [
        "porf-graph",
        "porf-models",
        "porf-explore",
        "porf-toy",
        "porf-c",
        "porf-litmus",
        "porf-toylang",
        "porf-cli",
        "porf-wsts",
        "porf-cat",
    ] {
        let src = crates_dir().join(krate).join("src");
        let root = ["lib.rs", "main.rs"]
            .iter()
            .map(|f| src.join(f))
            .find(|p| p.is_file())
            .unwrap_or_else(|| panic!("{krate} has no lib.rs or main.rs"));
        let text = std::fs::read_to_string(&root).unwrap();
        let head: String = text
            .lines()
            .take_while(|l| l.starts_with("//!"))
            .collect::<Vec<_>>()
            .join("\n");
        for part in ["**Architecture invariant**", "**API boundary**"] {
            assert!(
                head.contains(part),
                "{}: the opening doc comment lacks {part}",
                root.display()
            );
        }
    }
}

#[test]
fn crates_name_only_what_their_invariant_allows() {
    let rules: &[(&str, &[&str])] = &[
        (
            "porf-graph",
            &[
                "porf_models",
                "porf_explore",
                "porf_c",
                "porf_toy",
                "porf_litmus",
                "porf_toylang",
            ],
        ),
        (
            "porf-models",
            &[
                "porf_explore",
                "porf_c",
                "porf_toy",
                "porf_litmus",
                "porf_toylang",
                "ThreadMachine",
                "Action",
            ],
        ),
        (
            "porf-explore",
            &[
                "porf_c",
                "porf_toy",
                "porf_litmus",
                "porf_toylang",
                "by_name",
            ],
        ),
        (
            "porf-toy",
            &["porf_models", "porf_explore", "Graph", "LabelKind"],
        ),
        (
            "porf-c",
            &["porf_models", "porf_explore", "Graph", "LabelKind"],
        ),
        (
            "porf-litmus",
            &["Graph", "LabelKind", "porf_toy", "porf_toylang"],
        ),
        (
            "porf-toylang",
            &[
                "porf_models",
                "porf_explore",
                "porf_c",
                "porf_toy",
                "porf_litmus",
                "Graph",
                "LabelKind",
            ],
        ),
        (
            "porf-cat",
            &[
                "porf_explore",
                "porf_c",
                "porf_toy",
                "porf_litmus",
                "porf_toylang",
                "ThreadMachine",
                "Action",
            ],
        ),
        (
            "porf-wsts",
            &[
                "porf_graph",
                "porf_models",
                "porf_explore",
                "porf_c",
                "porf_toy",
                "porf_litmus",
                "porf_toylang",
                "Graph",
                "Action",
            ],
        ),
    ];
    let mut bad = Vec::new();
    for (krate, forbidden) in rules {
        let mut files = Vec::new();
        rust_files(&crates_dir().join(krate).join("src"), &mut files);
        assert!(!files.is_empty(), "{krate} has no sources");
        for f in files {
            for (n, line) in code_lines(&f) {
                for w in *forbidden {
                    if names(&line, w) {
                        bad.push(format!("{}:{n}: {krate} names `{w}`: {line}", f.display()));
                    }
                }
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn papers_are_cited_by_name() {
    let mut files = Vec::new();
    rust_files(&crates_dir(), &mut files);
    let bad: Vec<String> = files
        .iter()
        .filter(|f| !f.ends_with("tidy.rs"))
        .flat_map(|f| {
            let text = std::fs::read_to_string(f).unwrap();
            text.lines()
                .enumerate()
                .filter(|(_, l)| l.contains("seed 00") || l.contains("seeds 00"))
                .map(|(i, l)| format!("{}:{}: {l}", f.display(), i + 1))
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        bad.is_empty(),
        "cite papers by title, not by seed number:\n{}",
        bad.join("\n")
    );
}

/// The root `ARCHITECTURE.md` is the map of what is built: every source module of a
/// crate (but its root, `mod.rs` files and test-only `tests` modules) is named in that
/// crate's `### crates/NAME` section, by its file name or, for a module with
/// submodules, by its directory (`rf/verify_sc/`).
#[test]
fn every_module_is_on_the_map() {
    let map = std::fs::read_to_string(crates_dir().join("../ARCHITECTURE.md")).unwrap();
    let mut missing = Vec::new();
    for e in std::fs::read_dir(crates_dir()).unwrap() {
        let krate = e.unwrap().path();
        let name = krate.file_name().unwrap().to_str().unwrap().to_string();
        let src = krate.join("src");
        if !src.is_dir() {
            continue;
        }
        let head = format!("### crates/{name}\n");
        let Some(start) = map.find(&head) else {
            missing.push(format!("no section `### crates/{name}`"));
            continue;
        };
        let rest = &map[start + head.len()..];
        let end = ["\n### ", "\n## ", "\nRules of the house"]
            .iter()
            .filter_map(|m| rest.find(m))
            .min()
            .unwrap_or(rest.len());
        let section = &rest[..end];
        let mut files = Vec::new();
        rust_files(&src, &mut files);
        for f in files {
            let rel = f.strip_prefix(&src).unwrap();
            let file = rel.file_name().unwrap().to_str().unwrap();
            let in_tests_dir = rel.components().any(|c| c.as_os_str() == "tests");
            if matches!(file, "lib.rs" | "main.rs" | "mod.rs" | "tests.rs") || in_tests_dir {
                continue;
            }
            let stem = file.trim_end_matches(".rs");
            if !section.contains(&format!("{file}`")) && !section.contains(&format!("{stem}/`")) {
                missing.push(format!("crates/{name}/src/{}", rel.display()));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "modules missing from ARCHITECTURE.md (one line each in their crate's section):\n{}",
        missing.join("\n")
    );
}
