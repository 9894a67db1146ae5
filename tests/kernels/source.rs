//! The emitted OpenCL C: snapshotted (read before accepting), syntax-checked by
//! clang where it is installed, and built by the OpenCL device.

use std::process::Command;

use silt::__private::KernelInfo;
use silt::prelude::*;

use crate::common;
use crate::{defs, half, helpers, regressions, strided};

type Kernel = (
    &'static str,
    &'static [DType],
    fn(DType) -> Option<&'static str>,
    fn() -> &'static [&'static KernelInfo],
);

macro_rules! kernels {
    ($($m:ident :: $k:ident),* $(,)?) => {
        vec![$((stringify!($k), $m::$k::TYPES, $m::$k::source as fn(DType) -> Option<&'static str>,
                $m::$k::__infos as fn() -> &'static [&'static KernelInfo])),*]
    };
}

fn all() -> Vec<Kernel> {
    kernels!(
        defs::add,
        defs::axpy,
        defs::mandel,
        defs::greater,
        defs::int_arith,
        defs::int_bits,
        defs::signed_ops,
        defs::int_counts,
        defs::euclid,
        defs::float_to_int,
        defs::int_casts,
        defs::narrow_f64,
        defs::float_exact,
        defs::float_minmax,
        defs::float_round,
        defs::float_compare,
        defs::float_bits,
        defs::transcendental,
        defs::transcendental2,
        defs::control,
        defs::inclusive_range,
        defs::sign,
        defs::sincos,
        defs::logic,
        defs::consts,
        defs::names,
        defs::compound,
        defs::int_consts,
        half::half_arith,
        half::half_casts,
        half::half_builtins,
        half::half_convert,
        helpers::hypot2,
        helpers::sq_sum,
        helpers::clamped,
        strided::iota,
        strided::checkerboard,
        regressions::same_type_cast,
        regressions::tuple_order,
        regressions::compound_order,
        regressions::reserved,
        regressions::break_in_let,
        regressions::deferred_init,
        regressions::dot,
    )
}

/// All programs of a kernel, one after another.
fn programs(k: &Kernel) -> String {
    let (name, types, source, _) = k;
    if types.is_empty() {
        return source(DType::F32).unwrap_or_default().to_string();
    }
    let mut out = String::new();
    for &d in *types {
        let text = source(d).unwrap_or_else(|| panic!("{name}: no source for listed type {d}"));
        out.push_str(&format!("/* ===== {name} for {d} ===== */\n{text}\n"));
    }
    out
}

#[test]
fn snapshots_of_every_program() {
    for k in all() {
        insta::assert_snapshot!(k.0, programs(&k));
    }
}

#[test]
fn source_is_none_outside_types() {
    assert!(defs::add::source(DType::U8).is_none());
    assert!(defs::add::source(DType::F64).is_some());
    assert_eq!(defs::add::TYPES, [DType::F32, DType::F64, DType::I32]);
    assert_eq!(defs::add::NAME, "add");
    assert!(defs::narrow_f64::TYPES.is_empty());
    // text is deterministic: the same call gives the same program
    assert_eq!(
        defs::mandel::source(DType::F32),
        defs::mandel::source(DType::F32)
    );
}

#[test]
fn programs_start_with_the_pragmas_they_need() {
    for k in all() {
        for info in (k.3)() {
            let src = info.source();
            assert!(src.contains("#pragma OPENCL FP_CONTRACT OFF"), "{}", k.0);
            assert_eq!(
                src.contains("double"),
                src.contains("cl_khr_fp64"),
                "{}: fp64 pragma iff double",
                k.0
            );
            assert!(
                !src.contains("get_global_size"),
                "{}: no grid-stride loop",
                k.0
            );
        }
    }
}

/// `clang-15 -x cl -cl-std=CL1.2 -fsyntax-only`: catches C that a lenient driver
/// might accept.
#[test]
fn clang_accepts_every_program() {
    let clang = ["clang-15", "clang"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    });
    let Some(clang) = clang else {
        assert!(
            !common::under_ci(),
            "CI=true but clang-15 is not installed (see .ci/run)"
        );
        eprintln!("SKIPPED: clang-15 not installed");
        return;
    };
    let dir = std::env::temp_dir().join(format!("silt-clang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let mut checked = 0;
    for k in all() {
        for (i, info) in (k.3)().iter().enumerate() {
            let path = dir.join(format!("{}_{i}.cl", k.0));
            std::fs::write(&path, info.source()).unwrap();
            let out = Command::new(clang)
                .args([
                    "-x",
                    "cl",
                    "-cl-std=CL1.2",
                    "-fsyntax-only",
                    "-Xclang",
                    "-finclude-default-header",
                ])
                .args([
                    "-Xclang",
                    "-cl-ext=-cl_khr_fp16,+cl_khr_fp64",
                    "-Werror=implicit-function-declaration",
                ])
                .arg(&path)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "clang rejected {} #{i}:\n{}\n{}",
                k.0,
                String::from_utf8_lossy(&out.stderr),
                info.source()
            );
            checked += 1;
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(checked > 50, "only {checked} programs checked");
}

#[test]
fn the_device_builds_every_program() {
    let Some(cl) = common::opencl() else { return };
    for k in all() {
        for info in (k.3)() {
            if let Err(e) = silt::__private::build(info, &cl) {
                panic!("{}: {e}", k.0);
            }
        }
    }
}

/// A build failure carries the kernel's name, the device and the compiler's log.
#[test]
fn build_errors_carry_the_log() {
    let Some(cl) = common::opencl() else { return };
    use silt::__private::{Def, Form, OpenClKernel, Piece, ProgramText};
    const BAD_SOURCE: &str =
        "__kernel void broken_f32(__global float* x) { x[0] = undefined_name; }\n";
    // not registered in `PROGRAMS`: built alone
    static BAD_PROGRAM: ProgramText = ProgramText::new(
        "broken",
        module_path!(),
        false,
        &[Def::new(Piece::Entries, "broken_f32", BAD_SOURCE)],
    );
    static BAD: KernelInfo = KernelInfo::new(
        "broken",
        Some(DType::F32),
        Form::Map,
        OpenClKernel::new(
            &BAD_PROGRAM,
            "broken",
            &[0],
            c"broken_f32",
            c"broken_f32_strided",
        ),
    );
    let err = silt::__private::build(&BAD, &cl).unwrap_err();
    let msg = err.to_string();
    assert!(matches!(err, Error::Build { .. }), "{err:?}");
    assert!(msg.contains("kernel `broken` for f32"), "{msg}");
    assert!(
        msg.contains("undefined_name"),
        "the build log is in the error: {msg}"
    );
    assert!(msg.contains(&cl.to_string()), "{msg}");
}
