//! The grid kernels of `sort` on CPU devices: a least-significant-digit
//! radix sort of each row, 8 bits a pass, and for rows of up to 256 an
//! insertion sort a work-item a row (`sort_short`, `sort_short_256`).
//!
//! The passes carry the elements themselves, with their indices along the
//! row; each digit is read from the element's key ([`key`]: an unsigned
//! number in the order of the sort, NaN the largest, `-0.0` that of `0.0`,
//! xored with `flip`, the element width's ones, for a descending sort),
//! made again where it is needed. A row is cut into `parts` contiguous
//! chunks of `chunk` places, one work-item each. A pass over one digit (8
//! bits of the key, from the lowest):
//!
//! - `radix_count`: each work-item counts its chunk's digits into its own
//!   256 counts (`counts` is `[rows, parts, 256]`, in global memory: no
//!   private arrays);
//! - `radix_offsets`: one work-item a row turns the counts into where each
//!   chunk's first element of each digit goes (an exclusive sum in the
//!   order digit, then chunk);
//! - `radix_scatter`: each work-item walks its chunk in order, writing each
//!   element and its index to its digit's next place. A pass keeps the
//!   order of equal digits, so the sort is stable: equal keys end in the
//!   order of their indices, in both directions.
//!
//! Rows of one chunk take `radix_pass`, the three in one launch. The first
//! pass reads the input (`[outer, inner, n]`) and takes each element's
//! place as its index; the later ones read the scratch (elements `[outer,
//! inner, n]`, indices `[rows, n]`) the pass before wrote. The last pass
//! writes the results (values, and indices as `i64`): the elements are the
//! input's, bit for bit (a NaN's payload and the sign of a zero kept), with
//! no read of the input at the sorted indices and no copy after the passes.

use silt::{grid, helper};

/// The digits of a pass: 8 bits.
pub(crate) const DIGITS: usize = 256;
/// The work-items of a `radix_count`, `radix_offsets` or `radix_scatter`
/// work-group: few, so that one long row's chunks make work-groups for
/// every core.
pub(crate) const GROUP: usize = 8;

/// The key of `v` in ascending order, in the element's width: for floats
/// NaN the largest, `-0.0` that of `0.0`, negative numbers complemented (the
/// larger the magnitude, the smaller) and the others with the sign bit set;
/// signed integers with the sign bit flipped.
#[helper(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])]
fn key<T>(v: T) -> u64 {
    // the element's sign bit
    let top: u64 = if T::BITS == 8 {
        0x80
    } else if T::BITS == 16 {
        0x8000
    } else if T::BITS == 32 {
        0x8000_0000
    } else {
        0x8000_0000_0000_0000
    };
    let ones = top | (top - 1);
    if T::IS_FLOAT {
        if v.is_nan() {
            ones
        } else {
            let b = if v == 0.0 { 0u64 } else { v.to_bits() as u64 };
            if (b & top) != 0 {
                !b & ones
            } else {
                b | top
            }
        }
    } else if T::IS_SIGNED {
        ((v as u64) ^ top) & ones
    } else {
        v as u64
    }
}

/// The digit of `v` at bit `shift` of its key xor `flip`.
#[helper(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64])]
fn digit<T>(v: T, flip: u64, shift: u32) -> u64 {
    ((key(v) ^ flip) >> shift) & 255
}

/// Counts the digits of each chunk of `chunk` places of every row of `src`
/// (`[outer, inner, n]`, row `o * inner + r`) into `counts[row, chunk,
/// digit]`.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [8], unchecked)]
pub fn radix_count<T>(
    src: View<T, 3>,
    counts: ViewMut<u32, 3>,
    #[scalar] flip: u64,
    #[scalar] shift: u32,
    #[scalar] chunk: u64,
) {
    let g = global_id(0);
    let (inner, n, parts) = (src.len(1), src.len(2), counts.len(1));
    if g < src.len(0) * inner * parts {
        let (row, w) = (g / parts, g % parts);
        let (o, r) = (row / inner, row % inner);
        for d in 0..256u64 {
            counts[[row, w, d]] = 0;
        }
        let lo = w * chunk;
        let hi = if lo + chunk < n { lo + chunk } else { n };
        for p in lo..hi {
            let d = digit(src[[o, r, p]], flip, shift);
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

/// One pass: each chunk's elements of `src` (`[outer, inner, n]`) and
/// their indices (`idx`, or with `first` their places), in order, to their
/// digit's next place in `to_vals` (`[outer, inner, n]`) and `to_idx`
/// (`offsets` from `radix_offsets`, counted up as places are taken); with
/// `last` the indices go to `indices` (as `i64`, `[outer, inner, n]`)
/// instead, and `to_vals` is the results' values.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [8], unchecked)]
pub fn radix_scatter<T>(
    src: View<T, 3>,
    idx: View<u32, 2>,
    offsets: ViewMut<u32, 3>,
    to_vals: ViewMut<T, 3>,
    to_idx: ViewMut<u32, 2>,
    indices: ViewMut<i64, 3>,
    #[scalar] flip: u64,
    #[scalar] shift: u32,
    #[scalar] chunk: u64,
    #[scalar] first: u32,
    #[scalar] last: u32,
) {
    let g = global_id(0);
    let (inner, n, parts) = (src.len(1), src.len(2), offsets.len(1));
    if g < src.len(0) * inner * parts {
        let (row, w) = (g / parts, g % parts);
        let (o, r) = (row / inner, row % inner);
        let lo = w * chunk;
        let hi = if lo + chunk < n { lo + chunk } else { n };
        for p in lo..hi {
            let v = src[[o, r, p]];
            let d = digit(v, flip, shift);
            let q = offsets[[row, w, d]] as u64;
            offsets[[row, w, d]] = q as u32 + 1;
            to_vals[[o, r, q]] = v;
            let i = if first != 0 { p as u32 } else { idx[[row, p]] };
            if last != 0 {
                indices[[o, r, q]] = i as i64;
            } else {
                to_idx[[row, q]] = i;
            }
        }
    }
}

/// One pass over rows of one chunk each (`offsets` is `[rows, 1, 256]`): a
/// work-item a row counts its digits, turns the counts into offsets and
/// scatters, as `radix_count`, `radix_offsets` and `radix_scatter` do, in
/// one launch.
#[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [8], unchecked)]
pub fn radix_pass<T>(
    src: View<T, 3>,
    idx: View<u32, 2>,
    offsets: ViewMut<u32, 3>,
    to_vals: ViewMut<T, 3>,
    to_idx: ViewMut<u32, 2>,
    indices: ViewMut<i64, 3>,
    #[scalar] flip: u64,
    #[scalar] shift: u32,
    #[scalar] first: u32,
    #[scalar] last: u32,
) {
    let row = global_id(0);
    let (inner, n) = (src.len(1), src.len(2));
    if row < src.len(0) * inner {
        let (o, r) = (row / inner, row % inner);
        for d in 0..256u64 {
            offsets[[row, 0, d]] = 0;
        }
        for p in 0..n {
            let d = digit(src[[o, r, p]], flip, shift);
            offsets[[row, 0, d]] += 1;
        }
        let mut sum: u32 = 0;
        for d in 0..256u64 {
            let c = offsets[[row, 0, d]];
            offsets[[row, 0, d]] = sum;
            sum += c;
        }
        for p in 0..n {
            let v = src[[o, r, p]];
            let d = digit(v, flip, shift);
            let q = offsets[[row, 0, d]] as u64;
            offsets[[row, 0, d]] = q as u32 + 1;
            to_vals[[o, r, q]] = v;
            let i = if first != 0 { p as u32 } else { idx[[row, p]] };
            if last != 0 {
                indices[[o, r, q]] = i as i64;
            } else {
                to_idx[[row, q]] = i;
            }
        }
    }
}

/// The longest row [`sort_short`] takes; [`sort_short_256`] takes rows
/// of up to 256.
pub(crate) const SHORT: usize = 32;
/// The work-items of a `sort_short` or `sort_short_256` work-group (one a
/// row).
pub(crate) const SHORT_GROUP: usize = 64;

/// The insertion sort of short rows in private arrays of `$slots`: the
/// arrays are zeroed for every row, so short rows take the small ones.
macro_rules! short_sort_kernel {
    ($(#[$doc:meta])* $name:ident, $slots:literal) => {
        $(#[$doc])*
        #[grid(types = [bool, u8, i8, u16, i16, u32, i32, u64, i64, f16, f32, f64], group = [64], unchecked)]
        pub fn $name<T>(
            x: View<T, 3>,
            values: ViewMut<T, 3>,
            indices: ViewMut<i64, 3>,
            #[scalar] flip: u64,
        ) {
            let row = global_id(0);
            let (inner, n) = (x.len(1), x.len(2));
            let mut keys = private![u64; $slots];
            let mut places = private![u32; $slots];
            if row < x.len(0) * inner && n <= $slots {
                let (o, r) = (row / inner, row % inner);
                for p in 0..n {
                    let k = key(x[[o, r, p]]) ^ flip;
                    let mut j = p;
                    while j > 0 && keys[[j - 1]] > k {
                        keys[[j]] = keys[[j - 1]];
                        places[[j]] = places[[j - 1]];
                        j -= 1;
                    }
                    keys[[j]] = k;
                    places[[j]] = p as u32;
                }
                for q in 0..n {
                    let p = places[[q]] as u64;
                    values[[o, r, q]] = x[[o, r, p]];
                    indices[[o, r, q]] = p as i64;
                }
            }
        }
    };
}

short_sort_kernel! {
    /// Sorts each row of `x` (`[outer, inner, n]`, `n` at most [`SHORT`])
    /// into `values` and `indices`, a work-item a row: an insertion sort of
    /// the keys (xor `flip`) with their places, in private arrays, a place
    /// moving only past strictly larger keys (stable), then the elements
    /// read from the row at the sorted places.
    sort_short, 32
}

short_sort_kernel! {
    /// [`sort_short`] of rows of up to 256.
    sort_short_256, 256
}
