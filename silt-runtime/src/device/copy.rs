//! Strided copies between views on one OpenCL device, done on the device.
//!
//! One small program per device (built on first use) holds the copy kernels of
//! each element size; a copy of any view into any other view of the same shape
//! is one launch, with no host round trip and no read-modify-write of
//! neighbouring elements.
//!
//! A copy that transposes (each view contiguous along a dimension along which
//! the other strides far: `contiguous()` of a transpose, a copy into a
//! transposed view) takes a kernel of its own, so that both sides of the copy
//! are read and written whole lines at a time: on a GPU through square tiles
//! in work-group memory, on a CPU in square blocks or strips (see
//! [`transpose_source`]).

use std::ffi::CStr;

use silt_abi::opencl::{
    entry_head, group_within, header, MapEntry, COUNT_TYPE, DIMS_TYPE, NDIM_TYPE,
};

use crate::cl::{error_name, ClError, Mem, Queue};
use crate::error::{Error, Result};
use crate::layout::{coalesce, Layout};

use super::geometry::Grid;
use super::hooks;
use super::info::DeviceKind;
use super::programs::BuiltProgram;
use super::{Device, GATHER_STRIDE};

/// The runtime's own OpenCL C: two strided copies per element size
/// (`silt_copy_{size}` and `silt_copy_{size}_strided3`, for at most three
/// coalesced dimensions), each a three-dimensional launch that finds its
/// element in both views as strided map entries do
/// ([`silt_abi::opencl::MapEntry`]; the vectors first, innermost dimension in
/// lane 0).
fn source() -> String {
    use std::fmt::Write as _;
    let views = ["src".to_owned(), "dst".to_owned()];
    let mut s = header(
        "silt runtime: strided copies between views (one work-item per element).",
        false,
    );
    for (size, ty) in [(1, "uchar"), (2, "ushort"), (4, "uint"), (8, "ulong")] {
        for form in [MapEntry::Strided, MapEntry::Strided3] {
            let suffix = if form == MapEntry::Strided3 {
                form.suffix()
            } else {
                ""
            };
            let params = [
                format!("{DIMS_TYPE} silt_shape, {DIMS_TYPE} silt_st_src, {DIMS_TYPE} silt_st_dst"),
                format!(
                    "__global const {ty}* src, {COUNT_TYPE} silt_off_src, __global {ty}* dst, {COUNT_TYPE} silt_off_dst"
                ),
                format!("{NDIM_TYPE} silt_ndim, {COUNT_TYPE} silt_n"),
            ];
            s.push_str(&entry_head(
                &format!("silt_copy_{size}{suffix}"),
                &params,
                None,
            ));
            s.push_str(&form.prologue(&views));
            s.push_str("    dst[silt_i_dst] = src[silt_i_src];\n}\n");
        }
        s.push_str(&transpose_source(size, ty));
    }
    s.push_str(&entry_head(
        "silt_fill_8",
        &[format!(
            "__global ulong* dst, ulong pattern, {COUNT_TYPE} silt_n"
        )],
        None,
    ));
    // the per-item test behind a whole group's (`group_within`)
    let _ = writeln!(
        s,
        "    ulong i = get_global_id(0);\n    if ({} || i < silt_n) dst[i] = pattern;\n}}",
        group_within(0, "silt_n")
    );
    s
}

/// The fewest bytes a CPU device fills with [`fill`]'s kernel instead of
/// the driver's fill (PoCL, synchronised after each: at 64 KiB the kernel
/// takes 12 us, the driver 28; at 1 KiB the kernel's launch costs more).
const FILL_KERNEL_MIN: usize = 64 << 10;

/// Enqueues filling the first `nbytes` of `mem` with copies of `pattern` (1,
/// 2, 4 or 8 bytes; `nbytes` a multiple of its length): on a CPU device (by
/// the test hook `testing::reduce_as`, a device sharing out its work as a
/// CPU) and from [`FILL_KERNEL_MIN`] bytes, 8-byte words by the copy
/// program's `silt_fill_8` (PoCL's `clEnqueueFillBuffer` writes at half a
/// copy's speed), the last few bytes by the driver; else (and where the copy
/// program does not build) by the driver.
pub(crate) fn fill(
    device: &Device,
    queue: &Queue,
    mem: &Mem,
    nbytes: usize,
    pattern: &[u8],
) -> Result<()> {
    let cpu = hooks::reduce_as(device.info().kind) == DeviceKind::Cpu;
    let kernel = cpu && nbytes >= FILL_KERNEL_MIN && matches!(pattern.len(), 1 | 2 | 4 | 8);
    // (built on the first such fill; one that does not build leaves the
    // driver's fill)
    let program = match kernel.then(|| program(device)) {
        Some(Ok(p)) => p,
        _ => return Ok(queue.fill(mem, 0, nbytes, pattern)?),
    };
    let mut word = [0u8; 8];
    for chunk in word.chunks_exact_mut(pattern.len()) {
        chunk.copy_from_slice(pattern);
    }
    let words = nbytes / 8;
    let name = c"silt_fill_8";
    let (mut kernel, limits) = program.kernel(name, queue)?;
    let launch_err = |e: ClError| Error::cl("fill launch", e.code);
    kernel.set_mem(0, mem).map_err(launch_err)?;
    kernel
        .set_value(1, u64::from_ne_bytes(word))
        .map_err(launch_err)?;
    kernel.set_size(2, words).map_err(launch_err)?;
    let local = device.local_size(words, limits);
    let global = words
        .div_ceil(local)
        .checked_mul(local)
        .ok_or(Error::SizeOverflow {
            shape: vec![words],
            elem_size: 8,
        })?;
    program.enqueue(queue, &kernel, global, local)?;
    program.put_back(name, limits, kernel);
    // the tail: a multiple of the pattern, as 8 bytes are
    Ok(queue.fill(mem, words * 8, nbytes - words * 8, pattern)?)
}

/// The tile of the GPU form of a transposing copy: `TILE` x `TILE` elements
/// per work-group of `TILE` x `TILE_ROWS` work-items (the classic shape: a
/// warp along each row of the tile, a quarter of the tile per pass).
const TILE: usize = 32;
/// The rows of work-items of a tile's work-group (see [`TILE`]).
const TILE_ROWS: usize = 8;

/// The side of each work-item's square block in the CPU form of a
/// transposing copy (a row of the block is one vector: 8 to 32 bytes).
const BLOCK: usize = 8;

/// The elements of each work-item's strip in the CPU form of a transposing
/// copy of 8-byte elements (PoCL, `[4096, 4096]`: 16 matched a 64-byte
/// line's worth).
const STRIP: usize = 16;

/// Whether a CPU's transposing copy of `elem_size`-byte elements goes by
/// blocks (else by strips; see [`transpose_source`]).
fn cpu_blocks(elem_size: usize) -> bool {
    elem_size < 8
}

/// The forms of a transposing copy of `elem_size`-byte elements, element
/// `(x, y, z)` at `so + x * sx + y + z * sz` in the source and `d_o + x + y *
/// dy + z * dz` in the destination (`x` the dimension along which the
/// destination is contiguous, `y` the source's; the unit strides are
/// constants of the kernel, so that the compiler sees neighbouring elements):
///
/// - `silt_transpose_{size}` (CPUs), for elements of 1, 2 and 4 bytes: each
///   work-item copies a [`BLOCK`]-square block, [`BLOCK`] vector reads of
///   the source's rows, a transpose in private memory, [`BLOCK`] vector
///   writes of the destination's (a block across an edge, element by
///   element). PoCL runs each work-item's vectors as they are written; a
///   work-group of [`CPU_BLOCK_GROUP`] blocks along `x` writes whole lines of
///   the destination.
/// - `silt_transpose_8` (CPUs), for elements of 8 bytes: each work-item
///   copies a strip of [`STRIP`] elements along `x` at one `y`, its loop
///   unrolled, and neighbouring work-items take neighbouring `y`. PoCL
///   vectorises across the work-items, so each of the strip's reads is a
///   vector of neighbouring source elements, and each work-item's writes
///   fill a line. (On PoCL, `[4096, 4096]`, GB/s: blocks against strips,
///   `f32` 16.1-16.8 against 10.3-10.7, `u16` 9.0-9.4 against 5.7-6.7, `f64`
///   12.0-12.5 against 18.3-19.3: narrow elements' strips write one element
///   at a time; tiles in work-group memory ran at a third of a strip's
///   speed, the reads of the tile's columns becoming gathers.)
/// - `silt_transpose_tiled_{size}` (GPUs): a work-group reads a [`TILE`]-square
///   tile with neighbouring work-items on neighbouring source elements, keeps
///   it in work-group memory (padded by a column, so that a tile's column
///   spreads over the banks), and writes it with neighbouring work-items on
///   neighbouring destination elements.
fn transpose_source(size: usize, ty: &str) -> String {
    let cpu = if cpu_blocks(size) {
        block_source(size, ty)
    } else {
        strip_source(size, ty)
    };
    format!(
        "{cpu}
__kernel __attribute__((reqd_work_group_size({TILE}, {TILE_ROWS}, 1)))
void silt_transpose_tiled_{size}(__global const {ty}* src, ulong so, ulong sx, ulong sz,
        __global {ty}* dst, ulong d_o, ulong dy, ulong dz, ulong nx, ulong ny) {{
    __local {ty} tile[{TILE}][{TILE} + 1];
    const uint lx = (uint)get_local_id(0), ly = (uint)get_local_id(1);
    const ulong x0 = get_global_id(0) - lx;
    const ulong y0 = get_global_id(1) / {TILE_ROWS}u * {TILE}u;
    const ulong z = get_global_id(2);
    const __global {ty}* s = src + so + z * sz;
    __global {ty}* d = dst + d_o + z * dz;
    for (uint j = ly; j < {TILE}u; j += {TILE_ROWS}u) {{
        const ulong x = x0 + j, y = y0 + lx;
        if (x < nx && y < ny) {{
            tile[j][lx] = s[x * sx + y];
        }}
    }}
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = ly; j < {TILE}u; j += {TILE_ROWS}u) {{
        const ulong x = x0 + lx, y = y0 + j;
        if (x < nx && y < ny) {{
            d[x + y * dy] = tile[lx][j];
        }}
    }}
}}
"
    )
}

/// The CPU form of a transposing copy by square blocks (see
/// [`transpose_source`]).
fn block_source(size: usize, ty: &str) -> String {
    let b = BLOCK;
    // a block's column as a vector: `t[0][i], t[1][i], ..`
    let column = (0..b)
        .map(|j| format!("t[{j}][i]"))
        .collect::<Vec<_>>()
        .join(", ");
    // the per-item tests behind the whole group's, as map entries have them
    let within = format!(
        "{} && {}",
        group_within(0, &format!("(ny + {b}u - 1) / {b}u")),
        group_within(1, &format!("(nx + {b}u - 1) / {b}u"))
    );
    format!(
        "
__kernel void silt_transpose_{size}(__global const {ty}* src, ulong so, ulong sx, ulong sz,
        __global {ty}* dst, ulong d_o, ulong dy, ulong dz, ulong nx, ulong ny) {{
    const ulong y0 = get_global_id(0) * {b}u, x0 = get_global_id(1) * {b}u, z = get_global_id(2);
    if (!({within}) && (y0 >= ny || x0 >= nx)) {{
        return;
    }}
    const __global {ty}* s = src + so + x0 * sx + y0 + z * sz;
    __global {ty}* d = dst + d_o + x0 + y0 * dy + z * dz;
    if (x0 + {b}u <= nx && y0 + {b}u <= ny) {{
        {ty} t[{b}][{b}];
        for (uint j = 0; j < {b}u; j++) {{
            vstore{b}(vload{b}(0, s + j * sx), 0, t[j]);
        }}
        for (uint i = 0; i < {b}u; i++) {{
            vstore{b}(({ty}{b})({column}), 0, d + i * dy);
        }}
    }} else {{
        for (ulong j = 0; j < {b}u && x0 + j < nx; j++) {{
            for (ulong i = 0; i < {b}u && y0 + i < ny; i++) {{
                d[j + i * dy] = s[j * sx + i];
            }}
        }}
    }}
}}
"
    )
}

/// The CPU form of a transposing copy by strips (see [`transpose_source`]).
fn strip_source(size: usize, ty: &str) -> String {
    let strip = STRIP;
    // the per-item test behind the whole group's, as map entries have it
    let within = group_within(0, "ny");
    format!(
        "
__kernel void silt_transpose_{size}(__global const {ty}* src, ulong so, ulong sx, ulong sz,
        __global {ty}* dst, ulong d_o, ulong dy, ulong dz, ulong nx, ulong ny) {{
    const ulong y = get_global_id(0), x0 = get_global_id(1) * {strip}u, z = get_global_id(2);
    if (!({within}) && y >= ny) {{
        return;
    }}
    const __global {ty}* s = src + so + y + z * sz;
    __global {ty}* d = dst + d_o + y * dy + z * dz;
    if (x0 + {strip}u <= nx) {{
        #pragma unroll
        for (uint i = 0; i < {strip}u; i++) {{
            d[x0 + i] = s[(x0 + i) * sx];
        }}
    }} else {{
        for (ulong x = x0; x < nx; x++) {{
            d[x] = s[x * sx];
        }}
    }}
}}
"
    )
}

/// The copy kernel for `elem_size`-byte elements over `ndim` coalesced
/// dimensions.
fn kernel_name(elem_size: usize, ndim: usize) -> Option<&'static CStr> {
    let three = ndim <= 3;
    match elem_size {
        1 if three => Some(c"silt_copy_1_strided3"),
        1 => Some(c"silt_copy_1"),
        2 if three => Some(c"silt_copy_2_strided3"),
        2 => Some(c"silt_copy_2"),
        4 if three => Some(c"silt_copy_4_strided3"),
        4 => Some(c"silt_copy_4"),
        8 if three => Some(c"silt_copy_8_strided3"),
        8 => Some(c"silt_copy_8"),
        _ => None,
    }
}

/// A transposing copy in its kernels' terms: the extents and the (source,
/// destination) strides of `x` (along which the destination is contiguous),
/// `y` (along which the source is) and `z` (the rest).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Transpose {
    n: [usize; 3],
    src: [usize; 3],
    dst: [usize; 3],
}

/// The transposing copy over `shape` (coalesced, innermost first, padded
/// with 1s to three dimensions) with source strides `ss` and destination
/// strides `ds`, when it is one: two dimensions of at least 16 elements, each
/// view contiguous along one of them and striding at least
/// [`GATHER_STRIDE`] elements along the other, at most one dimension outside
/// the pair.
fn transposes(shape: &[usize], ss: &[usize], ds: &[usize]) -> Option<Transpose> {
    if shape.len() > 3 || shape.iter().take(2).any(|&n| n < 16) {
        return None;
    }
    let far = |s: usize| s >= GATHER_STRIDE;
    let (x, y) = if ds[0] == 1 && far(ss[0]) && ss[1] == 1 && far(ds[1]) {
        (0, 1)
    } else if ss[0] == 1 && far(ds[0]) && ds[1] == 1 && far(ss[1]) {
        (1, 0)
    } else {
        return None;
    };
    let at = |v: &[usize], i: usize| v.get(i).copied().unwrap_or(0);
    Some(Transpose {
        n: [shape[x], shape[y], shape.get(2).copied().unwrap_or(1)],
        src: [ss[x], ss[y], at(ss, 2)],
        dst: [ds[x], ds[y], at(ds, 2)],
    })
}

/// Enqueues the transposing copy `t` of `elem_size`-byte elements from `src`
/// (at its element offset) into `dst`: blocks or strips on a CPU, tiles elsewhere (see
/// [`transpose_source`]; a device sharing out its work as another kind, by
/// the test hook `testing::reduce_as`, takes that kind's form). `Ok(None)`
/// when the elements have no kernel's size.
fn transposing_copy(
    device: &Device,
    queue: &Queue,
    (src, so): (&Mem, usize),
    (dst, d_o): (&Mem, usize),
    elem_size: usize,
    t: Transpose,
) -> Result<Option<()>> {
    let names = match elem_size {
        1 => [c"silt_transpose_1", c"silt_transpose_tiled_1"],
        2 => [c"silt_transpose_2", c"silt_transpose_tiled_2"],
        4 => [c"silt_transpose_4", c"silt_transpose_tiled_4"],
        8 => [c"silt_transpose_8", c"silt_transpose_tiled_8"],
        _ => return Ok(None),
    };
    let overflow = || Error::SizeOverflow {
        shape: t.n.to_vec(),
        elem_size,
    };
    let program = program(device)?;
    let cpu = hooks::reduce_as(device.info().kind) == DeviceKind::Cpu;
    let mut grid = None;
    let (mut name, (mut kernel, mut limits)) = (names[1], program.kernel(names[1], queue)?);
    let [max0, max1, _] = device.info().max_work_item_sizes;
    if !cpu && limits.max >= TILE * TILE_ROWS && max0 >= TILE && max1 >= TILE_ROWS {
        grid = Some(Grid {
            global: [
                t.n[0]
                    .div_ceil(TILE)
                    .checked_mul(TILE)
                    .ok_or_else(overflow)?,
                t.n[1]
                    .div_ceil(TILE)
                    .checked_mul(TILE_ROWS)
                    .ok_or_else(overflow)?,
                t.n[2],
            ],
            local: [TILE, TILE_ROWS, 1],
        });
    }
    let grid = match grid {
        Some(g) => g,
        None => {
            program.put_back(name, limits, kernel);
            name = names[0];
            (kernel, limits) = program.kernel(name, queue)?;
            if cpu_blocks(elem_size) {
                let group = CPU_BLOCK_GROUP.min(limits.max).min(max1).max(1);
                Grid {
                    global: [
                        t.n[1].div_ceil(BLOCK),
                        t.n[0]
                            .div_ceil(BLOCK)
                            .div_ceil(group)
                            .checked_mul(group)
                            .ok_or_else(overflow)?,
                        t.n[2],
                    ],
                    local: [1, group, 1],
                }
            } else {
                let group = device
                    .local_size(t.n[1], limits)
                    .min(CPU_STRIP_GROUP)
                    .min(max0.max(1));
                Grid {
                    global: [
                        t.n[1]
                            .div_ceil(group)
                            .checked_mul(group)
                            .ok_or_else(overflow)?,
                        t.n[0].div_ceil(STRIP),
                        t.n[2],
                    ],
                    local: [group, 1, 1],
                }
            }
        }
    };
    let launch_err = |e: ClError| Error::cl("transposing copy launch", e.code);
    kernel.set_mem(0, src).map_err(launch_err)?;
    for (i, v) in (1..).zip([so, t.src[0], t.src[2]]) {
        kernel.set_size(i, v).map_err(launch_err)?;
    }
    kernel.set_mem(4, dst).map_err(launch_err)?;
    for (i, v) in (5..).zip([d_o, t.dst[1], t.dst[2], t.n[0], t.n[1]]) {
        kernel.set_size(i, v).map_err(launch_err)?;
    }
    program.enqueue_grid(queue, &kernel, &grid)?;
    program.put_back(name, limits, kernel);
    Ok(Some(()))
}

/// The most work-items of a block copy's work-group, all along the
/// destination's contiguous dimension (PoCL, `[4096, 4096]` f32, ms: 8.5-9.2
/// at 32, 9.1-9.9 at 8 and 16, 9.7-13.3 at 64, 11.6-12.8 at 128; groups of
/// two blocks across were no faster).
const CPU_BLOCK_GROUP: usize = 32;

/// The most work-items of a strip copy's work-group, all along the source's
/// contiguous dimension (PoCL, `[4096, 4096]` f32, when strips served every
/// element size: 14-15 GB/s at 256, 10-13 at 1,024 and 4,096, 6 at 64).
const CPU_STRIP_GROUP: usize = 256;

/// The device's copy program, built on first use.
fn program(device: &Device) -> Result<&BuiltProgram> {
    let queue = device
        .queue()
        .ok_or_else(|| Error::internal("a copy program for a device without a queue"))?;
    device
        .inner
        .copy_program
        .get_or_init(|| {
            queue
                // no warnings on stderr, as for the generated programs
                // (`programs::Target::options`; this text has none on PoCL
                // today, and no test hook rewrites it to check)
                .build(&source(), "-w")
                .map(BuiltProgram::runtime)
                .map_err(|f| Error::Build {
                    what: "the runtime's copy kernels".into(),
                    device: device.to_string(),
                    code: f.code,
                    name: error_name(f.code),
                    log: f.log,
                })
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Copies the elements of `src` (viewed through `from`) into `dst` (viewed
/// through `to`); both layouts have the same shape and the caller has ruled out
/// overlap between them. Asynchronous, in queue order.
pub(crate) fn strided_copy(
    device: &Device,
    queue: &Queue,
    (src, from): (&Mem, &Layout),
    (dst, to): (&Mem, &Layout),
    elem_size: usize,
) -> Result<()> {
    let n = to.len();
    if n == 0 {
        return Ok(());
    }
    let (shape, mut st) = coalesce(&to.shape, &[&from.strides, &to.strides]);
    let (ds, ss) = (st.pop().unwrap_or_default(), st.pop().unwrap_or_default());
    // a contiguous copy by the driver, but on a CPU device from
    // `FILL_KERNEL_MIN` bytes by the strided kernel below, as fills (PoCL's
    // `clEnqueueCopyBuffer` of 64 MiB ran at 18 GB/s, the kernel at 34)
    let contiguous = shape.len() == 1 && ss[0] == 1 && ds[0] == 1;
    let by_kernel = || {
        hooks::reduce_as(device.info().kind) == DeviceKind::Cpu
            && n.saturating_mul(elem_size) >= FILL_KERNEL_MIN
            && program(device).is_ok()
    };
    if contiguous && !by_kernel() {
        return Ok(queue.copy(
            src,
            from.offset * elem_size,
            dst,
            to.offset * elem_size,
            n * elem_size,
        )?);
    }
    let ndim = shape.len();
    let name = kernel_name(elem_size, ndim)
        .ok_or_else(|| Error::internal("a strided copy of elements of no dtype's size"))?;
    // the vectors innermost first, lanes 1 and 2 of the shape 1 past a
    // shorter one
    let mut shape = shape;
    shape.reverse();
    shape.resize(shape.len().max(3), 1);
    let (ss, ds): (Vec<usize>, Vec<usize>) = (
        ss.into_iter().rev().collect(),
        ds.into_iter().rev().collect(),
    );
    let launch_err = |e: ClError| Error::cl("strided copy launch", e.code);
    if let Some(t) = transposes(&shape, &ss, &ds) {
        if let Some(done) = transposing_copy(
            device,
            queue,
            (src, from.offset),
            (dst, to.offset),
            elem_size,
            t,
        )? {
            return Ok(done);
        }
    }
    let program = program(device)?;
    let (mut kernel, limits) = program.kernel(name, queue)?;
    kernel.set_dims(0, &shape).map_err(launch_err)?;
    kernel.set_dims(1, &ss).map_err(launch_err)?;
    kernel.set_dims(2, &ds).map_err(launch_err)?;
    kernel.set_mem(3, src).map_err(launch_err)?;
    kernel.set_size(4, from.offset).map_err(launch_err)?;
    kernel.set_mem(5, dst).map_err(launch_err)?;
    kernel.set_size(6, to.offset).map_err(launch_err)?;
    kernel
        .set_value(7, u32::try_from(ndim).unwrap_or(u32::MAX))
        .map_err(launch_err)?;
    kernel.set_size(8, n).map_err(launch_err)?;
    let grid = device
        .strided_grid(limits, &shape, &[&ss, &ds])
        .ok_or_else(|| Error::SizeOverflow {
            shape: to.shape.to_vec(),
            elem_size,
        })?;
    program.enqueue_grid(queue, &kernel, &grid)?;
    program.put_back(name, limits, kernel);
    Ok(())
}
