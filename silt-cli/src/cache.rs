//! `silt cache stats|clear`: silt's on-disk program cache, and PoCL's.

use std::path::Path;

use crate::table::{bytes, emit};
use crate::Failure;

/// Which setting named the cache folder.
fn origin() -> &'static str {
    let set = |v: &str| std::env::var_os(v).is_some_and(|x| !x.is_empty());
    if set("SILT_CACHE_DIR") {
        "from SILT_CACHE_DIR"
    } else if set("XDG_CACHE_HOME") {
        "$XDG_CACHE_HOME/silt; set SILT_CACHE_DIR to move it"
    } else {
        "~/.cache/silt; set SILT_CACHE_DIR to move it"
    }
}

/// Prints what the cache folders hold.
pub fn stats() -> Result<(), Failure> {
    let mut out = String::new();
    let usage = silt::program_cache::usage().map_err(|e| {
        Failure::runtime(format!(
            "cannot read the program cache folder {}: {e}",
            silt::program_cache::dir().map_or_else(String::new, |d| d.display().to_string())
        ))
    })?;
    match usage {
        None => out.push_str(
            "silt program cache: off (SILT_CACHE_DIR=off); every process compiles its \
             programs from source\n",
        ),
        Some(u) => {
            out.push_str(&format!(
                "silt program cache: {} ({})\n",
                u.dir.display(),
                origin()
            ));
            if u.exists {
                out.push_str(&format!(
                    "  entries:  {} saved program {}\n  size:     {} ({} bytes) of at most \
                     {} (SILT_CACHE_MAX_BYTES)\n",
                    u.entries,
                    if u.entries == 1 { "binary" } else { "binaries" },
                    bytes(u.bytes),
                    u.bytes,
                    bytes(u.max_bytes)
                ));
                if u.partial > 0 {
                    out.push_str(&format!(
                        "  unfinished writes: {} (left by stopped processes; `silt cache clear` \
                         removes them)\n",
                        u.partial
                    ));
                }
            } else {
                out.push_str(
                    "  entries:  0 (the folder does not exist yet: it is made when the first \
                     program is saved)\n",
                );
            }
        }
    }
    match std::env::var_os("POCL_CACHE_DIR").filter(|v| !v.is_empty()) {
        Some(dir) => {
            let dir = Path::new(&dir);
            let (files, size) = walk(dir);
            out.push_str(&format!(
                "PoCL cache:         {} (POCL_CACHE_DIR): {files} files, {}\n",
                dir.display(),
                bytes(size)
            ));
        }
        None => out.push_str(
            "PoCL cache:         POCL_CACHE_DIR is not set (PoCL then uses its own default \
             folder, if it uses PoCL at all)\n",
        ),
    }
    emit(&out)
}

/// Deletes silt's saved binaries.
pub fn clear() -> Result<(), Failure> {
    let Some(dir) = silt::program_cache::dir() else {
        return emit("silt program cache: off (SILT_CACHE_DIR=off); nothing to clear\n");
    };
    let removed = silt::program_cache::clear().map_err(|e| {
        Failure::runtime(format!(
            "cannot clear the program cache in {}: {e}",
            dir.display()
        ))
    })?;
    let mut out = format!(
        "removed {removed} file{} from {}\n",
        if removed == 1 { "" } else { "s" },
        dir.display()
    );
    if let Some(pocl) = std::env::var_os("POCL_CACHE_DIR").filter(|v| !v.is_empty()) {
        out.push_str(&format!(
            "PoCL's cache in {} was left alone (delete that folder's contents by hand to clear \
             it)\n",
            Path::new(&pocl).display()
        ));
    }
    emit(&out)
}

/// The number of files under `dir` and their total size (0, 0 when absent).
fn walk(dir: &Path) -> (u64, u64) {
    let mut files = 0;
    let mut size = 0;
    let mut stack = vec![dir.to_path_buf()];
    while let Some(d) = stack.pop() {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let Ok(t) = e.file_type() else { continue };
            if t.is_dir() {
                stack.push(e.path());
            } else if t.is_file() {
                files += 1;
                size += e.metadata().map_or(0, |m| m.len());
            }
        }
    }
    (files, size)
}
