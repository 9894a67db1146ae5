//! Every reduction's program passes clang without a warning and builds on the
//! device; one program is snapshotted.

use std::process::Command;

use silt::__private::KernelInfo;

use super::common;
use super::defs::*;

fn all() -> Vec<(&'static str, &'static [&'static KernelInfo])> {
    vec![
        ("sum", sum::__infos()),
        ("sum_sq", sum_sq::__infos()),
        ("count_nonzero", count_nonzero::__infos()),
        ("argmax", argmax::__infos()),
        ("scaled_dot_mean", scaled_dot_mean::__infos()),
        ("min_max", min_max::__infos()),
        ("all_positive", all_positive::__infos()),
        ("running_sum", running_sum::__infos()),
        ("running_max", running_max::__infos()),
        ("running_dot_mean", running_dot_mean::__infos()),
    ]
}

#[test]
fn clang_accepts_every_program_without_warnings() {
    let Some(clang) = ["clang-15", "clang"].into_iter().find(|c| {
        Command::new(c)
            .arg("--version")
            .output()
            .is_ok_and(|o| o.status.success())
    }) else {
        assert!(!common::under_ci(), "CI=true but clang-15 is not installed");
        eprintln!("SKIPPED: clang-15 not installed");
        return;
    };
    let dir = std::env::temp_dir().join(format!("silt-reduce-clang-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (name, infos) in all() {
        for (i, info) in infos.iter().enumerate() {
            let path = dir.join(format!("{name}_{i}.cl"));
            std::fs::write(&path, info.source()).unwrap();
            let out = Command::new(clang)
                .args(["-x", "cl", "-cl-std=CL1.2", "-fsyntax-only"])
                .args(["-Xclang", "-finclude-default-header"])
                .args(["-Xclang", "-cl-ext=-cl_khr_fp16,+cl_khr_fp64"])
                .arg(&path)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert!(
                out.status.success() && stderr.is_empty(),
                "clang on {name} #{i}:\n{stderr}\n{}",
                info.source()
            );
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_device_builds_every_program() {
    let Some(cl) = common::opencl() else { return };
    for (name, infos) in all() {
        for info in infos {
            if let Err(e) = silt::__private::build(info, &cl) {
                panic!("{name}: {e}");
            }
        }
    }
}

#[test]
fn snapshot_of_a_tuple_reduction() {
    insta::assert_snapshot!(argmax::source(silt::DType::F32).unwrap());
}
