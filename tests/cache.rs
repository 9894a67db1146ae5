//! The on-disk program cache, across processes: a first process builds from
//! source and saves, a second loads the binary, a corrupt entry is rebuilt, the
//! size cap holds, `SILT_CACHE_DIR=off` writes nothing (and fetches no binary), a process that ends
//! right after its first launch still saves, and on Oclgrind the save is made on the launching
//! thread.

mod common;

use std::path::Path;
use std::process::Command;

use silt::prelude::*;

#[kernel(types = [f32, f64])]
pub fn cached_affine<T>(x: T, #[scalar] a: T) -> T {
    a * x + 1.0
}

/// The child: launches the kernel, checks the result, prints the cache counts.
#[test]
fn cache_child() {
    if std::env::var_os("SILT_CACHE_CHILD").is_none() {
        return;
    }
    let cl = common::opencl().unwrap();
    if std::env::var_os("SILT_CACHE_CHILD_OCLGRIND").is_some() {
        silt::__testing::act_as_oclgrind(&cl, true);
    }
    let x = TensorT::from_slice(&cl, &[1.0f32, 2.0, 3.0], [3]).unwrap();
    let y = cached_affine::launch(&x, 2.0).unwrap();
    assert_eq!(y.to_vec().unwrap(), [3.0, 5.0, 7.0]);
    // the binary is saved on silt's saving thread; unless told not to, wait
    // for it so that the counts include it
    if std::env::var_os("SILT_CACHE_CHILD_NO_WAIT").is_none() {
        silt::program_cache::wait_for_saves();
    }
    let s = silt::program_cache::stats();
    println!(
        "STATS hits={} misses={} stores={} rejected={} builds={} saver={}",
        s.disk_hits,
        s.disk_misses,
        s.disk_stores,
        s.disk_rejected,
        s.source_builds,
        saver_started().map_or("unknown", |b| if b { "true" } else { "false" })
    );
}

/// Whether this process runs silt's saving thread (started by the first save
/// handed to it), from the threads' names in `/proc/self/task` (`None` where
/// there is no such folder).
fn saver_started() -> Option<bool> {
    let tasks = std::fs::read_dir("/proc/self/task").ok()?;
    Some(tasks.flatten().any(|t| {
        std::fs::read_to_string(t.path().join("comm")).is_ok_and(|n| n.trim() == "silt-save")
    }))
}

/// Whether a child's line says the saving thread ran as `want` says (or could
/// not tell).
fn saver_was(line: &str, want: bool) -> bool {
    line.contains(&format!("saver={want}")) || line.contains("saver=unknown")
}

fn run(dir: &str, extra: &[(&str, &str)]) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["cache_child", "--exact", "--nocapture", "--test-threads=1"])
        .env("SILT_CACHE_CHILD", "1")
        .env("SILT_CACHE_DIR", dir)
        .env_remove("SILT_CACHE_MAX_BYTES");
    for (k, v) in extra {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = stdout
        .lines()
        .find_map(|l| l.find("STATS").map(|i| l[i..].to_string()))
        .unwrap_or_default();
    assert!(!line.is_empty(), "the child ran: {stdout}");
    line
}

fn bins(dir: &Path) -> Vec<std::path::PathBuf> {
    std::fs::read_dir(dir)
        .map(|d| {
            d.flatten()
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "bin"))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn binaries_are_saved_loaded_and_rebuilt_when_corrupt() {
    if common::opencl().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("silt-cache-test-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();

    let first = run(d, &[]);
    assert!(
        first.contains("hits=0") && first.contains("stores=1") && first.contains("builds=1"),
        "{first}"
    );
    // Oclgrind saves on the launching thread (see the last test)
    let oclgrind = common::opencl().unwrap().info().platform_name == "Oclgrind";
    assert!(saver_was(&first, !oclgrind), "{first}");
    assert_eq!(bins(&dir).len(), 1, "one program saved");

    let second = run(d, &[]);
    assert!(
        second.contains("hits=1") && second.contains("builds=0") && second.contains("stores=0"),
        "{second}"
    );

    // a corrupt entry is rebuilt from source, not trusted
    for b in bins(&dir) {
        let mut bytes = std::fs::read(&b).unwrap();
        let n = bytes.len();
        bytes.truncate(n / 2);
        bytes.extend_from_slice(b"garbage");
        std::fs::write(&b, bytes).unwrap();
    }
    let third = run(d, &[]);
    assert!(
        third.contains("builds=1") && third.contains("stores=1"),
        "{third}"
    );
    let fourth = run(d, &[]);
    assert!(
        fourth.contains("hits=1"),
        "rebuilt and saved again: {fourth}"
    );

    // an entry for another key under the same name (stale) is rejected too
    for b in bins(&dir) {
        let bytes = std::fs::read(&b).unwrap();
        let text = String::from_utf8_lossy(&bytes).replace("options ", "options -DSTALE ");
        std::fs::write(&b, text.as_bytes()).unwrap();
    }
    let fifth = run(d, &[]);
    assert!(
        fifth.contains("rejected=1") && fifth.contains("builds=1"),
        "{fifth}"
    );

    // a process that ends without waiting for the save still saves: the
    // next one loads the binary
    let _ = std::fs::remove_dir_all(&dir);
    let quick = run(d, &[("SILT_CACHE_CHILD_NO_WAIT", "1")]);
    assert!(quick.contains("builds=1"), "{quick}");
    assert_eq!(bins(&dir).len(), 1, "saved as the process ended: {quick}");
    let after = run(d, &[]);
    assert!(
        after.contains("hits=1") && after.contains("builds=0"),
        "{after}"
    );

    // the size cap evicts
    let _ = std::fs::remove_dir_all(&dir);
    run(d, &[("SILT_CACHE_MAX_BYTES", "1")]);
    assert!(bins(&dir).is_empty(), "a 1-byte cap keeps nothing");

    let _ = std::fs::remove_dir_all(&dir);
    // with the cache off no binary is fetched either (PoCL would compile every
    // kernel of the program to hand it out): no save reaches the saving thread
    let off = run("off", &[]);
    assert!(
        off.contains("stores=0") && off.contains("builds=1") && saver_was(&off, false),
        "{off}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Oclgrind's runtime is not thread-safe: the saving thread's wait for the
/// queue and the launching thread's next read both run the queued kernels, and
/// two at once abort it. There the binary is saved by the launch itself.
#[test]
fn on_oclgrind_the_binary_is_saved_on_the_launching_thread() {
    if common::opencl().is_none() {
        return;
    }
    let dir = std::env::temp_dir().join(format!("silt-cache-oclgrind-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let d = dir.to_str().unwrap();
    let oclgrind = ("SILT_CACHE_CHILD_OCLGRIND", "1");
    // counted without waiting for saves: saved once the launch returned, and
    // no saving thread started
    let first = run(d, &[oclgrind, ("SILT_CACHE_CHILD_NO_WAIT", "1")]);
    assert!(
        first.contains("builds=1") && first.contains("stores=1"),
        "{first}"
    );
    assert!(saver_was(&first, false), "{first}");
    assert_eq!(bins(&dir).len(), 1, "one program saved");
    let second = run(d, &[oclgrind]);
    assert!(
        second.contains("hits=1") && second.contains("builds=0") && second.contains("stores=0"),
        "{second}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
