//! Devices: facts, identity, thread-safety, `SILT_DEVICE` and a machine without
//! OpenCL (checked in child processes, since the environment is read once).

#![allow(clippy::cast_possible_truncation)] // small test sizes

mod common;

use std::process::Command;

use silt::prelude::*;
use silt::DeviceKind;

fn assert_send_sync<T: Send + Sync + std::fmt::Debug + 'static>() {}

#[test]
fn runtime_types_are_send_and_sync() {
    assert_send_sync::<Device>();
    assert_send_sync::<Tensor>();
    assert_send_sync::<TensorT<f32>>();
    assert_send_sync::<Error>();
}

#[test]
fn opencl_device_facts() {
    let Some(dev) = common::opencl() else { return };
    let info = dev.info();
    assert!(!info.name.is_empty() && !info.vendor.is_empty());
    assert!(
        info.opencl_c_version.starts_with("OpenCL C "),
        "{}",
        info.opencl_c_version
    );
    assert!(info.version.starts_with("OpenCL "), "{}", info.version);
    assert!(info.max_alloc_bytes > 0);
    assert!(info.global_mem_bytes >= info.max_alloc_bytes as u64);
    assert!(info.compute_units > 0);
    assert_eq!(
        info.fp64,
        info.extensions.iter().any(|e| e == "cl_khr_fp64")
    );
    assert_eq!(
        info.fp16,
        info.extensions.iter().any(|e| e == "cl_khr_fp16")
    );
    assert_eq!(dev.supports(DType::F64), info.fp64);
    assert!(dev.supports(DType::F32));
    assert_ne!(info.kind, DeviceKind::Host);
    assert_eq!(dev.opencl_index(), Some(0));
    assert!(dev.to_string().starts_with("opencl:0 ("));
    if info.platform_name.contains("Portable Computing Language") {
        // PoCL on this machine (see OPENCL-NOTES.md)
        assert!(info.fp64);
        assert_eq!(info.kind, DeviceKind::Cpu);
    }
}

#[test]
fn devices_are_identities() {
    let host = Device::host();
    assert_eq!(host, Device::host());
    assert!(host.is_host() && host.opencl_index().is_none());
    assert_eq!(host.info().kind, DeviceKind::Host);
    let all = Device::all().unwrap();
    assert_eq!(all.last(), Some(&host));
    assert_eq!(all.len(), Device::opencl_count() + 1);
    if let Some(cl) = common::opencl() {
        assert_ne!(cl, host);
        assert_eq!(all[0], cl);
        let clone = cl.clone();
        // a clone shares the pool: what one allocates the other sees
        let t = TensorT::<u8>::zeros(&clone, [1]).unwrap();
        assert_eq!(
            cl.memory_stats().allocated_bytes,
            clone.memory_stats().allocated_bytes
        );
        drop(t);
        let dbg = format!("{cl:?}");
        assert!(dbg.contains("opencl:0"), "{dbg}");
    }
}

#[test]
fn device_specs() {
    assert_eq!(Device::from_spec("host").unwrap(), Device::host());
    for bad in [
        "gpu",
        "cpu",
        "opencl:",
        "opencl:x",
        "opencl:-1",
        "opencl:+1",
        "",
    ] {
        assert_eq!(
            Device::from_spec(bad).unwrap_err(),
            Error::InvalidDeviceSpec {
                spec: bad.to_string()
            }
        );
    }
    let err = Device::from_spec("opencl:99").unwrap_err();
    assert!(
        matches!(&err, Error::NoDevice { requested, .. } if requested == "opencl:99"),
        "{err}"
    );
    if let Some(cl) = common::opencl() {
        assert_eq!(Device::from_spec("opencl").unwrap(), cl);
        assert_eq!(Device::from_spec(" opencl:0 ").unwrap(), cl);
    }
}

/// Runs `child_probe` in a new process of this test binary with extra environment.
fn probe(env: &[(&str, &str)]) -> (String, String) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["child_probe", "--exact", "--nocapture", "--test-threads=1"]);
    cmd.env("SILT_PROBE", "1").env_remove("SILT_DEVICE");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().unwrap();
    assert!(
        out.status.success(),
        "child failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The child side of [`probe`]: prints what `Device::default()` and
/// `Device::opencl(0)` give. Does nothing unless `SILT_PROBE` is set.
#[test]
fn child_probe() {
    if std::env::var_os("SILT_PROBE").is_none() {
        return;
    }
    match Device::default() {
        Ok(d) => println!("DEFAULT={d}"),
        Err(e) => println!("DEFAULT_ERR={e:?}"),
    }
    match Device::opencl(0) {
        Ok(d) => println!("OPENCL0={d}"),
        Err(e) => println!("OPENCL0_ERR={e}"),
    }
    println!("ALL={}", Device::all().map_or(0, |a| a.len()));
}

#[test]
fn silt_device_chooses_the_default() {
    let (out, _) = probe(&[("SILT_DEVICE", "host")]);
    assert!(out.contains("DEFAULT=host\n"), "{out}");
    let (out, _) = probe(&[("SILT_DEVICE", "opencl:7")]);
    assert!(
        out.contains("DEFAULT_ERR=NoDevice { requested: \"opencl:7\""),
        "{out}"
    );
    let (out, _) = probe(&[("SILT_DEVICE", "cuda")]);
    assert!(
        out.contains("DEFAULT_ERR=InvalidDeviceSpec { spec: \"cuda\" }"),
        "{out}"
    );
    if common::opencl().is_some() {
        for spec in ["opencl:0", "opencl"] {
            let (out, _) = probe(&[("SILT_DEVICE", spec)]);
            assert!(out.contains("DEFAULT=opencl:0 ("), "{spec}: {out}");
        }
        let (out, _) = probe(&[]);
        assert!(
            out.contains("DEFAULT=opencl:0 ("),
            "without SILT_DEVICE: {out}"
        );
    }
}

#[test]
fn no_opencl_platform_falls_back_to_the_host() {
    let empty = std::env::temp_dir().join(format!("silt-no-icd-{}", std::process::id()));
    std::fs::create_dir_all(&empty).unwrap();
    let (out, err) = probe(&[("OCL_ICD_VENDORS", empty.to_str().unwrap())]);
    let _ = std::fs::remove_dir(&empty);
    assert!(out.contains("DEFAULT=host\n"), "{out}");
    assert!(
        out.contains("OPENCL0_ERR=no device opencl:0: no OpenCL platform found"),
        "{out}"
    );
    assert!(out.contains("ALL=1\n"), "{out}");
    assert!(
        err.contains("silt: no OpenCL device, using the host backend"),
        "{err}"
    );
}

#[test]
fn a_platform_without_devices_says_why() {
    if common::opencl().is_none() {
        return;
    }
    // PoCL lists no device when its cache folder cannot be created
    let (out, _) = probe(&[("POCL_CACHE_DIR", "/proc/silt-cannot-create-this")]);
    if out.contains("OPENCL0=") {
        return; // a driver other than PoCL: nothing to check
    }
    assert!(out.contains("platform(s) but no device"), "{out}");
    assert!(out.contains("POCL_CACHE_DIR"), "{out}");
    assert!(out.contains("DEFAULT=host\n"), "{out}");
}
