//! `silt devices`: the OpenCL devices and the host, the default one marked.

use silt::{Device, DeviceInfo, DeviceKind, DEVICE_ENV};

use crate::table::{bytes, emit, Table};
use crate::Failure;

/// What to install when OpenCL lists no device.
const INSTALL_HINT: &str = "To run kernels on an OpenCL device, install an OpenCL driver: on \
                            Debian or Ubuntu `apt-get install pocl-opencl-icd` (PoCL, which \
                            runs kernels on the CPU), or your GPU vendor's OpenCL driver. PoCL \
                            also needs a writable cache folder: set POCL_CACHE_DIR if \
                            ~/.cache is not writable.";

/// Prints the table (and, with `long`, each device's details).
pub fn run(long: bool) -> Result<(), Failure> {
    let mut out = String::new();
    let mut devices = Vec::new();
    let mut problems = Vec::new();
    let count = Device::opencl_count();
    for i in 0..count {
        match Device::opencl(i) {
            Ok(d) => devices.push(d),
            Err(e) => problems.push(format!("opencl:{i} is listed but cannot be used: {e}")),
        }
    }
    devices.push(Device::host());

    let spec = std::env::var(DEVICE_ENV)
        .ok()
        .filter(|s| !s.trim().is_empty());
    let default = if count == 0 && spec.is_none() {
        // what Device::default() picks, without its note on stderr: the
        // paragraph below says why there is no OpenCL device
        Ok(Device::host())
    } else {
        Device::default()
    };

    let mut table = Table::new(&[
        "",
        "spec",
        "platform",
        "device",
        "type",
        "units",
        "memory",
        "max alloc",
        "OpenCL C",
        "fp64",
        "fp16",
    ]);
    for d in &devices {
        let info = d.info();
        let is_default = default.as_ref().is_ok_and(|x| x == d);
        table.row(vec![
            if is_default { "*" } else { "" }.to_string(),
            d.opencl_index()
                .map_or("host".to_string(), |i| format!("opencl:{i}")),
            info.platform_name.clone(),
            info.name.clone(),
            kind(info.kind).to_string(),
            info.compute_units.to_string(),
            if info.global_mem_bytes == 0 {
                "-".to_string()
            } else {
                bytes(info.global_mem_bytes)
            },
            if d.is_host() {
                "-".to_string()
            } else {
                bytes(u64::try_from(info.max_alloc_bytes).unwrap_or(u64::MAX))
            },
            c_version(info),
            yes_no(info.fp64),
            yes_no(info.fp16),
        ]);
    }
    out.push_str(&table.render());
    out.push('\n');
    match (&default, &spec) {
        (Ok(d), Some(s)) => out.push_str(&format!(
            "* the default device: {d} (chosen by {DEVICE_ENV}={s})\n"
        )),
        (Ok(d), None) => out.push_str(&format!(
            "* the default device: {d} ({DEVICE_ENV} is not set: the first OpenCL device, else \
             the host)\n"
        )),
        (Err(e), _) => out.push_str(&format!(
            "no default device: {DEVICE_ENV}={} is not usable: {e}\n",
            spec.as_deref().unwrap_or("")
        )),
    }
    out.push_str(
        "host: silt's host backend (kernels as plain Rust on the CPU); memory is the \
         process's.\n",
    );
    if count == 0 {
        let reason = Device::opencl(0)
            .err()
            .map_or_else(String::new, |e| format!(" ({e})"));
        out.push_str(&format!(
            "\nNo OpenCL device found{reason}.\n{INSTALL_HINT}\n"
        ));
    }
    for p in &problems {
        out.push_str(&format!("\nnote: {p}\n"));
    }
    if long {
        for d in &devices {
            out.push_str(&details(d));
        }
    }
    emit(&out)
}

/// The name of a device kind.
fn kind(k: DeviceKind) -> &'static str {
    match k {
        DeviceKind::Host => "host",
        DeviceKind::Cpu => "CPU",
        DeviceKind::Gpu => "GPU",
        _ => "accelerator",
    }
}

fn yes_no(b: bool) -> String {
    if b { "yes" } else { "no" }.to_string()
}

/// `1.2` from `OpenCL C 1.2 PoCL`; `-` for the host.
fn c_version(info: &DeviceInfo) -> String {
    let v = info.opencl_c_version.trim();
    if v.is_empty() {
        return "-".to_string();
    }
    v.strip_prefix("OpenCL C ")
        .and_then(|rest| rest.split_whitespace().next())
        .unwrap_or(v)
        .to_string()
}

/// The `--long` block of one device.
fn details(d: &Device) -> String {
    let info = d.info();
    let mut s = format!("\n{d}\n");
    let mut field = |k: &str, v: &str| {
        if !v.is_empty() {
            s.push_str(&format!("  {k:<22} {v}\n"));
        }
    };
    field("vendor", &info.vendor);
    field("platform", &info.platform_name);
    field("platform version", &info.platform_version);
    field("device version", &info.version);
    field("OpenCL C version", &info.opencl_c_version);
    field("driver version", &info.driver_version);
    field("compute units", &info.compute_units.to_string());
    field("max work-group size", &info.max_work_group_size.to_string());
    if !d.is_host() {
        let [x, y, z] = info.max_work_item_sizes;
        field("max work-group shape", &format!("{x} x {y} x {z}"));
    }
    if info.max_parameter_bytes != usize::MAX {
        field(
            "max kernel arguments",
            &format!("{} bytes", info.max_parameter_bytes),
        );
    }
    field(
        "correctly rounded f32",
        if info.correctly_rounded_divide_sqrt {
            "yes (division and sqrt)"
        } else {
            "no"
        },
    );
    if !info.extensions.is_empty() {
        field("extensions", &info.extensions.join(" "));
    }
    s
}
