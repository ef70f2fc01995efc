//! porf's bundled C headers (`crates/porf-c/headers/*.h`), embedded in the binary and
//! materialised on first use into a directory under the system temporary directory,
//! which the preprocessor then searches (`-I`).
//!
//! Invariants: the directory a process uses holds exactly [`HEADERS`] (names and
//! contents, checked or written by that process before use) and nothing else. It is
//! either the shared `porf-headers-u<uid>-<hash>` (the user's, `hash` a digest of
//! [`HEADERS`]; readable by its owner only), reused by every later process of the
//! same user with the same headers, which saves writing the files per run; or, when
//! that one cannot be used, a per-process `porf-headers-<pid>`. The shared directory
//! only ever appears complete: a process fills its per-process directory and renames
//! it to the shared name, which fails if another process published it first.
//! Per-process directories left behind by processes that no longer run are removed
//! when a new one is created (on systems with `/proc`).

use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// `(file name, contents)` of every bundled header.
pub const HEADERS: &[(&str, &str)] = &[
    ("assert.h", include_str!("../headers/assert.h")),
    ("ctype.h", include_str!("../headers/ctype.h")),
    ("errno.h", include_str!("../headers/errno.h")),
    ("genmc.h", include_str!("../headers/genmc.h")),
    ("inttypes.h", include_str!("../headers/inttypes.h")),
    ("limits.h", include_str!("../headers/limits.h")),
    ("lkmm.h", include_str!("../headers/lkmm.h")),
    ("porf.h", include_str!("../headers/porf.h")),
    ("pthread.h", include_str!("../headers/pthread.h")),
    ("sched.h", include_str!("../headers/sched.h")),
    ("semaphore.h", include_str!("../headers/semaphore.h")),
    ("stdalign.h", include_str!("../headers/stdalign.h")),
    ("stdarg.h", include_str!("../headers/stdarg.h")),
    ("stdatomic.h", include_str!("../headers/stdatomic.h")),
    ("stdbool.h", include_str!("../headers/stdbool.h")),
    ("stddef.h", include_str!("../headers/stddef.h")),
    ("stdint.h", include_str!("../headers/stdint.h")),
    ("stdio.h", include_str!("../headers/stdio.h")),
    ("stdlib.h", include_str!("../headers/stdlib.h")),
    ("stdnoreturn.h", include_str!("../headers/stdnoreturn.h")),
    ("string.h", include_str!("../headers/string.h")),
    ("strings.h", include_str!("../headers/strings.h")),
    ("sys/time.h", include_str!("../headers/sys/time.h")),
    ("sys/types.h", include_str!("../headers/sys/types.h")),
    ("threads.h", include_str!("../headers/threads.h")),
    ("time.h", include_str!("../headers/time.h")),
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
    Path::new(path)
        .strip_prefix(dir)
        .ok()
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
    let shared = shared_dir(tmp);
    if let Some(shared) = &shared {
        if holds_exactly(shared) {
            return Ok(shared.clone());
        }
    }
    remove_stale(tmp);
    let dir = tmp.join(format!("{PREFIX}{}", std::process::id()));
    write_all(&dir).map_err(|e| {
        format!(
            "cannot write porf's bundled headers to {}: {e}",
            dir.display()
        )
    })?;
    if let Some(shared) = shared {
        // A shared directory that is not ours or not intact is left alone (a broken
        // one of ours, e.g. thinned by a temporary-file cleaner, is replaced).
        if is_own_private_dir(&shared) && !holds_exactly(&shared) {
            let _ = fs::remove_dir_all(&shared);
        }
        if holds_exactly(&dir) && fs::rename(&dir, &shared).is_ok() {
            return Ok(shared);
        }
    }
    Ok(dir)
}

/// `porf-headers-u<uid>-<hash>` under `tmp`, where this process may use a shared
/// directory: on systems with `/proc` (which gives the user id).
fn shared_dir(tmp: &Path) -> Option<PathBuf> {
    use std::os::unix::fs::MetadataExt;
    let uid = fs::metadata("/proc/self").ok()?.uid();
    // FNV-1a over the names and contents (with separators): stable across builds.
    let mut h = porf_graph::hash::Fnv1a::default();
    for (name, text) in HEADERS {
        for part in [name.as_bytes(), text.as_bytes()] {
            h.write(part);
            h.write(&[0]);
        }
    }
    Some(tmp.join(format!("{PREFIX}u{uid}-{:016x}", h.finish())))
}

/// Whether `dir` is a directory (not a link) owned by this process's user and
/// accessible to nobody else.
fn is_own_private_dir(dir: &Path) -> bool {
    use std::os::unix::fs::{MetadataExt, PermissionsExt};
    let (Ok(m), Ok(me)) = (fs::symlink_metadata(dir), fs::metadata("/proc/self")) else {
        return false;
    };
    m.is_dir() && m.uid() == me.uid() && m.permissions().mode() & 0o077 == 0
}

/// Whether `dir` is one of this user's private directories and holds exactly
/// [`HEADERS`]: the same names, the same contents, no other entry.
fn holds_exactly(dir: &Path) -> bool {
    is_own_private_dir(dir) && count_matching(dir, "") == Some(HEADERS.len())
}

/// The number of files under `dir` (a directory of the headers' tree, `prefix` its
/// path there: `""` or `"sys/"`), each one of [`HEADERS`] with its contents; `None` if
/// an entry is anything else (a subdirectory is followed only where a header's name
/// goes through it).
fn count_matching(dir: &Path, prefix: &str) -> Option<usize> {
    let mut n = 0;
    for entry in fs::read_dir(dir).ok()? {
        let entry = entry.ok()?;
        let name = format!("{prefix}{}", entry.file_name().to_str()?);
        let kind = entry.file_type().ok()?;
        if kind.is_dir() {
            let sub = format!("{name}/");
            if !HEADERS.iter().any(|(h, _)| h.starts_with(&sub)) {
                return None;
            }
            n += count_matching(&entry.path(), &sub)?;
            continue;
        }
        let text = HEADERS.iter().find(|(h, _)| *h == name).map(|(_, t)| *t)?;
        if !(kind.is_file() && fs::read(entry.path()).is_ok_and(|b| b == text.as_bytes())) {
            return None;
        }
        n += 1;
    }
    Some(n)
}

/// Writes [`HEADERS`] to `dir` (created if missing; its mode set to owner-only, so that
/// it may become the shared directory).
fn write_all(dir: &Path) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    fs::create_dir_all(dir)?;
    fs::set_permissions(dir, fs::Permissions::from_mode(0o700))?;
    for (name, text) in HEADERS {
        let path = dir.join(name);
        if let Some(parent) = path.parent() {
            fs::create_dir_all(parent)?;
        }
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
        assert!(is_bundled(&path("sys/types.h")));
        assert!(!is_bundled(&path("sys/mine.h")));
        assert!(!is_bundled(&path("mine.h")));
        assert!(!is_bundled("pthread.h"));
        assert!(!is_bundled("/usr/include/pthread.h"));
    }

    #[test]
    fn the_shared_directory_is_reused_and_repaired() {
        use std::os::unix::fs::PermissionsExt;
        let tmp = std::env::temp_dir().join(format!("porf-shared-test-{}", std::process::id()));
        fs::create_dir_all(&tmp).unwrap();
        let first = materialise(&tmp).unwrap();
        let Some(shared) = shared_dir(&tmp) else {
            // No `/proc`: every process writes its own directory.
            fs::remove_dir_all(&tmp).unwrap();
            return;
        };
        assert_eq!(first, shared);
        assert!(holds_exactly(&shared));
        assert_eq!(materialise(&tmp).unwrap(), shared);
        // A missing header, an extra file, a changed header: replaced.
        for damage in 0..3 {
            match damage {
                0 => fs::remove_file(shared.join("stdio.h")).unwrap(),
                1 => fs::write(shared.join("extra.h"), "int x;").unwrap(),
                _ => fs::write(shared.join("stdlib.h"), "int y;").unwrap(),
            }
            assert!(!holds_exactly(&shared));
            assert_eq!(materialise(&tmp).unwrap(), shared);
            assert!(holds_exactly(&shared));
        }
        // Accessible to others: not used (and not removed).
        fs::set_permissions(&shared, fs::Permissions::from_mode(0o755)).unwrap();
        let own = materialise(&tmp).unwrap();
        assert_ne!(own, shared);
        assert!(holds_exactly(&own));
        assert!(shared.join("stdio.h").exists());
        fs::remove_dir_all(&tmp).unwrap();
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
