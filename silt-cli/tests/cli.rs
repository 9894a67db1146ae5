//! The `silt` binary, run as a user runs it.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// Whether this run is under CI (`CI=true`), where a missing OpenCL device is a
/// failure, never a skip.
fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The first OpenCL device's name. Without one: a failure under CI, else a skip
/// with a message on stderr (`None`).
fn opencl_name() -> Option<String> {
    match silt::Device::opencl(0) {
        Ok(d) => Some(d.info().name.clone()),
        Err(e) if under_ci() => panic!(
            "CI=true but no OpenCL device: {e}\n(install pocl-opencl-icd and set POCL_CACHE_DIR \
             to a writable folder)"
        ),
        Err(e) => {
            eprintln!("SKIPPED: no OpenCL device ({e}); install PoCL to run device tests");
            None
        }
    }
}

/// `silt ARGS` with `env` added to the environment (`SILT_DEVICE` removed
/// unless given).
fn silt(args: &[&str], env: &[(&str, &Path)]) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_silt"));
    cmd.args(args)
        .env_remove("SILT_DEVICE")
        .env_remove("NO_COLOR");
    for (k, v) in env {
        cmd.env(k, v);
    }
    cmd.output().expect("the silt binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("utf-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("utf-8 output")
}

/// A new, empty folder under the system's temporary folder.
fn temp_dir(tag: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "silt-cli-test-{tag}-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn every_command_has_help() {
    for (args, expect) in [
        (&["--help"][..], "Commands:"),
        (&["devices", "--help"], "Device::default()"),
        (&["source", "--help"], "silt source add f32"),
        (&["cache", "--help"], "SILT_CACHE_DIR"),
        (&["cache", "stats", "--help"], "POCL_CACHE_DIR"),
        (&["cache", "clear", "--help"], "left alone"),
        (&["bench", "--help"], "bench_report"),
    ] {
        let o = silt(args, &[]);
        assert!(o.status.success(), "{args:?}: {o:?}");
        let text = stdout(&o);
        assert!(text.contains("Usage: silt"), "{args:?}:\n{text}");
        assert!(text.contains(expect), "{args:?} lacks {expect:?}:\n{text}");
    }
    // the top-level help names every command
    let top = stdout(&silt(&["--help"], &[]));
    for c in ["devices", "source", "cache", "bench"] {
        assert!(top.contains(&format!("  {c} ")), "{c}:\n{top}");
    }
}

#[test]
fn no_command_or_a_wrong_one_is_a_usage_error() {
    for args in [&[][..], &["frobnicate"], &["cache"], &["cache", "wipe"]] {
        let o = silt(args, &[]);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {o:?}");
        assert!(stderr(&o).contains("Usage:"), "{args:?}: {}", stderr(&o));
    }
}

#[test]
fn devices_lists_the_opencl_device_and_the_host() {
    let o = silt(&["devices"], &[]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    for col in [
        "platform",
        "device",
        "type",
        "memory",
        "max alloc",
        "OpenCL C",
        "fp64",
    ] {
        assert!(text.contains(col), "no {col} column:\n{text}");
    }
    let host_row = text
        .lines()
        .find(|l| l.split_whitespace().any(|w| w == "host") && l.contains("silt host"))
        .unwrap_or_else(|| panic!("no host row:\n{text}"));
    let Some(name) = opencl_name() else {
        return;
    };
    let row = text
        .lines()
        .find(|l| l.contains("opencl:0") && l.contains(&name))
        .unwrap_or_else(|| panic!("no row for opencl:0 ({name}):\n{text}"));
    // unset SILT_DEVICE: the first OpenCL device is the default, and only it
    assert!(row.starts_with('*'), "{row}");
    assert!(!host_row.starts_with('*'), "{host_row}");
    assert!(text.contains("the default device: opencl:0"), "{text}");
}

#[test]
fn devices_marks_the_device_silt_device_names() {
    let o = silt(&["devices"], &[("SILT_DEVICE", Path::new("host"))]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    let marked: Vec<&str> = text.lines().filter(|l| l.starts_with('*')).collect();
    assert_eq!(marked.len(), 2, "{text}"); // the row and the legend
    assert!(marked[0].contains("silt host"), "{text}");
    assert!(text.contains("chosen by SILT_DEVICE=host"), "{text}");

    // a device that is absent: no row marked, and the reason
    let o = silt(&["devices"], &[("SILT_DEVICE", Path::new("opencl:999"))]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(!text.lines().any(|l| l.starts_with('*')), "{text}");
    assert!(
        text.contains("SILT_DEVICE=opencl:999 is not usable"),
        "{text}"
    );
}

#[test]
fn devices_without_opencl_still_shows_the_host_and_what_to_install() {
    // the ICD loader then finds no platform
    let o = silt(
        &["devices"],
        &[("OCL_ICD_VENDORS", Path::new("/nonexistent"))],
    );
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(
        text.lines()
            .any(|l| l.starts_with('*') && l.contains("silt host")),
        "{text}"
    );
    assert!(!text.contains("opencl:0 "), "{text}");
    assert!(text.contains("No OpenCL device found"), "{text}");
    assert!(text.contains("apt-get install pocl-opencl-icd"), "{text}");
}

#[test]
fn source_prints_the_c_of_one_instantiation() {
    let o = silt(&["source", "add", "f32"], &[]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains("__kernel void add_f32("), "{text}");
    assert!(!text.contains("add_f64"), "{text}");
    assert!(!text.contains('\x1b'), "colour on a pipe: {text}");
    // exactly what the kernel's module returns
    assert_eq!(text, silt_kernels::add::source(silt::DType::F32).unwrap());
}

#[test]
fn source_without_a_dtype_prints_every_instantiation() {
    let text = stdout(&silt(&["source", "sigmoid"], &[]));
    for d in ["f32", "f64"] {
        assert!(
            text.contains(&format!("/* ===== sigmoid for {d} ===== */")),
            "{text}"
        );
        assert!(
            text.contains(&format!("__kernel void sigmoid_{d}(")),
            "{text}"
        );
    }
    // a kernel without a type parameter has one program
    let text = stdout(&silt(&["source", "logical_and"], &[]));
    assert_eq!(text.matches("/* =====").count(), 1, "{text}");
    assert!(text.contains("__kernel void logical_and"), "{text}");
}

#[test]
fn source_without_a_kernel_lists_every_operation() {
    let o = silt(&["source"], &[]);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    for op in silt_kernels::catalog::OPERATIONS {
        assert!(
            text.lines()
                .any(|l| l.split_whitespace().next() == Some(op.name)),
            "{} is not listed",
            op.name
        );
    }
    assert!(
        text.contains(&format!(
            "{} operations",
            silt_kernels::catalog::OPERATIONS.len()
        )),
        "{text}"
    );
}

#[test]
fn source_colours_only_when_asked() {
    let text = stdout(&silt(&["source", "add", "f32", "--color", "always"], &[]));
    assert!(text.contains("\x1b[1;34m__kernel\x1b[0m"), "{text}");
    let text = stdout(&silt(&["source", "add", "f32", "--color", "never"], &[]));
    assert!(!text.contains('\x1b'), "{text}");
}

#[test]
fn an_unknown_kernel_is_exit_code_2_with_close_names() {
    let o = silt(&["source", "sigmod"], &[]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(o.stdout.is_empty());
    let err = stderr(&o);
    assert!(err.contains("no operation `sigmod`"), "{err}");
    assert!(err.contains("did you mean sigmoid"), "{err}");

    let err = stderr(&silt(&["source", "qwertyuiop"], &[]));
    assert!(!err.contains("did you mean"), "{err}");
    assert!(
        err.contains(&format!(
            "`silt source` lists all {} operations",
            silt_kernels::catalog::OPERATIONS.len()
        )),
        "{err}"
    );
}

#[test]
fn an_unknown_dtype_is_exit_code_2_with_the_valid_ones() {
    for (dtype, expect) in [
        ("f33", "`f33` is not a dtype"),
        ("i32", "`exp` has no i32 instantiation"),
    ] {
        let o = silt(&["source", "exp", dtype], &[]);
        assert_eq!(o.status.code(), Some(2), "{o:?}");
        let err = stderr(&o);
        assert!(err.contains(expect), "{err}");
        assert!(err.contains("instantiated for: f16, f32, f64"), "{err}");
    }
    let o = silt(&["source", "logical_not", "bool"], &[]);
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    assert!(stderr(&o).contains("not generic"), "{}", stderr(&o));
}

/// Writes a file of `len` bytes.
fn fill(path: &Path, len: usize) {
    std::fs::write(path, vec![7u8; len]).unwrap();
}

#[test]
fn cache_stats_and_clear_count_and_remove_silts_files_only() {
    let dir = temp_dir("files");
    let hex = "0123456789abcdef0123456789abcdef";
    fill(&dir.join(format!("{hex}.bin")), 1000);
    fill(&dir.join(format!("{}.bin", hex.replace('0', "f"))), 24);
    fill(&dir.join(format!("{hex}.bin.123.tmp")), 5);
    fill(&dir.join("notes.txt"), 50);
    let env = [("SILT_CACHE_DIR", dir.as_path())];

    let o = silt(&["cache", "stats"], &env);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains(&dir.display().to_string()), "{text}");
    assert!(text.contains("2 saved program binaries"), "{text}");
    assert!(text.contains("(1024 bytes)"), "{text}");
    assert!(text.contains("unfinished writes: 1"), "{text}");

    let o = silt(&["cache", "clear"], &env);
    assert!(o.status.success(), "{o:?}");
    assert!(stdout(&o).contains("removed 3 files"), "{}", stdout(&o));
    let left: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    assert_eq!(left, ["notes.txt"]);

    let text = stdout(&silt(&["cache", "stats"], &env));
    assert!(text.contains("0 saved program binaries"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn cache_stats_reports_pocls_folder_and_a_disabled_cache() {
    let pocl = temp_dir("pocl");
    std::fs::create_dir_all(pocl.join("kcache/AB")).unwrap();
    fill(&pocl.join("kcache/AB/program.bc"), 2048);
    let o = silt(
        &["cache", "stats"],
        &[
            ("SILT_CACHE_DIR", Path::new("off")),
            ("POCL_CACHE_DIR", pocl.as_path()),
        ],
    );
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains("silt program cache: off"), "{text}");
    assert!(
        text.contains(&format!(
            "{} (POCL_CACHE_DIR): 1 files, 2.0 KiB",
            pocl.display()
        )),
        "{text}"
    );
    std::fs::remove_dir_all(&pocl).unwrap();
}

#[test]
fn a_launch_fills_the_cache_and_clear_empties_it() {
    if opencl_name().is_none() {
        return;
    }
    let dir = temp_dir("launch");
    let cache = dir.join("silt");
    let env = [
        ("SILT_CACHE_DIR", cache.as_path()),
        ("SILT_DEVICE", Path::new("opencl")),
    ];
    // `bench --quick` launches `add` on the device: its program is saved
    let o = silt(&["bench", "--quick"], &env);
    assert!(o.status.success(), "{o:?}");
    let text = stdout(&o);
    assert!(text.contains("GB/s"), "{text}");
    assert!(text.contains("compiled from source"), "{text}");
    assert!(text.contains("bench_report"), "{text}");

    let text = stdout(&silt(&["cache", "stats"], &env));
    let entries: usize = text
        .lines()
        .find_map(|l| l.trim().strip_prefix("entries:"))
        .and_then(|l| l.split_whitespace().next()?.parse().ok())
        .unwrap_or_else(|| panic!("{text}"));
    assert!(entries >= 1, "{text}");

    // a second process loads the program instead of compiling it
    let text = stdout(&silt(&["bench", "--quick"], &env));
    assert!(text.contains("loaded from silt's program cache"), "{text}");

    let text = stdout(&silt(&["cache", "clear"], &env));
    assert!(text.contains(&format!("removed {entries} file")), "{text}");
    let text = stdout(&silt(&["cache", "stats"], &env));
    assert!(text.contains("0 saved program binaries"), "{text}");
    std::fs::remove_dir_all(&dir).unwrap();
}
