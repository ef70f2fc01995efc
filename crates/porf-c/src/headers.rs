//! porf's bundled C headers (`crates/porf-c/headers/*.h`), embedded in the binary and
//! materialised on first use into a per-process directory under the system temporary
//! directory, which the preprocessor then searches (`-I`).
//!
//! Invariants: the directory is written at most once per process and holds exactly
//! [`HEADERS`]; it is named `porf-headers-<pid>`, and directories left behind by
//! processes that no longer run are removed when a new one is created (on systems with
//! `/proc`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `(file name, contents)` of every bundled header.
pub const HEADERS: &[(&str, &str)] = &[
    ("assert.h", include_str!("../headers/assert.h")),
    ("errno.h", include_str!("../headers/errno.h")),
    ("genmc.h", include_str!("../headers/genmc.h")),
    ("inttypes.h", include_str!("../headers/inttypes.h")),
    ("limits.h", include_str!("../headers/limits.h")),
    ("porf.h", include_str!("../headers/porf.h")),
    ("pthread.h", include_str!("../headers/pthread.h")),
    ("sched.h", include_str!("../headers/sched.h")),
    ("stdatomic.h", include_str!("../headers/stdatomic.h")),
    ("stdbool.h", include_str!("../headers/stdbool.h")),
    ("stddef.h", include_str!("../headers/stddef.h")),
    ("stdint.h", include_str!("../headers/stdint.h")),
    ("stdio.h", include_str!("../headers/stdio.h")),
    ("stdlib.h", include_str!("../headers/stdlib.h")),
    ("string.h", include_str!("../headers/string.h")),
    ("threads.h", include_str!("../headers/threads.h")),
    ("unistd.h", include_str!("../headers/unistd.h")),
];

const PREFIX: &str = "porf-headers-";

static DIR: OnceLock<Result<PathBuf, String>> = OnceLock::new();

/// Whether `path` names one of the bundled headers of this process's directory (false
/// if the directory was never created).
pub fn is_bundled(path: &str) -> bool {
    let Some(Ok(dir)) = DIR.get() else {
        return false;
    };
    let p = Path::new(path);
    p.parent() == Some(dir.as_path())
        && p.file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| HEADERS.iter().any(|(h, _)| *h == n))
}

/// The directory holding the bundled headers, creating it on first call.
/// The error is a readable message (the directory could not be written).
pub fn bundled_dir() -> Result<&'static Path, String> {
    DIR.get_or_init(|| materialise(&std::env::temp_dir()))
        .as_ref()
        .map(PathBuf::as_path)
        .map_err(Clone::clone)
}

fn materialise(tmp: &Path) -> Result<PathBuf, String> {
    remove_stale(tmp);
    let dir = tmp.join(format!("{PREFIX}{}", std::process::id()));
    write_all(&dir).map_err(|e| {
        format!(
            "cannot write porf's bundled headers to {}: {e}",
            dir.display()
        )
    })?;
    Ok(dir)
}

fn write_all(dir: &Path) -> io::Result<()> {
    fs::create_dir_all(dir)?;
    for (name, text) in HEADERS {
        let path = dir.join(name);
        // An earlier process with the same pid may have left the file: rewrite it
        // only when it differs.
        if fs::read_to_string(&path).ok().as_deref() != Some(*text) {
            fs::write(&path, text)?;
        }
    }
    Ok(())
}

/// Removes `porf-headers-<pid>` directories whose process is gone. Best effort: only
/// where `/proc/<pid>` tells whether a process runs.
fn remove_stale(tmp: &Path) {
    if !Path::new("/proc/self").exists() {
        return;
    }
    let Ok(entries) = fs::read_dir(tmp) else {
        return;
    };
    for entry in entries.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .and_then(|n| n.strip_prefix(PREFIX))
            .and_then(|p| p.parse::<u32>().ok())
        else {
            continue;
        };
        if pid != std::process::id() && !Path::new(&format!("/proc/{pid}")).exists() {
            let _ = fs::remove_dir_all(entry.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_are_materialised_once() {
        let a = bundled_dir().unwrap();
        let b = bundled_dir().unwrap();
        assert_eq!(a, b);
        for (name, text) in HEADERS {
            assert_eq!(fs::read_to_string(a.join(name)).unwrap(), *text);
        }
    }

    #[test]
    fn bundled_headers_are_recognised_by_path() {
        let dir = bundled_dir().unwrap();
        let path = |n: &str| dir.join(n).display().to_string();
        assert!(is_bundled(&path("pthread.h")));
        assert!(!is_bundled(&path("mine.h")));
        assert!(!is_bundled("pthread.h"));
        assert!(!is_bundled("/usr/include/pthread.h"));
    }

    #[test]
    fn stale_directories_are_removed() {
        let tmp = std::env::temp_dir().join(format!("porf-stale-test-{}", std::process::id()));
        fs::create_dir_all(&tmp).unwrap();
        // pid 0 is never a user process, so its directory is stale.
        let stale = tmp.join(format!("{PREFIX}0"));
        fs::create_dir_all(&stale).unwrap();
        let dir = materialise(&tmp).unwrap();
        if Path::new("/proc/self").exists() {
            assert!(!stale.exists());
        }
        assert!(dir.join("stdatomic.h").exists());
        fs::remove_dir_all(&tmp).unwrap();
    }
}
