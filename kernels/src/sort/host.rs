//! `sort` on the host: each row's elements turned into keys that order as
//! the device kernels do (an unsigned integer per element, NaN mapped above
//! every number, `-0.0` onto `0.0`), each paired with its index along the
//! row and sorted by Rust's sort, rows in parallel (rayon), a long row by
//! several threads. Keys of up to 32 bits are packed with the index into
//! one `u64`. The pairs are distinct, so the order is the devices' one
//! permutation (equal keys by index: stable); the values are then read from
//! the row at the sorted indices, bit for bit. A long row of elements of up
//! to 32 bits takes a bucket sort instead ([`bucket_row`]), which gives the
//! same order and makes the values from the keys. Rows along the last
//! dimension are sorted straight into the results (from the input's own
//! elements where it is contiguous); others through a copy each way.

use rayon::prelude::*;
use silt::{f16, Device, Element, Result, TensorT};

/// The length at which one row is sorted by several threads.
const PARALLEL_ROW: usize = 1 << 16;
/// The elements' worth of short rows a task of the parallel loop sorts.
const TASK_ELEMS: usize = 1 << 12;

/// The element types' host `sort`: their keys.
pub trait HostSort: Element + Send + Sync {
    /// Whether [`key`](Self::key) fits in 32 bits.
    #[doc(hidden)]
    const NARROW: bool;

    /// An unsigned key in the order of the sort, ascending: NaN above
    /// every number (all NaNs one key), `-0.0` the key of `0.0`.
    #[doc(hidden)]
    fn key(self) -> u64;

    /// The element whose [`key`](Self::key) is `k`, where the key tells
    /// its bits: not for a float's zero key (`0.0` or `-0.0`) or NaN key
    /// (any NaN).
    #[doc(hidden)]
    fn unkey(k: u64) -> Option<Self>;

    /// Sorts the rows of `x` (`[outer, inner, n]`) into `values` and
    /// `indices` (contiguous, of `x`'s rows along their dimension).
    #[doc(hidden)]
    fn host_sort(
        x: &TensorT<Self>,
        desc: bool,
        values: &mut TensorT<Self>,
        indices: &mut TensorT<i64>,
    ) -> Result<()> {
        run(x, desc, values, indices)
    }
}

impl HostSort for bool {
    const NARROW: bool = true;
    fn key(self) -> u64 {
        u64::from(self)
    }
    fn unkey(k: u64) -> Option<Self> {
        Some(k != 0)
    }
}

macro_rules! unsigned_keys {
    ($($t:ty: $narrow:literal),*) => {$(
        impl HostSort for $t {
            const NARROW: bool = $narrow;
            fn key(self) -> u64 {
                u64::from(self)
            }
            #[allow(clippy::cast_possible_truncation)]
            fn unkey(k: u64) -> Option<Self> {
                Some(k as $t)
            }
        }
    )*};
}
unsigned_keys!(u8: true, u16: true, u32: true, u64: false);

macro_rules! signed_keys {
    ($($t:ty => $u:ty: $narrow:literal),*) => {$(
        impl HostSort for $t {
            const NARROW: bool = $narrow;
            fn key(self) -> u64 {
                // the sign bit flipped: MIN to 0, MAX to the top
                u64::from(<$u>::from_ne_bytes(self.to_ne_bytes()) ^ (1 << (<$u>::BITS - 1)))
            }
            #[allow(clippy::cast_possible_truncation)]
            fn unkey(k: u64) -> Option<Self> {
                Some(<$t>::from_ne_bytes(((k as $u) ^ (1 << (<$u>::BITS - 1))).to_ne_bytes()))
            }
        }
    )*};
}
signed_keys!(i8 => u8: true, i16 => u16: true, i32 => u32: true, i64 => u64: false);

/// The key of a float's bits `b` of `bits` bits: negative numbers
/// complemented (the larger the magnitude, the smaller), the others with
/// the sign bit set; NaN (any) the largest key, `-0.0` the key of `0.0`.
/// Without a branch on the sign, which random data mispredicts half the
/// time: the count of a host `sort` of 2^24 normal `f32`s took 66 ms with
/// one, 24 without.
#[inline]
fn float_key(b: u64, bits: u32) -> u64 {
    let sign = 1u64 << (bits - 1);
    let mask = sign | (sign - 1);
    let magnitude = b & (sign - 1);
    // the exponent all ones and a mantissa: NaN (bits 10, 23 or 52 of it)
    let inf = match bits {
        16 => 0x7c00,
        32 => 0x7f80_0000,
        _ => 0x7ff0_0000_0000_0000,
    };
    if magnitude > inf {
        mask
    } else if magnitude == 0 {
        sign
    } else {
        // negative: all bits flipped; positive: the sign bit set
        let negative = (b >> (bits - 1)) & 1;
        b ^ sign ^ (negative.wrapping_neg() & (sign - 1))
    }
}

/// The bits of the float of `bits` bits whose key ([`float_key`]) is `k`:
/// `None` for the key of zero (either sign) and of NaN (the largest).
#[inline]
fn float_bits(k: u64, bits: u32) -> Option<u64> {
    let sign = 1u64 << (bits - 1);
    let mask = sign | (sign - 1);
    if k == sign || k == mask {
        None
    } else {
        // the sign bit clear: a negative number's key, all bits flipped
        let negative = ((k >> (bits - 1)) & 1) ^ 1;
        Some(k ^ sign ^ (negative.wrapping_neg() & (sign - 1)))
    }
}

impl HostSort for f16 {
    const NARROW: bool = true;
    fn key(self) -> u64 {
        float_key(u64::from(self.to_bits()), 16)
    }
    #[allow(clippy::cast_possible_truncation)]
    fn unkey(k: u64) -> Option<Self> {
        float_bits(k, 16).map(|b| f16::from_bits(b as u16))
    }
}

impl HostSort for f32 {
    const NARROW: bool = true;
    fn key(self) -> u64 {
        float_key(u64::from(self.to_bits()), 32)
    }
    #[allow(clippy::cast_possible_truncation)]
    fn unkey(k: u64) -> Option<Self> {
        float_bits(k, 32).map(|b| f32::from_bits(b as u32))
    }
}

impl HostSort for f64 {
    const NARROW: bool = false;
    fn key(self) -> u64 {
        float_key(self.to_bits(), 64)
    }
    fn unkey(k: u64) -> Option<Self> {
        float_bits(k, 64).map(f64::from_bits)
    }
}

/// Sorts `v`, by several threads when `parallel`.
fn sort<K: Ord + Send>(v: &mut [K], parallel: bool) {
    if parallel {
        v.par_sort_unstable();
    } else {
        v.sort_unstable();
    }
}

/// The places along one row that sort it, into `places` (cleared first;
/// `packed` and `pairs` are scratch kept between rows): keys complemented
/// for `desc` (an equal key still goes by place, ascending).
fn order_into<T: HostSort>(
    row: &[T],
    desc: bool,
    parallel: bool,
    packed: &mut Vec<u64>,
    pairs: &mut Vec<(u64, usize)>,
    places: &mut Vec<usize>,
) {
    let flip = |k: u64, bits: u32| {
        if desc {
            !k & (u64::MAX >> (64 - bits))
        } else {
            k
        }
    };
    places.clear();
    if T::NARROW && u32::try_from(row.len()).is_ok() {
        packed.clear();
        packed.extend((0u64..).zip(row).map(|(p, &v)| flip(v.key(), 32) << 32 | p));
        sort(packed, parallel);
        places.extend(
            packed
                .iter()
                .map(|k| usize::try_from(k & 0xffff_ffff).unwrap_or(usize::MAX)),
        );
    } else {
        pairs.clear();
        pairs.extend(row.iter().enumerate().map(|(p, &v)| (flip(v.key(), 64), p)));
        sort(pairs, parallel);
        places.extend(pairs.iter().map(|&(_, p)| p));
    }
}

/// The bins of [`bucket_row`]: the top 16 bits of a key.
const BINS: usize = 1 << 16;
/// The most elements of a bucket of [`bucket_row`] (of the bins that fill
/// it; a bin above it is a bucket alone): a bucket's keys and their
/// scratch, 8 bytes each, stay in a core's L2 cache through its passes.
const BUCKET: usize = 24_576;

/// Sorts `row` (of a [`NARROW`](HostSort::NARROW) type, shorter than 2^32)
/// into `vs` and `is`, stably, by several threads: a bucket sort. Each key
/// is packed with its index in a `u64` (key high, index low). The row's
/// `parts` chunks count their keys' bins (the top 16 bits of a key of the
/// element's width; all of a narrower one), the bins are cut in order into
/// buckets of at most [`BUCKET`] elements, and each chunk writes its keys
/// to its own run of each bucket's places. Then each bucket (in parallel)
/// is sorted in the cache by a least-significant-digit radix sort of the
/// keys' bytes below the bin, then of the bin within the bucket (one or two
/// bytes), a pass whose digit is the same for the whole bucket skipped, the
/// last pass writing the values, made from the keys
/// ([`HostSort::unkey`]; read from the row where a key does not tell the
/// bits: a float's zeros and NaNs), and the indices. `from` is scratch
/// for the row's keys (`row`'s length); each task has its own for a
/// bucket.
#[allow(clippy::cast_possible_truncation)]
fn bucket_row<T: HostSort>(
    row: &[T],
    desc: bool,
    parts: usize,
    (vs, is): (&mut [T], &mut [i64]),
    from: &mut [u64],
) {
    let n = row.len();
    let bits = 8 * std::mem::size_of::<T>().clamp(1, 4);
    let flip = if desc { u64::MAX >> (64 - bits) } else { 0 };
    // the bits of a key below its bin
    let low = bits.saturating_sub(16);
    let key = |v: T| v.key() ^ flip;
    let chunk = n.div_ceil(parts.max(1)).max(1);
    let counts: Vec<Vec<u32>> = row
        .par_chunks(chunk)
        .map(|c| {
            let mut h = vec![0u32; BINS];
            for &v in c {
                h[(key(v) >> low) as usize] += 1;
            }
            h
        })
        .collect();
    // the buckets: their first bins, and each bin's bucket
    let mut firsts = vec![0usize];
    let mut bucket_of = vec![0u32; BINS];
    let mut fill = 0usize;
    for (g, b) in bucket_of.iter_mut().enumerate() {
        let c: usize = counts.iter().map(|h| h[g] as usize).sum();
        if fill > 0 && fill + c > BUCKET {
            firsts.push(g);
            fill = 0;
        }
        *b = (firsts.len() - 1) as u32;
        fill += c;
    }
    firsts.push(BINS);
    let buckets = firsts.len() - 1;
    // each chunk's count of each bucket, then its run of each bucket's
    // places: buckets in order, then chunks (stable)
    let per: Vec<Vec<usize>> = counts
        .iter()
        .map(|h| {
            firsts
                .windows(2)
                .map(|w| h[w[0]..w[1]].iter().map(|&c| c as usize).sum())
                .collect()
        })
        .collect();
    let mut runs: Vec<Vec<&mut [u64]>> = per.iter().map(|_| Vec::with_capacity(buckets)).collect();
    let mut rest: &mut [u64] = from;
    for b in 0..buckets {
        for (h, r) in per.iter().zip(&mut runs) {
            let (run, tail) = std::mem::take(&mut rest).split_at_mut(h[b]);
            r.push(run);
            rest = tail;
        }
    }
    row.par_chunks(chunk)
        .zip(runs.into_par_iter())
        .enumerate()
        .for_each(|(w, (c, runs))| {
            // each run as an iterator: one load and one test a write
            let mut runs: Vec<_> = runs.into_iter().map(|r| r.iter_mut()).collect();
            for (p, &v) in (w * chunk..).zip(c) {
                let k = key(v);
                let b = bucket_of[(k >> low) as usize] as usize;
                // a place for each of the chunk's keys of the bucket, as
                // counted above
                if let Some(slot) = runs[b].next() {
                    *slot = k << 32 | p as u64;
                }
            }
        });
    // the buckets' places in `from` and the results
    let mut sizes = Vec::with_capacity(buckets);
    for b in 0..buckets {
        sizes.push(per.iter().map(|h| h[b]).sum::<usize>());
    }
    let mut pieces = Vec::with_capacity(buckets);
    let (mut f, mut v, mut i): (&mut [u64], &mut [T], &mut [i64]) = (from, vs, is);
    for (b, &m) in sizes.iter().enumerate() {
        let (fb, fr) = std::mem::take(&mut f).split_at_mut(m);
        let (vb, vr) = std::mem::take(&mut v).split_at_mut(m);
        let (ib, ir) = std::mem::take(&mut i).split_at_mut(m);
        pieces.push((firsts[b] as u64, firsts[b + 1] - firsts[b], fb, vb, ib));
        (f, v, i) = (fr, vr, ir);
    }
    pieces.into_par_iter().for_each_init(
        Vec::new,
        |scratch: &mut Vec<u64>, (first, bins, mut a, vs, is)| {
            if scratch.len() < a.len() {
                scratch.resize(a.len(), 0);
            }
            let mut b = &mut scratch[..a.len()];
            let passes = low / 8 + if bins <= 256 { 1 } else { 2 };
            // pass `d`'s digit: byte `d` of the key less the bucket's
            // first key (its bytes below the bin, then the bin less the
            // bucket's first)
            let base = first << low;
            let digit =
                |w: u64, d: usize| -> usize { ((((w >> 32) - base) >> (8 * d)) & 255) as usize };
            let mut c = [[0u32; 256]; 4];
            match passes {
                1 => count_digits::<1>(a, base, &mut c),
                2 => count_digits::<2>(a, base, &mut c),
                3 => count_digits::<3>(a, base, &mut c),
                _ => count_digits::<4>(a, base, &mut c),
            }
            let m = a.len();
            for (d, h) in c.iter_mut().enumerate().take(passes) {
                let last = d + 1 == passes;
                if !last && h.iter().any(|&x| x as usize == m) {
                    continue;
                }
                let mut sum = 0u32;
                for x in h.iter_mut() {
                    (*x, sum) = (sum, sum + *x);
                }
                if last {
                    for &w in a.iter() {
                        let q = &mut h[digit(w, d)];
                        let p = w & 0xffff_ffff;
                        vs[*q as usize] = T::unkey((w >> 32) ^ flip)
                            .unwrap_or_else(|| row[usize::try_from(p).unwrap_or(usize::MAX)]);
                        is[*q as usize] = i64::try_from(p).unwrap_or(i64::MAX);
                        *q += 1;
                    }
                } else {
                    for &w in a.iter() {
                        let q = &mut h[digit(w, d)];
                        b[*q as usize] = w;
                        *q += 1;
                    }
                    std::mem::swap(&mut a, &mut b);
                }
            }
        },
    );
}

/// Counts each of the first `P` bytes of each packed key of `a` (its top 32
/// bits) less `base` into `c`: `P` a constant, so that the passes' loop is
/// unrolled (a bucket's count 20 ms faster in 2^24 elements).
#[inline(always)]
#[allow(clippy::cast_possible_truncation)]
fn count_digits<const P: usize>(a: &[u64], base: u64, c: &mut [[u32; 256]; 4]) {
    for &w in a {
        let k = (w >> 32) - base;
        for (d, h) in c.iter_mut().enumerate().take(P) {
            h[((k >> (8 * d)) & 255) as usize] += 1;
        }
    }
}

/// The rows of `n` of `elems` (row-major) sorted into the rows of `vs` and
/// `is`: rows in parallel, a few thousand elements' worth of rows a task
/// (its scratch kept from row to row), a long row by several threads (a
/// bucket sort for narrow types, [`bucket_row`]).
///
/// # Errors
/// What taking the bucket sort's scratch from `dev`'s pool reports.
fn sort_rows<T: HostSort>(
    dev: &Device,
    elems: &[T],
    n: usize,
    desc: bool,
    vs: &mut [T],
    is: &mut [i64],
) -> Result<()> {
    let long = n >= PARALLEL_ROW;
    if long && T::NARROW && u32::try_from(n).is_ok() {
        // two chunks a thread: more made the scatter slower (more runs to
        // write at once)
        let parts = rayon::current_num_threads().max(1) * 2;
        // from the host's pool: a buffer cached there has its pages mapped
        // (fresh ones cost the sort of 2^24 elements about 130 ms of page
        // faults); not zeroed, as `bucket_row` writes it before reading
        let mut from = silt::__private::scratch_for_overwrite::<u64>(dev, &[n])?;
        return from.with_host_slice_mut(|from| {
            for ((vs, is), row) in vs.chunks_mut(n).zip(is.chunks_mut(n)).zip(elems.chunks(n)) {
                bucket_row(row, desc, parts, (vs, is), from);
            }
        });
    }
    let task = n * (TASK_ELEMS / n).max(1);
    vs.par_chunks_mut(task)
        .zip(is.par_chunks_mut(task))
        .zip(elems.par_chunks(task))
        .for_each(|((vs, is), rows)| {
            let (mut packed, mut pairs, mut places) = (Vec::new(), Vec::new(), Vec::new());
            for ((vs, is), row) in vs.chunks_mut(n).zip(is.chunks_mut(n)).zip(rows.chunks(n)) {
                order_into(row, desc, long, &mut packed, &mut pairs, &mut places);
                for ((v, i), &p) in vs.iter_mut().zip(is).zip(&places) {
                    *v = row[p];
                    *i = i64::try_from(p).unwrap_or(i64::MAX);
                }
            }
        });
    Ok(())
}

fn run<T: HostSort>(
    x: &TensorT<T>,
    desc: bool,
    values: &mut TensorT<T>,
    indices: &mut TensorT<i64>,
) -> Result<()> {
    let (inner, n) = (x.shape()[1], x.shape()[2]);
    if inner == 1 {
        // the results' rows are the rows: sorted into them in place, from
        // `x`'s own elements where it is contiguous
        let into =
            |elems: &[T], values: &mut TensorT<T>, indices: &mut TensorT<i64>| -> Result<()> {
                values.with_host_slice_mut(|vs| {
                    indices.with_host_slice_mut(|is| sort_rows(x.device(), elems, n, desc, vs, is))
                })??
            };
        return if x.is_contiguous() {
            x.with_host_slice(|elems| into(elems, values, indices))?
        } else {
            into(&x.to_vec()?, values, indices)
        };
    }
    let elems = x.to_vec()?;
    // each row's order, then its values and indices, row by row
    let mut sorted_values = vec![elems[0]; elems.len()];
    let mut sorted_indices = vec![0i64; elems.len()];
    sort_rows(
        x.device(),
        &elems,
        n,
        desc,
        &mut sorted_values,
        &mut sorted_indices,
    )?;
    values.with_host_slice_mut(|out| scatter(out, &sorted_values, inner, n))?;
    indices.with_host_slice_mut(|out| scatter(out, &sorted_indices, inner, n))?;
    Ok(())
}

/// Writes rows (`[outer, inner, n]`, row-major) to a contiguous result whose
/// rows run along a dimension of stride `inner`: row `(o, i)`'s place `q` at
/// `o * n * inner + q * inner + i`.
fn scatter<U: Copy + Send + Sync>(out: &mut [U], rows: &[U], inner: usize, n: usize) {
    if inner == 1 {
        out.copy_from_slice(rows);
        return;
    }
    out.par_chunks_mut(n * inner)
        .zip(rows.par_chunks(n * inner))
        .for_each(|(o, block)| {
            for (i, row) in block.chunks(n).enumerate() {
                for (q, &v) in row.iter().enumerate() {
                    o[q * inner + i] = v;
                }
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The keys of a float type's values in ascending order (NaNs last):
    /// increasing, but equal for the zeros and for the NaNs, and each
    /// other value's key giving its bits back.
    fn check_keys<T: HostSort + PartialOrd + std::fmt::Debug>(
        ascending: &[T],
        zero: T,
        bits: impl Fn(T) -> u64,
    ) {
        let keys: Vec<u64> = ascending.iter().map(|&v| v.key()).collect();
        for (w, v) in keys.windows(2).zip(ascending.windows(2)) {
            assert!(w[0] <= w[1], "{:?}: keys {:#x} > {:#x}", v, w[0], w[1]);
        }
        for (&v, &k) in ascending.iter().zip(&keys) {
            // `None` for the zeros' and the NaNs' keys alone
            match T::unkey(k) {
                Some(u) => assert_eq!(bits(u), bits(v), "{v:?} from key {k:#x}"),
                None => assert!(v.partial_cmp(&v).is_none() || v == zero, "{v:?}"),
            }
        }
    }

    #[test]
    fn float_keys_order_numbers_then_nans_and_give_the_bits_back() {
        let f32s = [
            f32::NEG_INFINITY,
            f32::MIN,
            -1.5,
            -f32::MIN_POSITIVE,
            -1e-45,
            -0.0,
            0.0,
            1e-45,
            f32::MIN_POSITIVE,
            1.5,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(0x7f80_0001),
            f32::from_bits(0xffc0_1234),
        ];
        check_keys(&f32s, 0.0, |v| u64::from(v.to_bits()));
        let f64s: Vec<f64> = f32s
            .iter()
            .map(|&v| {
                if v.is_nan() {
                    f64::from_bits(
                        0x7ff0_0000_0000_0000 | u64::from(v.to_bits() & 0x7f_ffff).max(1),
                    )
                } else {
                    f64::from(v)
                }
            })
            .chain([-f64::NAN])
            .collect();
        check_keys(&f64s, 0.0, f64::to_bits);
        let f16s: Vec<f16> = f32s.iter().map(|&v| f16::from_f32(v)).collect();
        check_keys(&f16s, f16::ZERO, |v| u64::from(v.to_bits()));
        // equal keys: both zeros, every NaN
        assert_eq!((-0.0f32).key(), 0.0f32.key());
        assert_eq!(f32::NAN.key(), f32::from_bits(0xffc0_1234).key());
        assert_eq!(f32::NAN.key(), u64::from(u32::MAX));
        assert_eq!((-0.0f64).key(), 0.0f64.key());
        assert_eq!((-f64::NAN).key(), u64::MAX);
        assert_eq!(f16::NEG_ZERO.key(), f16::ZERO.key());
        assert_eq!(f16::from_bits(0xfe01).key(), u64::from(u16::MAX));
        // the key of -1.5 below that of -1e-45 and above -inf's: the
        // negative numbers' keys run backwards from their bits
        assert!((-1.5f32).key() < (-1e-45f32).key());
        assert_eq!(f32::NEG_INFINITY.key(), u64::from(!0xff80_0000u32));
        assert_eq!(1.5f32.key(), u64::from(1.5f32.to_bits() | 0x8000_0000));
    }
}
