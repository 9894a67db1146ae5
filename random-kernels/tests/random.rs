//! Every generated kernel (from `silt-kernel-gen`, see the crate docs) on the
//! OpenCL device against the host (`launch` on `Device::host()`, which runs
//! `eval`) and against `eval` itself, over edge values and random values: bit
//! for bit, or within the ULP bound of the transcendental function a float output
//! ends in (`silt_codegen::builtins::Builtin::ulps`, plus one for the host).
//!
//! On a mismatch the test prints the kernel, the instantiation, the inputs of the
//! element and both values, and the seed: `SILT_RANDOM_SEED=<seed>
//! SILT_RANDOM_ONLY=<index> cargo test -p silt-random-kernels` rebuilds just that
//! kernel.

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::Device;
use silt_random_kernels::generated::{COUNT, KERNELS, SEED};
use silt_random_kernels::{Class, Col, Inputs, Inst, Kernel};

/// Elements per launch.
const LEN: usize = 400;
/// Launches per instantiation and backend (each with other inputs and scalars).
const RUNS: u64 = 2;
/// Elements `eval` is compared on.
const EVAL_LEN: usize = 64;
/// Shards the corpus is split into (one test each, so that they run in parallel).
const SHARDS: usize = 4;

#[derive(Default)]
struct Tally {
    kernels: usize,
    insts: usize,
    launches: usize,
    values: usize,
    /// Instantiations for `f16`, and `f16` values compared (of any instantiation).
    f16_insts: usize,
    f16_values: usize,
    failures: Vec<String>,
}

fn describe(k: &Kernel, inst: &Inst, inputs: &Inputs, i: usize, what: &str) -> String {
    let mut s = format!(
        "{what}\n  kernel {} instantiated for {} (SILT_RANDOM_SEED={SEED:#x}, \
         SILT_RANDOM_COUNT={COUNT}; input seed {:#x}, element {i})\n  inputs:",
        k.name, inst.ty, inputs.seed
    );
    for (name, col) in (inst.inputs)(inputs) {
        s.push_str(&format!(" {name} = {},", col.show(i)));
    }
    s.push_str(&format!("\n{}", k.source));
    s
}

/// One launch: the kernel, its instantiation and its inputs.
struct Case<'a> {
    k: &'a Kernel,
    inst: &'a Inst,
    inputs: &'a Inputs,
}

fn compare(
    case: &Case,
    label: &str,
    dev: &[Col],
    host: &[Col],
    exact_only: bool,
    tally: &mut Tally,
) {
    let (k, inst, inputs) = (case.k, case.inst, case.inputs);
    assert_eq!(dev.len(), inst.outputs.len(), "{}: output count", k.name);
    assert_eq!(host.len(), inst.outputs.len(), "{}: output count", k.name);
    for (o, (d, h)) in dev.iter().zip(host).enumerate() {
        let n = d.len().min(h.len());
        assert_eq!(d.type_name(), h.type_name(), "{}: output types", k.name);
        let class = if exact_only {
            Class::Exact
        } else {
            inst.classes[o]
        };
        let allowed = match class {
            Class::Exact => 0,
            Class::Ulps(u) => u,
        };
        tally.values += n;
        if d.type_name() == "f16" {
            tally.f16_values += n;
        }
        for i in 0..n {
            let dist = d.distance(h, i);
            if dist > allowed {
                tally.failures.push(describe(
                    k,
                    inst,
                    inputs,
                    i,
                    &format!(
                        "{label}: output {} ({class:?}): {} vs {} ({} ulps)",
                        inst.outputs[o],
                        d.show(i),
                        h.show(i),
                        if dist == u64::MAX {
                            "different".to_string()
                        } else {
                            dist.to_string()
                        }
                    ),
                ));
                // one report per output and launch
                break;
            }
        }
    }
}

fn run_shard(shard: usize) {
    let cl = common::opencl();
    let host = Device::host();
    let mut tally = Tally::default();
    for (ki, k) in KERNELS.iter().enumerate() {
        if ki % SHARDS != shard {
            continue;
        }
        tally.kernels += 1;
        for inst in k.insts {
            tally.insts += 1;
            if inst.ty == "f16" {
                tally.f16_insts += 1;
            }
            for run in 0..RUNS {
                // every other launch goes through `dispatch` on untyped tensors
                let via_dispatch = run % 2 == 1;
                let how = if via_dispatch { "dispatch" } else { "launch" };
                let inputs = Inputs {
                    seed: SEED ^ (run.wrapping_mul(0x2545_f491_4f6c_dd1d)),
                    len: LEN,
                };
                let h = match (inst.launch)(&host, &inputs, via_dispatch) {
                    Ok(h) => h,
                    Err(e) => {
                        tally.failures.push(describe(
                            k,
                            inst,
                            &inputs,
                            0,
                            &format!("host {how} failed: {e}"),
                        ));
                        continue;
                    }
                };
                tally.launches += 1;
                // the host backend is `eval`, element by element
                let e = (inst.eval)(&inputs, EVAL_LEN);
                let case = Case {
                    k,
                    inst,
                    inputs: &inputs,
                };
                compare(
                    &case,
                    &format!("eval vs host {how}"),
                    &e,
                    &h,
                    true,
                    &mut tally,
                );
                let Some(cl) = &cl else { continue };
                match (inst.launch)(cl, &inputs, via_dispatch) {
                    Ok(d) => {
                        tally.launches += 1;
                        compare(
                            &case,
                            &format!("device vs host ({how})"),
                            &d,
                            &h,
                            false,
                            &mut tally,
                        );
                    }
                    Err(e) => tally.failures.push(describe(
                        k,
                        inst,
                        &inputs,
                        0,
                        &format!("device {how} failed: {e}"),
                    )),
                }
            }
        }
    }
    eprintln!(
        "shard {shard}: {} kernels, {} instantiations ({} for f16), {} launches, {} values \
         compared ({} f16) (SILT_RANDOM_SEED={SEED:#x}, SILT_RANDOM_COUNT={COUNT})",
        tally.kernels, tally.insts, tally.f16_insts, tally.launches, tally.values, tally.f16_values
    );
    assert!(
        tally.failures.is_empty(),
        "{} mismatches (SILT_RANDOM_SEED={SEED:#x} SILT_RANDOM_COUNT={COUNT}):\n\n{}",
        tally.failures.len(),
        tally.failures.join("\n\n")
    );
}

#[test]
fn shard_0() {
    run_shard(0);
}

#[test]
fn shard_1() {
    run_shard(1);
}

#[test]
fn shard_2() {
    run_shard(2);
}

#[test]
fn shard_3() {
    run_shard(3);
}

/// The corpus has kernels, each with at least one instantiation and output.
#[test]
fn corpus_is_not_empty() {
    assert!(!KERNELS.is_empty(), "no kernels generated");
    for k in KERNELS {
        assert!(!k.insts.is_empty(), "{}: no instantiation", k.name);
        for i in k.insts {
            assert!(!i.outputs.is_empty(), "{}: no output", k.name);
            assert_eq!(i.outputs.len(), i.classes.len());
        }
    }
}

/// The comparison the shards use: NaNs alike, `0.0` and `-0.0` apart, ULPs counted
/// across zero, integers equal or not.
#[test]
fn distance_tells_values_apart() {
    let f = Col::F32(vec![0.0, f32::NAN, 1.0, -f32::from_bits(1), f32::INFINITY]);
    let g = Col::F32(vec![
        -0.0,
        -f32::NAN,
        f32::from_bits(1.0f32.to_bits() + 2),
        f32::from_bits(1),
        f32::MAX,
    ]);
    let d: Vec<u64> = (0..5).map(|i| f.distance(&g, i)).collect();
    assert_eq!(d, [1, 0, 2, 2, 1]);
    assert_eq!(f.distance(&f, 0), 0);
    let a = Col::I64(vec![i64::MIN, 3]);
    let b = Col::I64(vec![i64::MAX, 3]);
    assert_eq!((a.distance(&b, 0), a.distance(&b, 1)), (u64::MAX, 0));
    assert_eq!(a.distance(&f, 0), u64::MAX, "different types");
    assert_eq!(f.show(1), "NaNf32 (0x7fc00000)");
    // f16: the same line, on 16 bits
    let h = |x: f32| silt::f16::from_f32(x);
    let f = Col::F16(vec![
        h(0.0),
        silt::f16::NAN,
        h(1.0),
        -silt::f16::from_bits(1),
        silt::f16::INFINITY,
        silt::f16::from_bits(0x7e01),
    ]);
    let g = Col::F16(vec![
        h(-0.0),
        -silt::f16::NAN,
        silt::f16::from_bits(h(1.0).to_bits() + 2),
        silt::f16::from_bits(1),
        silt::f16::MAX,
        h(1.0),
    ]);
    let d: Vec<u64> = (0..6).map(|i| f.distance(&g, i)).collect();
    assert_eq!(d, [1, 0, 2, 2, 1, u64::MAX]);
    assert_eq!(f.show(2), "1.0f16 (0x3c00)");
    assert_eq!(f.distance(&Col::F32(vec![0.0]), 0), u64::MAX);
}
