//! `matmul` on the host: the device kernels' steps, in the same order, made
//! fast on the CPU.
//!
//! Each output is `acc = a[i, k] * b[k, j] + acc` for `k` in order from
//! `acc = 0` (a fused multiply-add for floats), as on a device; only which
//! outputs are computed together differs, which changes no bit. The operands
//! of one matrix product are first copied into panels (`a` by blocks of
//! `MR` rows, `b` by blocks of `NR` columns, each `k`-major), as every BLAS
//! does, which also reads any view; blocks of rows then run in parallel
//! (rayon), each `MR x NR` block of the output kept in registers over the
//! whole of `k`. Floats use AVX-512 or AVX2 with FMA where the CPU has them
//! (checked at run time), `f32::mul_add` elsewhere.

use rayon::prelude::*;
use silt::{f16, Element, Result, TensorT};

/// The element types' host `matmul`.
pub trait HostMatmul: Element {
    #[doc(hidden)]
    fn host_matmul(a: &TensorT<Self>, b: &TensorT<Self>, c: &mut TensorT<Self>) -> Result<()>;
}

/// How a type's sums are taken: the type they are kept in, its zero, and
/// one step `acc + x * y`.
trait Acc: Copy + Send + Sync + 'static {
    const ZERO: Self;
    fn step(x: Self, y: Self, acc: Self) -> Self;
}

macro_rules! int_acc {
    ($($t:ty),*) => {$(
        impl Acc for $t {
            const ZERO: Self = 0;
            #[inline(always)]
            fn step(x: Self, y: Self, acc: Self) -> Self {
                x.wrapping_mul(y).wrapping_add(acc)
            }
        }
    )*};
}
int_acc!(i8, i16, i32, i64, u8, u16, u32, u64);

impl Acc for f32 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn step(x: Self, y: Self, acc: Self) -> Self {
        x.mul_add(y, acc)
    }
}

impl Acc for f64 {
    const ZERO: Self = 0.0;
    #[inline(always)]
    fn step(x: Self, y: Self, acc: Self) -> Self {
        x.mul_add(y, acc)
    }
}

/// The steps of `k` a block of the output takes at a time: the panels of
/// `b` it reads stay in the L1 cache, those of `a` in L2.
const KC: usize = 256;
/// The rows of `a` one thread packs and runs through at a time.
const MC: usize = 96;

/// `a` (`[m, k]`, row-major) as panels of `MR` rows, each `k`-major
/// (`panel[q * MR + r]`), the rows past `m` zero.
fn pack_a<T: Acc, const MR: usize>(a: &[T], m: usize, k: usize) -> Vec<T> {
    let panels = m.div_ceil(MR);
    let mut out = vec![T::ZERO; panels * MR * k];
    for (p, panel) in out.chunks_mut(MR * k).enumerate() {
        for r in 0..MR.min(m - p * MR) {
            let row = &a[(p * MR + r) * k..][..k];
            for (q, &v) in row.iter().enumerate() {
                panel[q * MR + r] = v;
            }
        }
    }
    out
}

/// `b` (`[k, n]`, row-major) as panels of `NR` columns, each `k`-major
/// (`panel[q * NR + s]`), the columns past `n` zero.
fn pack_b<T: Acc, const NR: usize>(b: &[T], k: usize, n: usize) -> Vec<T> {
    let panels = n.div_ceil(NR);
    let mut out = vec![T::ZERO; panels * NR * k];
    for (p, panel) in out.chunks_mut(NR * k).enumerate() {
        let cols = NR.min(n - p * NR);
        for q in 0..k {
            panel[q * NR..][..cols].copy_from_slice(&b[q * n + p * NR..][..cols]);
        }
    }
    out
}

/// The inner kernel: `acc[r][s]` continued over the steps of `ap` (`kc x
/// MR`) and `bp` (`kc x NR`), in order.
type Block<T, const MR: usize, const NR: usize> = fn(&[T], &[T], &mut [[T; NR]; MR]);

/// [`Block`] in plain Rust (vectorised by the compiler where it can).
#[inline(always)]
fn block<T: Acc, const MR: usize, const NR: usize>(ap: &[T], bp: &[T], acc: &mut [[T; NR]; MR]) {
    for (a, b) in ap.chunks_exact(MR).zip(bp.chunks_exact(NR)) {
        for r in 0..MR {
            for s in 0..NR {
                acc[r][s] = T::step(a[r], b[s], acc[r][s]);
            }
        }
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,fma")]
fn block_avx2<T: Acc, const MR: usize, const NR: usize>(
    ap: &[T],
    bp: &[T],
    acc: &mut [[T; NR]; MR],
) {
    block(ap, bp, acc);
}

/// [`Block`] for `f32` in AVX-512: 8 rows of 32 columns, 16 registers of
/// sums, one `vfmadd` per 16 of them a step.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
fn block_f32_avx512(ap: &[f32], bp: &[f32], acc: &mut [[f32; 32]; 8]) {
    use std::arch::x86_64::{
        __m512, _mm512_fmadd_ps, _mm512_loadu_ps, _mm512_set1_ps, _mm512_storeu_ps,
    };
    let steps = (ap.len() / 8).min(bp.len() / 32);
    // SAFETY: every pointer is inside `acc`, `ap` (8 a step) or `bp` (32 a
    // step) for the `steps` steps both hold
    unsafe {
        let mut c = [[std::mem::zeroed::<__m512>(); 2]; 8];
        for (r, row) in acc.iter().enumerate() {
            c[r] = [
                _mm512_loadu_ps(row.as_ptr()),
                _mm512_loadu_ps(row.as_ptr().add(16)),
            ];
        }
        let (mut pa, mut pb) = (ap.as_ptr(), bp.as_ptr());
        for _ in 0..steps {
            let b0 = _mm512_loadu_ps(pb);
            let b1 = _mm512_loadu_ps(pb.add(16));
            for (r, cr) in c.iter_mut().enumerate() {
                let a = _mm512_set1_ps(*pa.add(r));
                cr[0] = _mm512_fmadd_ps(a, b0, cr[0]);
                cr[1] = _mm512_fmadd_ps(a, b1, cr[1]);
            }
            pa = pa.add(8);
            pb = pb.add(32);
        }
        for (r, row) in acc.iter_mut().enumerate() {
            _mm512_storeu_ps(row.as_mut_ptr(), c[r][0]);
            _mm512_storeu_ps(row.as_mut_ptr().add(16), c[r][1]);
        }
    }
}

/// The fastest [`Block`] of `T` with `MR x NR` blocks the CPU runs.
fn kernel<T: Acc, const MR: usize, const NR: usize>() -> Block<T, MR, NR> {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU has the features the function is compiled for
        return |a, b, acc| unsafe { block_avx2(a, b, acc) };
    }
    block
}

/// `c = a b` for row-major `a` (`[m, k]`) and `b` (`[k, n]`) into `c`
/// (row-major `[m, n]`, sums), with `kern` on `MR x NR` blocks.
fn gemm<T: Acc, const MR: usize, const NR: usize>(
    a: &[T],
    b: &[T],
    (m, k, n): (usize, usize, usize),
    c: &mut [T],
    kern: Block<T, MR, NR>,
) {
    let (ap, bp) = (pack_a::<T, MR>(a, m, k), pack_b::<T, NR>(b, k, n));
    let rows_per_task = MC.div_ceil(MR) * MR;
    for kc in (0..k).step_by(KC) {
        let steps = KC.min(k - kc);
        c.par_chunks_mut(rows_per_task * n)
            .enumerate()
            .for_each(|(task, rows)| {
                let first = task * rows_per_task / MR;
                let panels = rows.len().div_ceil(n * MR);
                for (q, bpanel) in bp.chunks(NR * k).enumerate() {
                    let bs = &bpanel[kc * NR..][..steps * NR];
                    let cols = NR.min(n - q * NR);
                    for p in 0..panels {
                        let apanel = &ap[(first + p) * MR * k..][..MR * k];
                        let at = &apanel[kc * MR..][..steps * MR];
                        let mut acc = [[T::ZERO; NR]; MR];
                        let block_rows = MR.min(rows.len() / n - p * MR);
                        for r in 0..block_rows {
                            acc[r][..cols]
                                .copy_from_slice(&rows[(p * MR + r) * n + q * NR..][..cols]);
                        }
                        kern(at, bs, &mut acc);
                        for r in 0..block_rows {
                            rows[(p * MR + r) * n + q * NR..][..cols]
                                .copy_from_slice(&acc[r][..cols]);
                        }
                    }
                }
            });
    }
}

/// The sums of one matrix product, in `A`.
trait Gemm: Acc {
    fn gemm(a: &[Self], b: &[Self], mkn: (usize, usize, usize), c: &mut [Self]);
}

impl Gemm for f32 {
    fn gemm(a: &[Self], b: &[Self], mkn: (usize, usize, usize), c: &mut [Self]) {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512f") {
            // SAFETY: the CPU has AVX-512
            return gemm::<f32, 8, 32>(a, b, mkn, c, |a, b, acc| unsafe {
                block_f32_avx512(a, b, acc)
            });
        }
        gemm::<f32, 4, 16>(a, b, mkn, c, kernel::<f32, 4, 16>());
    }
}

macro_rules! gemm_generic {
    ($($t:ty: $mr:literal x $nr:literal),*) => {$(
        impl Gemm for $t {
            fn gemm(a: &[Self], b: &[Self], mkn: (usize, usize, usize), c: &mut [Self]) {
                gemm::<$t, $mr, $nr>(a, b, mkn, c, kernel::<$t, $mr, $nr>());
            }
        }
    )*};
}
gemm_generic!(f64: 4 x 8, i8: 4 x 32, i16: 4 x 16, i32: 4 x 8, i64: 4 x 4,
    u8: 4 x 32, u16: 4 x 16, u32: 4 x 8, u64: 4 x 4);

/// The host `matmul` of 3-d views with sums in `A`: `to` converts an
/// element to `A`, `from` a sum back.
fn run<T: Element, A: Gemm>(
    a: &TensorT<T>,
    b: &TensorT<T>,
    c: &mut TensorT<T>,
    to: impl Fn(T) -> A,
    from: impl Fn(A) -> T,
) -> Result<()> {
    let (batch, m, k, n) = (c.shape()[0], c.shape()[1], a.shape()[2], c.shape()[2]);
    // one matrix of each at a time: a broadcast batch is not copied out
    let matrix = |t: &TensorT<T>, z: usize| -> Result<Vec<A>> {
        Ok(t.narrow(0, z, 1)?.to_vec()?.into_iter().map(&to).collect())
    };
    let mut sums = vec![A::ZERO; m * n];
    for z in 0..batch {
        let (xs, ys) = (matrix(a, z)?, matrix(b, z)?);
        sums.fill(A::ZERO);
        A::gemm(&xs, &ys, (m, k, n), &mut sums);
        c.with_host_slice_mut(|cs| {
            for (o, &v) in cs[z * m * n..][..m * n].iter_mut().zip(&sums) {
                *o = from(v);
            }
        })?;
    }
    Ok(())
}

macro_rules! host_same {
    ($($t:ty),*) => {$(
        impl HostMatmul for $t {
            fn host_matmul(
                a: &TensorT<Self>,
                b: &TensorT<Self>,
                c: &mut TensorT<Self>,
            ) -> Result<()> {
                run(a, b, c, |v| v, |v| v)
            }
        }
    )*};
}
host_same!(f32, f64, i8, i16, i32, i64, u8, u16, u32, u64);

impl HostMatmul for f16 {
    fn host_matmul(a: &TensorT<Self>, b: &TensorT<Self>, c: &mut TensorT<Self>) -> Result<()> {
        run(a, b, c, f32::from, f16::from_f32)
    }
}
