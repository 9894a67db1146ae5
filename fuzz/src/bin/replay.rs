//! Replays fuzz inputs outside libFuzzer and checks every OpenCL C program the
//! macro emits for an accepted kernel with `clang-15 -fsyntax-only`.
//!
//! ```text
//! cargo run --release --bin replay -- tokens corpus/tokens [more files or dirs]
//! cargo run --release --bin replay -- kernels corpus/kernels
//! cargo run --release --bin replay -- folds corpus/folds
//! cargo run --release --bin replay -- generate 5000 [seed]   # fresh random kernels
//! cargo run --release --bin replay -- generate-folds 3000 [seed]   # reductions, scans
//! cargo run --release --bin replay -- lexes corpus/tokens     # inputs that lex
//! ```
//!
//! Prints how many inputs were accepted and how many programs clang checked, and
//! every rejected program with its kernel and clang's message; exits 1 if any.
//! Without `clang-15` (or `$SILT_CLANG`) on PATH it only replays (no panic) and
//! says so; with `CI=true` that is a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

// Built by `cargo fuzz build` (with `--cfg fuzzing`), the code is instrumented
// for coverage, whose hooks libFuzzer's runtime defines: linked here, since this
// bin is no fuzz target.
#[cfg(fuzzing)]
use libfuzzer_sys as _;
use silt_codegen_fuzz::{run_folds, run_kernels, run_tokens};

/// A program to check, and where it came from.
struct Item {
    origin: String,
    source: String,
    program: String,
}

fn files(args: &[String]) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for a in args {
        let p = Path::new(a);
        if p.is_dir() {
            let mut v: Vec<PathBuf> = std::fs::read_dir(p)
                .expect("readable directory")
                .filter_map(|e| e.ok().map(|e| e.path()))
                .filter(|p| p.is_file())
                .collect();
            v.sort();
            out.extend(v);
        } else {
            out.push(p.to_path_buf());
        }
    }
    out
}

/// A small deterministic generator for `generate` mode.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

fn clang() -> Option<String> {
    let name = std::env::var("SILT_CLANG").unwrap_or_else(|_| "clang-15".into());
    Command::new(&name)
        .arg("--version")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|_| name)
}

/// clang's OpenCL C 1.2 front end, without `cl_khr_fp16`, and without
/// `cl_khr_fp64` for a program that does not enable it (a device may lack it:
/// the runtime only asks for it when the program says so). Warnings are errors
/// (`double precision constant requires cl_khr_fp64` is one), except the ones
/// about style that generated code trips over (`a > b | c` is parenthesised as
/// C reads it, `x == x` is a NaN test, `2 ^ 3` is what the kernel says,
/// `f64::MAX == f64::NAN` is `DBL_MAX == (double)NAN`, which clang takes for a
/// comparison in `float` that `DBL_MAX` does not fit).
fn clang_args(clang: &str, files: &[PathBuf], fp64: bool) -> Command {
    let mut c = Command::new(clang);
    c.args([
        "-x",
        "cl",
        "-cl-std=CL1.2",
        "-fsyntax-only",
        "-Werror",
        "-Wno-parentheses",
        "-Wno-tautological-compare",
        "-Wno-xor-used-as-pow",
        "-Wno-constant-logical-operand",
        "-Wno-literal-range",
        "-Xclang",
        "-finclude-default-header",
        "-Xclang",
        if fp64 {
            "-cl-ext=-cl_khr_fp16"
        } else {
            "-cl-ext=-cl_khr_fp16,-cl_khr_fp64"
        },
    ]);
    c.args(files);
    c
}

/// Checks the programs in batches (one clang process per batch, two at once);
/// returns the rejected ones with clang's message.
fn check_programs(clang: &str, items: &[Item], dir: &Path) -> Vec<(usize, String)> {
    let paths: Vec<PathBuf> = items
        .iter()
        .enumerate()
        .map(|(i, it)| {
            let p = dir.join(format!("p{i}.cl"));
            std::fs::write(&p, &it.program).expect("writable temp dir");
            p
        })
        .collect();
    let fp64 = |i: usize| items[i].program.contains("cl_khr_fp64");
    let mut chunks: Vec<Vec<usize>> = Vec::new();
    for want in [false, true] {
        let ids: Vec<usize> = (0..items.len()).filter(|&i| fp64(i) == want).collect();
        chunks.extend(ids.chunks(40).map(<[usize]>::to_vec));
    }
    let bad = std::sync::Mutex::new(Vec::new());
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..2 {
            s.spawn(|| loop {
                let k = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(chunk) = chunks.get(k) else { break };
                let batch: Vec<PathBuf> = chunk.iter().map(|&i| paths[i].clone()).collect();
                let out = clang_args(clang, &batch, fp64(chunk[0]))
                    .output()
                    .expect("clang runs");
                if out.status.success() {
                    continue;
                }
                // find the culprits one by one
                for &i in chunk {
                    let o = clang_args(clang, &paths[i..=i], fp64(i))
                        .output()
                        .expect("clang runs");
                    if !o.status.success() {
                        let msg = String::from_utf8_lossy(&o.stderr).into_owned();
                        bad.lock().expect("no poison").push((i, msg));
                    }
                }
            });
        }
    });
    let mut bad = bad.into_inner().expect("no poison");
    bad.sort_by_key(|(i, _)| *i);
    bad
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let Some(mode) = args.first() else {
        eprintln!(
            "usage: replay (tokens|kernels|folds) PATH... | replay (generate|generate-folds) N [SEED]"
        );
        std::process::exit(2);
    };
    let mut items: Vec<Item> = Vec::new();
    let (mut inputs, mut accepted, mut wild) = (0usize, 0usize, 0usize);
    let mut add = |origin: String, source: String, programs: Vec<String>| {
        for program in programs {
            if !items.iter().any(|it| it.program == program) {
                items.push(Item {
                    origin: origin.clone(),
                    source: source.clone(),
                    program,
                });
            }
        }
    };
    match mode.as_str() {
        "tokens" => {
            for f in files(&args[1..]) {
                // a running fuzzer may have removed it since the listing
                let Ok(data) = std::fs::read(&f) else {
                    continue;
                };
                inputs += 1;
                if let Some(e) = run_tokens(&data) {
                    if e.accepted() {
                        accepted += 1;
                        let text = String::from_utf8_lossy(&data).into_owned();
                        add(f.display().to_string(), text, e.programs);
                    }
                }
            }
        }
        "kernels" => {
            for f in files(&args[1..]) {
                // a running fuzzer may have removed it since the listing
                let Ok(data) = std::fs::read(&f) else {
                    continue;
                };
                inputs += 1;
                if let Some((case, e)) = run_kernels(&data) {
                    wild += usize::from(case.wild);
                    if e.accepted() {
                        accepted += 1;
                        add(f.display().to_string(), case.to_string(), e.programs);
                    }
                }
            }
        }
        "folds" => {
            for f in files(&args[1..]) {
                let Ok(data) = std::fs::read(&f) else {
                    continue;
                };
                inputs += 1;
                if let Some((case, e)) = run_folds(&data) {
                    wild += usize::from(case.wild);
                    if e.accepted() {
                        accepted += 1;
                        add(f.display().to_string(), case.to_string(), e.programs);
                    }
                }
            }
        }
        "generate-folds" => {
            let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
            let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
            let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            for i in 0..n {
                let len = 64 + (rng.next() % 4000) as usize;
                let data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                inputs += 1;
                if let Some((case, e)) = run_folds(&data) {
                    wild += usize::from(case.wild);
                    if e.accepted() {
                        accepted += 1;
                        add(
                            format!("generated module #{i} (seed {seed})"),
                            case.to_string(),
                            e.programs,
                        );
                    }
                }
            }
        }
        "generate" => {
            let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
            let seed: u64 = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(1);
            let mut rng = XorShift(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1);
            for i in 0..n {
                let len = 64 + (rng.next() % 4000) as usize;
                let data: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
                inputs += 1;
                if let Some((case, e)) = run_kernels(&data) {
                    wild += usize::from(case.wild);
                    if e.accepted() {
                        accepted += 1;
                        add(
                            format!("generated #{i} (seed {seed})"),
                            case.to_string(),
                            e.programs,
                        );
                    }
                }
            }
        }
        "lexes" => {
            // lists the `tokens` inputs whose attribute and item both lex (the
            // ones that reach the code generator)
            for f in files(&args[1..]) {
                let Ok(data) = std::fs::read(&f) else {
                    continue;
                };
                let Ok(text) = std::str::from_utf8(&data) else {
                    continue;
                };
                let (attr, item) = silt_codegen_fuzz::split_raw(text);
                if attr.parse::<proc_macro2::TokenStream>().is_ok()
                    && item.parse::<proc_macro2::TokenStream>().is_ok()
                {
                    println!("{}", f.display());
                }
            }
            return;
        }
        "seed" => {
            // writes `attr\nitem` texts of generated kernels (without helpers) as
            // seeds for the `tokens` target
            let n: usize = args.get(1).and_then(|s| s.parse().ok()).unwrap_or(50);
            let dir = PathBuf::from(args.get(2).map_or("corpus/tokens", String::as_str));
            std::fs::create_dir_all(&dir).expect("writable corpus dir");
            let mut rng = XorShift(0x5EED);
            let mut written = 0;
            while written < n {
                let data: Vec<u8> = (0..512).map(|_| rng.next() as u8).collect();
                let mut u = arbitrary::Unstructured::new(&data);
                if let Ok(case) = silt_codegen_fuzz::gen::kernel(&mut u) {
                    if case.helpers.is_empty() {
                        let text = format!("{}\n{}", case.attr, case.item);
                        std::fs::write(dir.join(format!("seed-{written}")), text)
                            .expect("writable");
                        written += 1;
                    }
                }
            }
            println!("{written} seeds in {}", dir.display());
            return;
        }
        other if other.starts_with('-') => {
            eprintln!(
                "replay is not a fuzz target (`cargo fuzz run replay` passes it libFuzzer's \
                 flags): run it as `cargo run --release --bin replay -- MODE PATH...`, or \
                 target/<host triple>/release/replay after `cargo fuzz build`"
            );
            std::process::exit(2);
        }
        other => {
            eprintln!(
                "unknown mode `{other}`: expected tokens, kernels, folds, generate or generate-folds"
            );
            std::process::exit(2);
        }
    }
    println!(
        "{inputs} inputs, {accepted} accepted ({wild} with a deliberate mistake), {} distinct programs",
        items.len()
    );
    let Some(clang) = clang() else {
        if std::env::var("CI").as_deref() == Ok("true") {
            eprintln!("clang-15 is not on PATH (set SILT_CLANG): the programs were not checked");
            std::process::exit(1);
        }
        println!("clang-15 is not on PATH (set SILT_CLANG): skipping the OpenCL C check");
        return;
    };
    let dir = std::env::temp_dir().join(format!("silt-fuzz-replay-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let bad = check_programs(&clang, &items, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    let mut stdout = std::io::stdout().lock();
    for (i, msg) in &bad {
        let it = &items[*i];
        let _ = writeln!(
            stdout,
            "==== clang rejects a program of {}\n---- kernel\n{}\n---- program\n{}\n---- clang\n{}",
            it.origin, it.source, it.program, msg
        );
    }
    let _ = writeln!(
        stdout,
        "{} programs checked with {clang}: {} rejected",
        items.len(),
        bad.len()
    );
    if !bad.is_empty() {
        std::process::exit(1);
    }
}
