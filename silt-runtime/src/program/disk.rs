//! The on-disk cache of program binaries.
//!
//! A program built from source is saved after its first launch (PoCL compiles the
//! work-group code at the first launch; saving earlier would store a generic
//! version that launches do not use). Saving waits for that launch and makes PoCL
//! compile the program's other entry points (0.1-1 s on PoCL), so it runs on a
//! thread of its own (`saver`), not the launching one; threads that launched
//! kernels wait for it as they end, so the save is not lost at exit and the
//! saving thread is out of the driver before the process tears it down (a
//! thread still inside PoCL at exit crashed it). A later process loads the binary
//! instead of compiling: about 2 ms instead of 20-500 ms on PoCL.
//!
//! - Folder: `SILT_CACHE_DIR` (`off` disables the cache), else
//!   `$XDG_CACHE_HOME/silt`, else `~/.cache/silt`.
//! - Key: the program's source, the build options, the device's name, the
//!   driver's and the platform's versions, and silt's version. The full key is
//!   stored in the file and compared on load: a stale or corrupt entry is rebuilt
//!   from source, never trusted.
//! - Writes go to a temporary file that is then renamed: a reader never sees half
//!   a file.
//! - Size cap: `SILT_CACHE_MAX_BYTES` (default 256 MiB); the least recently
//!   written entries are removed beyond it.

use std::fs;
use std::io::Write;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};

const MAGIC: &[u8] = b"silt-program-binary 2\n";

static HITS: AtomicU64 = AtomicU64::new(0);
static MISSES: AtomicU64 = AtomicU64::new(0);
static STORES: AtomicU64 = AtomicU64::new(0);
static REJECTED: AtomicU64 = AtomicU64::new(0);
static BUILDS: AtomicU64 = AtomicU64::new(0);

/// Counts of the program cache over the whole process.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Stats {
    /// Programs loaded from a saved binary.
    pub disk_hits: u64,
    /// Programs that had no (usable) saved binary.
    pub disk_misses: u64,
    /// Binaries saved.
    pub disk_stores: u64,
    /// Saved binaries found stale or corrupt (and rebuilt from source).
    pub disk_rejected: u64,
    /// Programs compiled from source.
    pub source_builds: u64,
}

/// The program cache's counts for this process.
///
/// ```
/// # use silt_runtime::program_cache;
/// // nothing launched in this program yet: nothing built, loaded or saved
/// let s = program_cache::stats();
/// assert_eq!(s.source_builds + s.disk_hits + s.disk_stores, 0);
/// ```
pub fn stats() -> Stats {
    Stats {
        disk_hits: HITS.load(Ordering::Relaxed),
        disk_misses: MISSES.load(Ordering::Relaxed),
        disk_stores: STORES.load(Ordering::Relaxed),
        disk_rejected: REJECTED.load(Ordering::Relaxed),
        source_builds: BUILDS.load(Ordering::Relaxed),
    }
}

pub(crate) fn note_source_build() {
    BUILDS.fetch_add(1, Ordering::Relaxed);
}

/// The folder of the on-disk program cache, as this process would use it:
/// `SILT_CACHE_DIR`, else `$XDG_CACHE_HOME/silt`, else `~/.cache/silt`; `None`
/// when the cache is off (`SILT_CACHE_DIR=off`) or no folder can be named. The
/// folder may not exist yet: it is made when the first binary is saved.
///
/// ```
/// # use silt_runtime::program_cache;
/// std::env::set_var("SILT_CACHE_DIR", "/tmp/my-silt-cache");
/// assert_eq!(program_cache::dir(), Some("/tmp/my-silt-cache".into()));
/// std::env::set_var("SILT_CACHE_DIR", "off");
/// assert_eq!(program_cache::dir(), None);
/// ```
pub fn dir() -> Option<PathBuf> {
    match std::env::var_os("SILT_CACHE_DIR") {
        Some(d) if d == "off" => None,
        Some(d) if !d.is_empty() => Some(PathBuf::from(d)),
        _ => std::env::var_os("XDG_CACHE_HOME")
            .filter(|v| !v.is_empty())
            .map(PathBuf::from)
            .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
            .map(|base| base.join("silt")),
    }
}

/// What the program cache folder holds, as read from the disk (counts of this
/// process are in [`stats`]).
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub struct Usage {
    /// The folder ([`dir`]).
    pub dir: PathBuf,
    /// Whether the folder exists.
    pub exists: bool,
    /// Saved program binaries in it.
    pub entries: usize,
    /// Their total size in bytes.
    pub bytes: u64,
    /// Unfinished writes in it (left by a process that stopped while saving).
    pub partial: usize,
    /// The size cap (`SILT_CACHE_MAX_BYTES`, default 256 MiB): beyond it the
    /// least recently written entries are removed.
    pub max_bytes: u64,
}

/// The files of the program cache folder, `None` when the cache is off.
///
/// Only silt's files are counted (`<32 hex digits>.bin`, and the temporary
/// `<...>.bin.<pid>.tmp` of an unfinished write); anything else in the folder
/// is left out.
///
/// ```
/// # use silt_runtime::program_cache;
/// let dir = std::env::temp_dir().join(format!("silt-usage-doc-{}", std::process::id()));
/// std::env::set_var("SILT_CACHE_DIR", &dir);
/// let usage = program_cache::usage()?.expect("the cache is on");
/// assert_eq!((usage.dir.as_path(), usage.exists), (dir.as_path(), false));
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join(format!("{:032x}.bin", 1)), [0u8; 10])?; // an entry
/// std::fs::write(dir.join("notes.txt"), "not silt's")?; // not counted
/// let usage = program_cache::usage()?.unwrap();
/// assert_eq!((usage.entries, usage.bytes, usage.partial), (1, 10, 0));
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// The folder exists but cannot be read.
pub fn usage() -> std::io::Result<Option<Usage>> {
    let Some(d) = dir() else {
        return Ok(None);
    };
    let mut usage = Usage {
        exists: d.is_dir(),
        dir: d,
        entries: 0,
        bytes: 0,
        partial: 0,
        max_bytes: max_bytes(),
    };
    if !usage.exists {
        return Ok(Some(usage));
    }
    for entry in fs::read_dir(&usage.dir)? {
        let entry = entry?;
        let name = entry.file_name();
        match cache_file(&name.to_string_lossy()) {
            Some(CacheFile::Entry) => {
                usage.entries += 1;
                usage.bytes += entry.metadata().map_or(0, |m| m.len());
            }
            Some(CacheFile::Partial) => usage.partial += 1,
            None => {}
        }
    }
    Ok(Some(usage))
}

/// Removes every saved program binary (and unfinished write) from the program
/// cache folder and returns how many files were removed; other files in the
/// folder, and the folder itself, stay. `Ok(0)` when the cache is off or the
/// folder does not exist. Later launches build from source and save again.
///
/// ```
/// # use silt_runtime::program_cache;
/// let dir = std::env::temp_dir().join(format!("silt-clear-doc-{}", std::process::id()));
/// std::env::set_var("SILT_CACHE_DIR", &dir);
/// assert_eq!(program_cache::clear()?, 0); // no folder yet
/// std::fs::create_dir_all(&dir)?;
/// std::fs::write(dir.join(format!("{:032x}.bin", 1)), [0u8; 10])?;
/// std::fs::write(dir.join(format!("{:032x}.bin.42.tmp", 2)), [0u8; 3])?;
/// std::fs::write(dir.join("notes.txt"), "kept")?;
/// assert_eq!(program_cache::clear()?, 2);
/// assert!(dir.join("notes.txt").exists());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
///
/// # Errors
/// The folder cannot be read, or a file cannot be removed.
pub fn clear() -> std::io::Result<usize> {
    let Some(d) = dir() else {
        return Ok(0);
    };
    let entries = match fs::read_dir(&d) {
        Ok(e) => e,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e),
    };
    let mut removed = 0;
    for entry in entries {
        let entry = entry?;
        if cache_file(&entry.file_name().to_string_lossy()).is_some()
            && entry.file_type()?.is_file()
        {
            match fs::remove_file(entry.path()) {
                Ok(()) => removed += 1,
                // removed meanwhile (by eviction in another process)
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(e),
            }
        }
    }
    Ok(removed)
}

/// The kinds of files silt writes in the cache folder.
#[derive(Debug, PartialEq, Eq)]
enum CacheFile {
    /// `<32 hex digits>.bin`: a saved binary.
    Entry,
    /// `<32 hex digits>.bin.<pid>.tmp`: a write in progress or left unfinished.
    Partial,
}

fn cache_file(name: &str) -> Option<CacheFile> {
    let hex = name.get(..32)?;
    if !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
        return None;
    }
    let rest = &name[32..];
    if rest == ".bin" {
        return Some(CacheFile::Entry);
    }
    let pid = rest.strip_prefix(".bin.")?.strip_suffix(".tmp")?;
    (!pid.is_empty() && pid.bytes().all(|b| b.is_ascii_digit())).then_some(CacheFile::Partial)
}

fn max_bytes() -> u64 {
    std::env::var("SILT_CACHE_MAX_BYTES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(256 << 20)
}

/// A program's identity in the cache: the full key text and its file name.
#[derive(Debug)]
pub(crate) struct Key {
    text: String,
    file: String,
}

impl Key {
    /// The key of `source` built with `options` on the device named `device`
    /// of a platform and driver of these versions.
    pub(crate) fn new(
        source: &str,
        options: &str,
        platform_version: &str,
        device: &str,
        driver_version: &str,
    ) -> Key {
        let text = format!(
            "silt {}\nplatform {}\ndevice {}\ndriver {}\noptions {}\nsource {}\n",
            env!("CARGO_PKG_VERSION"),
            platform_version,
            device,
            driver_version,
            options,
            source
        );
        let file = format!(
            "{:016x}{:016x}.bin",
            fnv1a(&text, 0xcbf2_9ce4_8422_2325),
            fnv1a(&text, 0x84222325cbf29ce4)
        );
        Key { text, file }
    }
}

/// A checksum of a binary (FNV-1a over its bytes).
fn checksum(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// FNV-1a, 64 bits: a stable hash (std's may change between Rust versions).
fn fnv1a(text: &str, basis: u64) -> u64 {
    text.bytes().fold(basis, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// The saved binary for `key`, if there is one and it is for exactly this key.
pub(crate) fn load(key: &Key) -> Option<Vec<u8>> {
    let Some(path) = dir().map(|d| d.join(&key.file)) else {
        MISSES.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    let Ok(bytes) = fs::read(&path) else {
        MISSES.fetch_add(1, Ordering::Relaxed);
        return None;
    };
    // magic, key length, key, binary length, binary checksum, binary: a binary
    // that is cut short or altered is never handed to the driver (PoCL crashes
    // on some corrupt binaries)
    let k = MAGIC.len();
    let header_len = k + 8 + key.text.len() + 16;
    let ok = bytes.len() >= header_len
        && bytes.starts_with(MAGIC)
        && bytes[k..k + 8] == (key.text.len() as u64).to_le_bytes()
        && &bytes[k + 8..k + 8 + key.text.len()] == key.text.as_bytes()
        && {
            let at = k + 8 + key.text.len();
            let binary = &bytes[header_len..];
            bytes[at..at + 8] == (binary.len() as u64).to_le_bytes()
                && bytes[at + 8..at + 16] == checksum(binary).to_le_bytes()
        };
    if !ok {
        reject(key);
        return None;
    }
    HITS.fetch_add(1, Ordering::Relaxed);
    Some(bytes[header_len..].to_vec())
}

/// Counts a saved binary that could not be used, and removes it.
pub(crate) fn reject(key: &Key) {
    REJECTED.fetch_add(1, Ordering::Relaxed);
    MISSES.fetch_add(1, Ordering::Relaxed);
    if let Some(d) = dir() {
        let _ = fs::remove_file(d.join(&key.file));
    }
}

/// Saves a binary atomically (write, then rename), then trims the folder to its
/// size cap. Failures are ignored: the cache is an optimisation.
pub(crate) fn store(key: &Key, binary: &[u8]) {
    let Some(d) = dir() else { return };
    if fs::create_dir_all(&d).is_err() {
        return;
    }
    let tmp = d.join(format!("{}.{}.tmp", key.file, std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = fs::File::create(&tmp)?;
        f.write_all(MAGIC)?;
        f.write_all(&(key.text.len() as u64).to_le_bytes())?;
        f.write_all(key.text.as_bytes())?;
        f.write_all(&(binary.len() as u64).to_le_bytes())?;
        f.write_all(&checksum(binary).to_le_bytes())?;
        f.write_all(binary)?;
        f.sync_all()?;
        fs::rename(&tmp, d.join(&key.file))
    };
    if write().is_ok() {
        STORES.fetch_add(1, Ordering::Relaxed);
        evict(&d);
    } else {
        let _ = fs::remove_file(&tmp);
    }
}

/// Removes the oldest entries while the folder holds more than the cap.
fn evict(d: &std::path::Path) {
    let Ok(entries) = fs::read_dir(d) else { return };
    let mut files: Vec<(std::time::SystemTime, u64, PathBuf)> = entries
        .flatten()
        .filter(|e| e.path().extension().is_some_and(|x| x == "bin"))
        .filter_map(|e| {
            let m = e.metadata().ok()?;
            Some((m.modified().ok()?, m.len(), e.path()))
        })
        .collect();
    let mut total: u64 = files.iter().map(|f| f.1).sum();
    let cap = max_bytes();
    files.sort();
    for (_, len, path) in files {
        if total <= cap {
            break;
        }
        if fs::remove_file(&path).is_ok() {
            total = total.saturating_sub(len);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{cache_file, fnv1a, CacheFile};

    #[test]
    fn only_silts_file_names_are_cache_files() {
        let hex = "0123456789abcdef0123456789ABCDEF";
        assert_eq!(cache_file(&format!("{hex}.bin")), Some(CacheFile::Entry));
        assert_eq!(
            cache_file(&format!("{hex}.bin.4242.tmp")),
            Some(CacheFile::Partial)
        );
        for other in [
            "notes.txt".to_string(),
            format!("{hex}.bak"),
            format!("{hex}.bin.x.tmp"),
            format!("{hex}.bin..tmp"),
            format!("{}.bin", &hex[1..]),
            format!("{}g.bin", &hex[1..]),
            format!("{hex}0.bin"),
        ] {
            assert_eq!(cache_file(&other), None, "{other}");
        }
    }

    #[test]
    fn the_hash_is_stable() {
        // FNV-1a's published test vector
        assert_eq!(fnv1a("a", 0xcbf2_9ce4_8422_2325), 0xaf63_dc4c_8601_ec8c);
    }
}
