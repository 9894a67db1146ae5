//! Launch geometry: the work-group size of each launch, chosen per kind of
//! device, within what the kernel allows.
//!
//! No result depends on it: a map entry point is one work-item per element
//! (guarded by the element count), a reduction's first pass one work-item per
//! lane or tile (its tree passes keep their own fixed groups), a scan one
//! work-item per chunk.
//!
//! - **CPU (PoCL):** [`CPU_LOCAL`] work-items, or [`CPU_WIDE`] for a launch
//!   of at least `CPU_WIDE * max(compute units, CPU_WIDE_GROUPS)` items. PoCL
//!   compiles a kernel's work-group function once per local size (31-45 ms
//!   cold), so silt uses these two sizes whatever the number of elements: at
//!   most two compiled variants per entry point, no recompile for a new tensor
//!   size. On PoCL 3.1 on a 2-core machine, silt's `add` kernel launched from
//!   opencl3 on the same buffers (cache state equal) ran at 256 2-15% below
//!   PoCL's own choice (4096) from 2^16 elements up and level with it at 2^14
//!   and below; at 4096 it matched PoCL's choice. Wide groups wait until every
//!   compute unit gets one and the last group, mostly past the count, wastes
//!   at most `1 / CPU_WIDE_GROUPS` of the launch. A 1-element launch with a
//!   256-wide group costs no more than with a 16-wide one: the work-items past
//!   the count return at their first test.
//! - **GPU and others:** [`GPU_LOCAL`] work-items, rounded down to a multiple
//!   of the kernel's preferred multiple (the warp or wavefront); a launch of
//!   fewer items takes the fewest whole multiples that cover them, so a tiny
//!   launch runs one warp, not a block of eight. GPU drivers do not compile
//!   per local size, so these few sizes (at most `GPU_LOCAL / multiple`) cost
//!   no compile.

use std::cell::Cell;

use crate::cl::KernelLimits;

use super::info::{DeviceInfo, DeviceKind};

/// The work-group size of a launch on a CPU device below the wide threshold.
pub(crate) const CPU_LOCAL: usize = 256;

/// The work-group size of a large launch on a CPU device: PoCL's own choice
/// for large launches (its maximum).
pub(crate) const CPU_WIDE: usize = 4096;

/// The fewest wide groups a CPU launch is split into (more on a device with
/// more compute units): the last group, mostly past the element count, then
/// costs at most this fraction of the launch.
pub(crate) const CPU_WIDE_GROUPS: usize = 8;

/// The work-group size of a full launch on a GPU (before rounding down to the
/// kernel's preferred multiple).
pub(crate) const GPU_LOCAL: usize = 256;

thread_local! {
    /// A work-group size this thread's launches use instead (a test and
    /// benchmark hook).
    pub(super) static LOCAL_OVERRIDE: Cell<Option<usize>> = const { Cell::new(None) };
}

/// The work-group size for a launch of `items` work-items of a kernel with
/// `limits` on the device `info` describes: at least 1, at most what the
/// kernel and the device allow.
pub(crate) fn local_size(info: &DeviceInfo, items: usize, limits: KernelLimits) -> usize {
    let max = limits.max.min(info.max_work_group_size).max(1);
    let want = LOCAL_OVERRIDE
        .with(Cell::get)
        .unwrap_or_else(|| match info.kind {
            DeviceKind::Cpu | DeviceKind::Host => {
                let groups = (info.compute_units as usize).max(CPU_WIDE_GROUPS);
                if items >= CPU_WIDE.saturating_mul(groups) {
                    CPU_WIDE
                } else {
                    CPU_LOCAL
                }
            }
            DeviceKind::Gpu | DeviceKind::Accelerator => {
                let m = limits.multiple.max(1);
                let full = (GPU_LOCAL / m).max(1) * m;
                if items < full {
                    items.div_ceil(m).max(1) * m
                } else {
                    full
                }
            }
        });
    want.clamp(1, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info(kind: DeviceKind, max: usize) -> DeviceInfo {
        let mut i = DeviceInfo::host();
        i.kind = kind;
        i.max_work_group_size = max;
        i
    }

    const WIDE: KernelLimits = KernelLimits {
        max: 4096,
        multiple: 32,
    };

    #[test]
    fn a_cpu_uses_two_sizes_within_the_limits() {
        let mut cpu = info(DeviceKind::Cpu, 4096);
        cpu.compute_units = 2;
        for items in [1, 255, 256, 1 << 14, (1 << 15) - 1] {
            assert_eq!(local_size(&cpu, items, WIDE), CPU_LOCAL, "{items}");
        }
        for items in [1 << 15, (1 << 15) + 1, 1 << 20, usize::MAX] {
            assert_eq!(local_size(&cpu, items, WIDE), CPU_WIDE, "{items}");
        }
        // more compute units: wide once each gets a group
        cpu.compute_units = 64;
        assert_eq!(local_size(&cpu, 1 << 17, WIDE), CPU_LOCAL);
        assert_eq!(local_size(&cpu, 1 << 18, WIDE), CPU_WIDE);
        // a kernel (or device) that allows less gets what it allows
        let narrow = KernelLimits {
            max: 100,
            multiple: 1,
        };
        assert_eq!(local_size(&cpu, 1 << 20, narrow), 100);
        assert_eq!(local_size(&cpu, 1, narrow), 100);
        assert_eq!(local_size(&info(DeviceKind::Cpu, 16), 1 << 20, WIDE), 16);
    }

    #[test]
    fn a_gpu_uses_whole_warps_and_few_for_tiny_launches() {
        let gpu = info(DeviceKind::Gpu, 1024);
        assert_eq!(local_size(&gpu, 1 << 20, WIDE), 256);
        assert_eq!(local_size(&gpu, 1, WIDE), 32);
        assert_eq!(local_size(&gpu, 33, WIDE), 64);
        assert_eq!(local_size(&gpu, 255, WIDE), 256);
        // a wavefront of 64
        let amd = KernelLimits {
            max: 256,
            multiple: 64,
        };
        assert_eq!(local_size(&gpu, 100, amd), 128);
        assert_eq!(local_size(&gpu, 1 << 20, amd), 256);
        // a multiple above the full size: one multiple, within the limits
        let odd = KernelLimits {
            max: 1024,
            multiple: 384,
        };
        assert_eq!(local_size(&gpu, 1 << 20, odd), 384);
        for items in [1usize, 7, 31, 32, 200, 1 << 30] {
            let l = local_size(&gpu, items, WIDE);
            assert!(l % 32 == 0 && l <= 256, "{items}: {l}");
        }
    }

    #[test]
    fn the_override_wins_within_the_limits() {
        let cpu = info(DeviceKind::Cpu, 4096);
        LOCAL_OVERRIDE.with(|o| o.set(Some(7)));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), 7);
        LOCAL_OVERRIDE.with(|o| o.set(Some(1 << 20)));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), 4096);
        LOCAL_OVERRIDE.with(|o| o.set(None));
        assert_eq!(local_size(&cpu, 1 << 20, WIDE), CPU_WIDE);
        assert_eq!(local_size(&cpu, 1, WIDE), CPU_LOCAL);
    }
}
