//! The grid kernels of `sort` on CPU devices: a least-significant-digit
//! radix sort of each row, 8 bits a pass.
//!
//! Every element becomes an unsigned key in the order of the sort (`key32`,
//! `key64`: NaN the largest key, `-0.0` the key of `0.0`, complemented for a
//! descending sort) with its index along the row. A row is cut into `parts`
//! contiguous chunks of `chunk` places, one work-item each. A pass over one
//! digit (8 bits of the key, from the lowest):
//!
//! - `radix_count`: each work-item counts its chunk's digits into its own
//!   256 counts (`counts` is `[rows, parts, 256]`, in global memory: no
//!   private arrays);
//! - `radix_offsets`: one work-item a row turns the counts into where each
//!   chunk's first element of each digit goes (an exclusive sum in the
//!   order digit, then chunk);
//! - `radix_scatter`: each work-item walks its chunk in order, writing each
//!   key and index to its digit's next place. A pass keeps the order of
//!   equal digits, so the sort is stable: equal keys end in the order of
//!   their indices, in both directions.
//!
//! Rows of one chunk take `radix_pass`, the three in one launch.
//!
//! `radix_gather` then writes the indices as `i64` and reads the values from
//! `x` at them (the original elements, bit for bit: a NaN's payload and the
//! sign of a zero kept). Keys are `u32` for elements of up to 32 bits and
//! `u64` for the others; a pass is made for each byte of the element.

use silt::{grid, helper};

/// The digits of a pass: 8 bits.
pub(crate) const DIGITS: usize = 256;
/// The work-items of a `radix_count`, `radix_offsets` or `radix_scatter`
/// work-group: few, so that one long row's chunks make work-groups for
/// every core.
pub(crate) const GROUP: usize = 8;
/// The work-items of a `radix_keys32`, `radix_keys64` or `radix_gather`
/// work-group (one a place).
pub(crate) const MAP_GROUP: usize = 256;

/// The key of `v` (of up to 32 bits) in ascending order: for floats NaN
/// the largest, `-0.0` that of `0.0`, negative numbers complemented (the
/// larger the magnitude, the smaller) and the others with the sign bit
/// set; signed integers with the sign bit flipped; in the element's width.
#[helper(types = [bool, u8, i8, u16, i16, u32, i32, f16, f32])]
fn key32<T>(v: T) -> u32 {
    if T::IS_FLOAT {
        if T::BITS == 16 {
            if v.is_nan() {
                0xffff
            } else {
                let b = if v == 0.0 { 0u32 } else { v.to_bits() as u32 };
                if (b & 0x8000) != 0 {
                    !b & 0xffff
                } else {
                    b | 0x8000
                }
            }
        } else if v.is_nan() {
            0xffff_ffff
        } else {
            let b = if v == 0.0 { 0u32 } else { v.to_bits() };
            if (b & 0x8000_0000) != 0 {
                !b
            } else {
                b | 0x8000_0000
            }
        }
    } else if T::IS_SIGNED {
        if T::BITS == 8 {
            ((v as u32) ^ 0x80) & 0xff
        } else if T::BITS == 16 {
            ((v as u32) ^ 0x8000) & 0xffff
        } else {
            (v as u32) ^ 0x8000_0000
        }
    } else {
        v as u32
    }
}

/// [`key32`] of a 64-bit element.
#[helper(types = [u64, i64, f64])]
fn key64<T>(v: T) -> u64 {
    if T::IS_FLOAT {
        if v.is_nan() {
            0xffff_ffff_ffff_ffff
        } else {
            let b = if v == 0.0 { 0u64 } else { v.to_bits() };
            if (b >> 63) != 0 {
                !b
            } else {
                b | 0x8000_0000_0000_0000
            }
        }
    } else if T::IS_SIGNED {
        (v as u64) ^ 0x8000_0000_0000_0000
    } else {
        v as u64
    }
}

/// The key of every element of `x` (`[outer, inner, n]`) xor `flip` (its
/// width's ones for a descending sort, else 0) into `keys` (`[rows, n]`),
/// and its place along the row into `idx`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, f16, f32], group = [256], unchecked)]
pub fn radix_keys32<T>(
    x: View<T, 3>,
    keys: ViewMut<u32, 2>,
    idx: ViewMut<u32, 2>,
    #[scalar] flip: u32,
) {
    let g = global_id(0);
    let (inner, n) = (x.len(1), x.len(2));
    if g < x.len(0) * inner * n {
        let (row, p) = (g / n, g % n);
        keys[[row, p]] = key32(x[[row / inner, row % inner, p]]) ^ flip;
        idx[[row, p]] = p as u32;
    }
}

/// [`radix_keys32`] of 64-bit elements.
#[grid(types = [u64, i64, f64], group = [256], unchecked)]
pub fn radix_keys64<T>(
    x: View<T, 3>,
    keys: ViewMut<u64, 2>,
    idx: ViewMut<u32, 2>,
    #[scalar] flip: u64,
) {
    let g = global_id(0);
    let (inner, n) = (x.len(1), x.len(2));
    if g < x.len(0) * inner * n {
        let (row, p) = (g / n, g % n);
        keys[[row, p]] = key64(x[[row / inner, row % inner, p]]) ^ flip;
        idx[[row, p]] = p as u32;
    }
}

/// Counts the digits `(key >> shift) & 255` of each chunk of `chunk`
/// places of every row of `keys` into `counts[row, chunk, digit]`.
#[grid(types = [u32, u64], group = [8], unchecked)]
pub fn radix_count<K>(
    keys: View<K, 2>,
    counts: ViewMut<u32, 3>,
    #[scalar] shift: u32,
    #[scalar] chunk: u64,
) {
    let g = global_id(0);
    let (n, parts) = (keys.len(1), counts.len(1));
    if g < keys.len(0) * parts {
        let (row, w) = (g / parts, g % parts);
        for d in 0..256u64 {
            counts[[row, w, d]] = 0;
        }
        let lo = w * chunk;
        let hi = if lo + chunk < n { lo + chunk } else { n };
        for p in lo..hi {
            let d = ((keys[[row, p]] >> shift) & 255) as u64;
            counts[[row, w, d]] += 1;
        }
    }
}

/// Turns the counts of every row (`[rows, parts, 256]`) into the place of
/// each chunk's first element of each digit: the sum of the counts before
/// it in the order digit, then chunk.
#[grid(types = [u32], group = [8], unchecked)]
pub fn radix_offsets<T>(counts: ViewMut<T, 3>) {
    let row = global_id(0);
    if row < counts.len(0) {
        let parts = counts.len(1);
        let mut sum: T = 0;
        for d in 0..256u64 {
            for w in 0..parts {
                let c = counts[[row, w, d]];
                counts[[row, w, d]] = sum;
                sum += c;
            }
        }
    }
}

/// One pass: each chunk's keys and indices, in order, to their digit's
/// next place in `to_keys` and `to_idx` (`offsets` from `radix_offsets`,
/// counted up as places are taken).
#[grid(types = [u32, u64], group = [8], unchecked)]
pub fn radix_scatter<K>(
    keys: View<K, 2>,
    idx: View<u32, 2>,
    offsets: ViewMut<u32, 3>,
    to_keys: ViewMut<K, 2>,
    to_idx: ViewMut<u32, 2>,
    #[scalar] shift: u32,
    #[scalar] chunk: u64,
) {
    let g = global_id(0);
    let (n, parts) = (keys.len(1), offsets.len(1));
    if g < keys.len(0) * parts {
        let (row, w) = (g / parts, g % parts);
        let lo = w * chunk;
        let hi = if lo + chunk < n { lo + chunk } else { n };
        for p in lo..hi {
            let k = keys[[row, p]];
            let d = ((k >> shift) & 255) as u64;
            let q = offsets[[row, w, d]];
            offsets[[row, w, d]] = q + 1;
            to_keys[[row, q as u64]] = k;
            to_idx[[row, q as u64]] = idx[[row, p]];
        }
    }
}

/// One pass over rows of one chunk each (`offsets` is `[rows, 1, 256]`): a
/// work-item a row counts its digits, turns the counts into offsets and
/// scatters, as `radix_count`, `radix_offsets` and `radix_scatter` do, in
/// one launch.
#[grid(types = [u32, u64], group = [8], unchecked)]
pub fn radix_pass<K>(
    keys: View<K, 2>,
    idx: View<u32, 2>,
    offsets: ViewMut<u32, 3>,
    to_keys: ViewMut<K, 2>,
    to_idx: ViewMut<u32, 2>,
    #[scalar] shift: u32,
) {
    let row = global_id(0);
    let n = keys.len(1);
    if row < keys.len(0) {
        for d in 0..256u64 {
            offsets[[row, 0, d]] = 0;
        }
        for p in 0..n {
            let d = ((keys[[row, p]] >> shift) & 255) as u64;
            offsets[[row, 0, d]] += 1;
        }
        let mut sum: u32 = 0;
        for d in 0..256u64 {
            let c = offsets[[row, 0, d]];
            offsets[[row, 0, d]] = sum;
            sum += c;
        }
        for p in 0..n {
            let k = keys[[row, p]];
            let d = ((k >> shift) & 255) as u64;
            let q = offsets[[row, 0, d]];
            offsets[[row, 0, d]] = q + 1;
            to_keys[[row, q as u64]] = k;
            to_idx[[row, q as u64]] = idx[[row, p]];
        }
    }
}

/// The results: `indices` (`[outer, inner, n]`) the sorted indices `idx`
/// (`[rows, n]`) as `i64`, `values` the elements of `x` at them.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [256], unchecked)]
pub fn radix_gather<T>(
    x: View<T, 3>,
    idx: View<u32, 2>,
    values: ViewMut<T, 3>,
    indices: ViewMut<i64, 3>,
) {
    let g = global_id(0);
    let (inner, n) = (x.len(1), x.len(2));
    if g < x.len(0) * inner * n {
        let (row, q) = (g / n, g % n);
        let (o, r) = (row / inner, row % inner);
        let p = idx[[row, q]] as u64;
        values[[o, r, q]] = x[[o, r, p]];
        indices[[o, r, q]] = p as i64;
    }
}
