//! Helpers shared by the integration tests.
#![allow(dead_code)]

use silt::Device;

/// Whether this run is under CI (`CI=true`), where a missing OpenCL device is a
/// failure, never a skip.
pub fn under_ci() -> bool {
    std::env::var("CI").is_ok_and(|v| !v.is_empty() && v != "0" && v != "false")
}

/// The first OpenCL device. Without one: a failure under CI, else a skip with a
/// message on stderr (`None`).
///
/// From then on this thread fills every device output it allocates with
/// `0xFF` bytes before a kernel writes it (NaN in every float type, -1 or the
/// maximum in the integers): an element a kernel leaves unwritten fails the
/// test's comparison instead of passing as a fresh buffer's zero.
pub fn opencl() -> Option<Device> {
    match Device::opencl(0) {
        Ok(d) => {
            silt::__testing::poison_uninit(Some(0xFF));
            Some(d)
        }
        Err(e) if under_ci() => panic!(
            "CI=true but no OpenCL device: {e}\n(install pocl-opencl-icd and set POCL_CACHE_DIR \
             to a writable folder; see .ci/run)"
        ),
        Err(e) => {
            eprintln!("SKIPPED: no OpenCL device ({e}); install PoCL to run device tests");
            None
        }
    }
}

/// The host and, when present, the first OpenCL device.
pub fn devices() -> Vec<Device> {
    let mut out = vec![Device::host()];
    out.extend(opencl());
    out
}

/// Runs the test `name` of this test binary in a child process, with `flag`
/// set (the child test does its work only then) and empty caches (a fresh
/// PoCL cache in a temporary folder, silt's disk cache off), so that every
/// program it uses is built from source. Its exit status, stdout and stderr.
pub fn child_with_empty_caches(name: &str, flag: &str) -> (bool, String, String) {
    let dir = std::env::temp_dir().join(format!("silt-{name}-{}", std::process::id()));
    let pocl = dir.join("pocl");
    std::fs::create_dir_all(&pocl).unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture"])
        .env(flag, "1")
        .env("POCL_CACHE_DIR", &pocl)
        // no saved binaries: saving compiles every kernel at once
        .env("SILT_CACHE_DIR", "off")
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs the test `name` of this test binary alone in a child process, on one
/// thread, with `flag` set (the child test does its work only then): for a
/// test hook that changes a device for every thread of its process. Fails
/// unless the child ran that one test and it passed.
pub fn run_child(name: &str, flag: &str) {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([name, "--exact", "--nocapture", "--test-threads=1"])
        .env(flag, "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(stdout.contains("1 passed"), "the child ran: {stdout}");
}

/// A small deterministic generator (xorshift64), so that a failure
/// reproduces: the same state, the same numbers.
pub struct Rng(pub u64);

impl Rng {
    /// A generator for `seed` (any value, zero included).
    pub fn seeded(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// The next 64 bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}
