//! Writes `$OUT_DIR/generated.rs`: `SILT_RANDOM_COUNT` random valid `#[kernel]`
//! functions derived from `SILT_RANDOM_SEED`, and for each instantiation a function
//! that launches it, one that calls its `eval` and one that lists its inputs; then
//! `SILT_RANDOM_FOLDS` random `#[reduce]` and `#[scan]` modules (two reductions for
//! each scan), with per instantiation a function that launches one over a case's
//! shape, views and axes and one that calls its `eval` on the case's rows.
//!
//! The kernels come from `silt-kernel-gen` (the generator the fuzzer uses too),
//! asked for kernels that run: they use only operations every backend computes
//! alike, except that a float output may end in one transcendental function of
//! exact arguments (compared within that function's ULP bound), and their loops
//! end. The reductions and scans use only exactly specified operations, so every
//! backend gives the same bits. This script only seeds it and writes the wrappers
//! (`build/wrappers.rs`, `build/fold_wrappers.rs`).

#[path = "build/fold_wrappers.rs"]
mod fold_wrappers;
#[path = "build/grid_wrappers.rs"]
mod grid_wrappers;
#[path = "build/wrappers.rs"]
mod wrappers;

use std::env;
use std::fmt::Write as _;
use std::fs;
use std::path::PathBuf;

use silt_kernel_gen::{generate, generate_fold, generate_grid, FoldKind, Options, SplitMix64};

const DEFAULT_SEED: u64 = 0x5117_0001;
const DEFAULT_COUNT: usize = 40;
const DEFAULT_FOLDS: usize = 24;
const DEFAULT_GRIDS: usize = 32;

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    println!("cargo:rerun-if-changed=build/wrappers.rs");
    println!("cargo:rerun-if-changed=build/fold_wrappers.rs");
    println!("cargo:rerun-if-changed=build/grid_wrappers.rs");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_GRIDS");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_SEED");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_COUNT");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_FOLDS");
    println!("cargo:rerun-if-env-changed=SILT_RANDOM_ONLY");
    let seed = env::var("SILT_RANDOM_SEED")
        .ok()
        .and_then(|s| parse_u64(&s))
        .unwrap_or(DEFAULT_SEED);
    let count = env::var("SILT_RANDOM_COUNT")
        .ok()
        .and_then(|s| parse_u64(&s))
        .map_or(DEFAULT_COUNT, |n| {
            usize::try_from(n).unwrap_or(DEFAULT_COUNT)
        });
    let folds = env::var("SILT_RANDOM_FOLDS")
        .ok()
        .and_then(|s| parse_u64(&s))
        .map_or(DEFAULT_FOLDS, |n| {
            usize::try_from(n).unwrap_or(DEFAULT_FOLDS)
        });
    // `SILT_RANDOM_ONLY=3,17,rr4,rs8`: only these kernels, reductions and scans
    // of the corpus (to reproduce one)
    let only: Option<Vec<String>> = env::var("SILT_RANDOM_ONLY")
        .ok()
        .map(|s| s.split(',').map(|x| x.trim().to_string()).collect());
    let (indices, fold_indices): (Vec<usize>, Vec<usize>) = match &only {
        Some(v) => (
            v.iter().filter_map(|x| x.parse().ok()).collect(),
            v.iter()
                .filter_map(|x| x.strip_prefix("rr").or_else(|| x.strip_prefix("rs")))
                .filter_map(|x| x.parse().ok())
                .collect(),
        ),
        None => ((0..count).collect(), (0..folds).collect()),
    };
    let out = PathBuf::from(env::var("OUT_DIR").expect("OUT_DIR"));
    let mut text = corpus(seed, count, &indices);
    text.push_str(&fold_corpus(seed, folds, &fold_indices));
    let grids = env::var("SILT_RANDOM_GRIDS")
        .ok()
        .and_then(|s| parse_u64(&s))
        .map_or(DEFAULT_GRIDS, |n| {
            usize::try_from(n).unwrap_or(DEFAULT_GRIDS)
        });
    text.push_str(&grid_corpus(seed, grids));
    fs::write(out.join("generated.rs"), text).expect("write");
}

/// Fold `i` is a scan when `i % 3 == 2` (`rs{i}`), else a reduction (`rr{i}`).
fn fold_corpus(seed: u64, count: usize, indices: &[usize]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "use ::silt::{{reduce, scan}};

         /// The number of reductions and scans of the corpus.
pub const FOLD_COUNT: usize = {count};
"
    );
    let mut entries = Vec::new();
    for &i in indices {
        let index = u64::try_from(i).unwrap_or(u64::MAX);
        let mut rng = SplitMix64::new(seed ^ (index | 1 << 40).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let (kind, prefix) = if i % 3 == 2 {
            (FoldKind::Scan, "rs")
        } else {
            (FoldKind::Reduce, "rr")
        };
        let opts = Options {
            runnable: true,
            mistakes: 0,
            name: Some(format!("{prefix}{i}")),
        };
        let f = generate_fold(&mut rng, &opts, kind);
        let _ = writeln!(
            out,
            "/// Random {} {i}.
{f}
",
            kind.attr_name()
        );
        entries.push(fold_wrappers::write(&f, &mut out));
    }
    let _ = writeln!(
        out,
        "/// Every generated reduction and scan.
pub static FOLDS: &[crate::fold::Fold] = &[
    {}
];",
        entries.join(",\n    ")
    );
    out
}

/// `count` random grid kernels `g0`, `g1`, ... in a module `grids`, and
/// `GRIDS`.
fn grid_corpus(seed: u64, count: usize) -> String {
    let mut out = String::from(
        "/// The random grid kernels and their wrappers.\npub mod grids {\nuse ::silt::grid;\n\n",
    );
    let mut entries = Vec::new();
    for i in 0..count {
        let index = u64::try_from(i).unwrap_or(u64::MAX);
        let mut rng = SplitMix64::new(seed ^ (index | 1 << 41).wrapping_mul(0x9e37_79b9_7f4a_7c15));
        let g = generate_grid(&mut rng, &format!("g{i}"));
        entries.push(grid_wrappers::write(&g, &mut out));
    }
    out.push_str("}\n\n");
    let _ = writeln!(
        out,
        "/// Every generated grid kernel.\npub static GRIDS: &[crate::Grid] = &[\n    {}\n];",
        entries.join(",\n    ")
    );
    out
}

fn parse_u64(s: &str) -> Option<u64> {
    let s = s.trim();
    match s.strip_prefix("0x") {
        Some(h) => u64::from_str_radix(h, 16).ok(),
        None => s.parse().ok(),
    }
}

fn corpus(seed: u64, count: usize, indices: &[usize]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "// Generated by build.rs from SILT_RANDOM_SEED={seed:#x}, SILT_RANDOM_COUNT={count}.\n\
         use ::silt::{{helper, kernel}};\nuse ::silt::f16;\n\n\
         /// The seed the corpus was generated from.\npub const SEED: u64 = {seed:#x};\n\
         /// The number of kernels of the corpus.\npub const COUNT: usize = {count};\n"
    );
    let mut entries = Vec::new();
    for &i in indices {
        // kernel `i` depends on the seed and `i` alone, so that it can be rebuilt
        // by itself (`SILT_RANDOM_ONLY`)
        let index = u64::try_from(i).unwrap_or(u64::MAX);
        let mut rng = SplitMix64::new(seed ^ index.wrapping_mul(0xd6e8_feb8_6659_fd93));
        let opts = Options {
            runnable: true,
            mistakes: 0,
            name: Some(format!("rk{i}")),
        };
        let k = generate(&mut rng, &opts);
        let _ = writeln!(out, "/// Random kernel {i}.\n{k}\n");
        entries.push(wrappers::write(&k, &mut out));
    }
    let _ = writeln!(
        out,
        "/// Every generated kernel.\npub static KERNELS: &[crate::Kernel] = &[\n    {}\n];",
        entries.join(",\n    ")
    );
    out
}
