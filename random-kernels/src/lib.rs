//! Randomly generated `#[kernel]` functions and what the tests need to run them.
//!
//! `build.rs` asks `silt-kernel-gen` (the generator the `kernels` fuzz target
//! uses too, `gen/`) for a corpus of random kernels that run: valid for every
//! instantiation, using only operations every backend computes alike except for
//! one transcendental function at the end of a float output, with loops that
//! end, `#[helper]`s (generic or not), kernels that call a kernel generated for
//! them (inlined), `match` on integers and `bool`, every element type (`f16` included),
//! names that are C keywords. It writes them, and per instantiation a function
//! that launches the kernel (by `launch` or by `dispatch`) and one that calls its
//! `eval`, into `OUT_DIR`; the file is included here as [`generated`]. The
//! corpus is a pure function of `SILT_RANDOM_SEED` and `SILT_RANDOM_COUNT` (see
//! [`generated::SEED`]); `SILT_RANDOM_ONLY=3,17` keeps only those kernels.
//! `tests/random.rs` runs every kernel on the OpenCL device and on the host and
//! compares the results: bit for bit, or within the ULP bound of the
//! transcendental function a float output ends in ([`Class`]). The inputs are
//! the edge values of [`Edges`] (defined once in `silt-kernel-gen`, shared with
//! the differential tests) and random values.
//!
//! The corpus also holds random `#[reduce]` and `#[scan]` modules
//! ([`generated::FOLDS`]): `tests/folds.rs` launches each over shapes, axes and
//! views ([`fold::Case`]) on the OpenCL device (every way of sharing out a
//! reduction's work) and on the host, and compares with `eval` on the rows
//! gathered on the host: bit for bit.
//!
//! And it holds random `#[grid]` kernels ([`generated::GRIDS`], from
//! `silt-kernel-gen`'s `generate_grid`): `tests/grids.rs` runs each on the
//! OpenCL device and on the host and compares the verdict on accesses out of
//! range and every bit written.

use std::fmt::Debug;

pub mod fold;

use silt::{f16, Device, Element, Tensor, TensorT};
pub use silt_kernel_gen::values::Edges;

/// The generated kernels, their launch and `eval` wrappers, and [`generated::KERNELS`].
#[allow(
    missing_docs,
    clippy::all,
    clippy::pedantic,
    unused_mut,
    unused_variables,
    unused_parens,
    non_snake_case,
    dead_code,
    path_statements,
    unused_must_use,
    unused_comparisons
)]
pub mod generated {
    include!(concat!(env!("OUT_DIR"), "/generated.rs"));
}

/// A random grid kernel of the corpus ([`generated::GRIDS`]).
#[derive(Debug, Clone, Copy)]
pub struct Grid {
    /// Its name (`g3`).
    pub name: &'static str,
    /// Whether some of its accesses may fall out of range.
    pub may_overrun: bool,
    /// Launches it on a device over its shapes.
    pub run: fn(&Device) -> GridRun,
}

/// What a launch of a random grid kernel gave: whether it reported an
/// access out of range, and what it wrote (`y` as bits, all NaNs alike;
/// the histogram `h`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GridRun {
    /// `None`, or the error's kind (`IndexOutOfBounds`).
    pub error: Option<String>,
    /// The bits of `y`'s elements.
    pub y: Vec<u64>,
    /// The histogram.
    pub h: Vec<u32>,
}

impl GridRun {
    /// The run of a launch that returned `r`.
    pub fn new(r: silt::Result<()>, y: Vec<u64>, h: Vec<u32>) -> Self {
        let error = r.err().map(|e| match e {
            silt::Error::IndexOutOfBounds { .. } => "IndexOutOfBounds".to_owned(),
            other => format!("{other:?}"),
        });
        GridRun { error, y, h }
    }
}

/// How closely the device's value must match the host's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Class {
    /// Bit for bit (all NaNs alike).
    Exact,
    /// Within this many ULPs (NaN and infinities exactly).
    Ulps(u64),
}

/// One generated kernel.
#[derive(Debug)]
pub struct Kernel {
    /// Its name (`rk12`).
    pub name: &'static str,
    /// Its source, as written in the generated file.
    pub source: &'static str,
    /// One entry per instantiation.
    pub insts: &'static [Inst],
}

/// One instantiation of a generated kernel.
#[derive(Debug)]
pub struct Inst {
    /// The instantiation type (`"-"` for a kernel without a generic parameter).
    pub ty: &'static str,
    /// The names of the outputs: `return.0`, `*o1`, ...
    pub outputs: &'static [&'static str],
    /// The comparison class of each output.
    pub classes: &'static [Class],
    /// The inputs the launch gets (tensor columns and one-element scalars), by name.
    pub inputs: fn(&Inputs) -> Vec<(&'static str, Col)>,
    /// Launches the kernel on a device (through `dispatch` when the flag is set);
    /// returns every output column.
    pub launch: fn(&Device, &Inputs, bool) -> silt::Result<Vec<Col>>,
    /// Calls `eval` on the first `n` elements.
    pub eval: fn(&Inputs, usize) -> Vec<Col>,
}

/// A column of values of one element type.
#[derive(Debug, Clone, PartialEq)]
#[allow(missing_docs)] // one variant per element type
pub enum Col {
    Bool(Vec<bool>),
    U8(Vec<u8>),
    I8(Vec<i8>),
    U16(Vec<u16>),
    I16(Vec<i16>),
    U32(Vec<u32>),
    I32(Vec<i32>),
    U64(Vec<u64>),
    I64(Vec<i64>),
    F16(Vec<f16>),
    F32(Vec<f32>),
    F64(Vec<f64>),
}

macro_rules! each_col {
    ($c:expr, $v:ident => $body:expr) => {
        match $c {
            Col::Bool($v) => $body,
            Col::U8($v) => $body,
            Col::I8($v) => $body,
            Col::U16($v) => $body,
            Col::I16($v) => $body,
            Col::U32($v) => $body,
            Col::I32($v) => $body,
            Col::U64($v) => $body,
            Col::I64($v) => $body,
            Col::F16($v) => $body,
            Col::F32($v) => $body,
            Col::F64($v) => $body,
        }
    };
}

impl Col {
    /// The number of values.
    pub fn len(&self) -> usize {
        each_col!(self, v => v.len())
    }

    /// Whether there are no values.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The element type's name.
    pub fn type_name(&self) -> &'static str {
        match self {
            Col::Bool(_) => "bool",
            Col::U8(_) => "u8",
            Col::I8(_) => "i8",
            Col::U16(_) => "u16",
            Col::I16(_) => "i16",
            Col::U32(_) => "u32",
            Col::I32(_) => "i32",
            Col::U64(_) => "u64",
            Col::I64(_) => "i64",
            Col::F16(_) => "f16",
            Col::F32(_) => "f32",
            Col::F64(_) => "f64",
        }
    }

    /// Value `i` as Rust source (with its bits for floats); a one-value column
    /// (a scalar) shows its value for every `i`.
    pub fn show(&self, i: usize) -> String {
        let i = if self.len() == 1 { 0 } else { i };
        match self {
            Col::F16(v) => format!("{:?}f16 (0x{:04x})", v[i].to_f32(), v[i].to_bits()),
            Col::F32(v) => format!("{:?}f32 (0x{:08x})", v[i], v[i].to_bits()),
            Col::F64(v) => format!("{:?}f64 (0x{:016x})", v[i], v[i].to_bits()),
            _ => each_col!(self, v => format!("{:?}{}", v[i], self.type_name())),
        }
    }

    /// The distance of value `i` of `self` and of `other`: 0 when equal (NaNs
    /// alike), the ULP distance for floats, `u64::MAX` for different types or a
    /// NaN against a number.
    pub fn distance(&self, other: &Col, i: usize) -> u64 {
        macro_rules! arm {
            ($($v:ident),*) => {
                match (self, other) {
                    $((Col::$v(a), Col::$v(b)) => a[i].distance(b[i]),)*
                    _ => u64::MAX,
                }
            };
        }
        arm!(Bool, U8, I8, U16, I16, U32, I32, U64, I64, F16, F32, F64)
    }
}

/// An element type of the generated kernels: test values (the edge values of
/// [`Edges`], defined in `silt-kernel-gen`), and the distance used to compare
/// results.
pub trait Elem: Element + Edges + Copy + Debug + PartialEq + Send + Sync + 'static {
    /// A value from raw random bits.
    fn from_bits64(bits: u64) -> Self;
    /// A small value near zero (`-10..=10`, clamped for unsigned types).
    fn small(v: i8) -> Self;
    /// 0 when equal (NaNs alike, `0.0 != -0.0`), else the ULP distance for floats
    /// and `u64::MAX` otherwise.
    fn distance(self, other: Self) -> u64;
    /// Wraps a column.
    fn col(v: Vec<Self>) -> Col;
}

impl Elem for bool {
    fn from_bits64(bits: u64) -> bool {
        bits & 1 == 1
    }
    fn small(v: i8) -> bool {
        v & 1 == 1
    }
    fn distance(self, other: bool) -> u64 {
        if self == other {
            0
        } else {
            u64::MAX
        }
    }
    fn col(v: Vec<bool>) -> Col {
        Col::Bool(v)
    }
}

macro_rules! int_elem {
    ($($t:ident $var:ident),*) => {$(
        impl Elem for $t {
            #[allow(clippy::cast_possible_truncation)]
            fn from_bits64(bits: u64) -> $t {
                bits as $t
            }
            #[allow(clippy::cast_possible_truncation, clippy::cast_sign_loss, unused_comparisons)]
            fn small(v: i8) -> $t {
                if $t::MIN == 0 && v < 0 { v.unsigned_abs() as $t } else { v as $t }
            }
            fn distance(self, other: $t) -> u64 {
                if self == other { 0 } else { u64::MAX }
            }
            fn col(v: Vec<$t>) -> Col {
                Col::$var(v)
            }
        }
    )*};
}

int_elem!(u8 U8, i8 I8, u16 U16, i16 I16, u32 U32, i32 I32, u64 U64, i64 I64);

macro_rules! float_elem {
    ($t:ident $var:ident $bits:ident) => {
        impl Elem for $t {
            #[allow(clippy::cast_possible_truncation)]
            fn from_bits64(bits: u64) -> $t {
                $t::from_bits(bits as $bits)
            }
            fn small(v: i8) -> $t {
                $t::from(v) * 0.5
            }
            fn distance(self, other: $t) -> u64 {
                if self.is_nan() && other.is_nan() {
                    return 0;
                }
                if self.to_bits() == other.to_bits() {
                    return 0;
                }
                if self.is_nan() || other.is_nan() {
                    return u64::MAX;
                }
                // neighbouring floats are 1 apart on this line
                fn line(x: $t) -> i128 {
                    let b = i128::from(x.to_bits());
                    let sign = 1i128 << ($bits::BITS - 1);
                    if b & sign != 0 {
                        -(b & (sign - 1))
                    } else {
                        b
                    }
                }
                let d = line(self).abs_diff(line(other));
                // `0.0` and `-0.0` are 0 apart on the line but not equal
                u64::try_from(d).unwrap_or(u64::MAX).max(1)
            }
            fn col(v: Vec<$t>) -> Col {
                Col::$var(v)
            }
        }
    };
}

float_elem!(f32 F32 u32);
float_elem!(f64 F64 u64);

impl Elem for f16 {
    #[allow(clippy::cast_possible_truncation)]
    fn from_bits64(bits: u64) -> f16 {
        f16::from_bits(bits as u16)
    }
    fn small(v: i8) -> f16 {
        f16::from_f32(f32::from(v) * 0.5)
    }
    fn distance(self, other: f16) -> u64 {
        if self.is_nan() && other.is_nan() {
            return 0;
        }
        if self.to_bits() == other.to_bits() {
            return 0;
        }
        if self.is_nan() || other.is_nan() {
            return u64::MAX;
        }
        // neighbouring values are 1 apart on this line
        fn line(x: f16) -> i64 {
            let b = i64::from(x.to_bits());
            if b & 0x8000 != 0 {
                -(b & 0x7fff)
            } else {
                b
            }
        }
        // `0.0` and `-0.0` are 0 apart on the line but not equal
        line(self).abs_diff(line(other)).max(1)
    }
    fn col(v: Vec<f16>) -> Col {
        Col::F16(v)
    }
}

/// The inputs of one launch: a seed, and the number of elements.
#[derive(Debug, Clone, Copy)]
pub struct Inputs {
    /// Derives every value.
    pub seed: u64,
    /// The number of elements of each tensor.
    pub len: usize,
}

fn mix(mut z: u64) -> u64 {
    // splitmix64's finaliser
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Inputs {
    fn value<T: Elem>(&self, edges: &[T], k: usize, i: usize) -> T {
        let h = mix(self.seed ^ mix((k as u64) << 32 ^ i as u64 ^ 0x9e37_79b9_7f4a_7c15));
        // parameter 0 walks the edge values in order, the others pick them
        if k == 0 && i < edges.len() {
            return edges[i];
        }
        let pick = usize::try_from((h >> 8) % edges.len() as u64).unwrap_or(0);
        match h % 8 {
            0..=3 => edges[pick],
            4 | 5 => T::from_bits64(mix(h)),
            _ => {
                let small = i8::try_from((h >> 16) % 21).unwrap_or(0) - 10;
                T::small(small)
            }
        }
    }

    /// The values of tensor parameter `k`.
    pub fn col<T: Elem>(&self, k: usize) -> Vec<T> {
        let edges = T::edges();
        (0..self.len).map(|i| self.value(&edges, k, i)).collect()
    }

    /// The value of scalar parameter `k`.
    pub fn scalar<T: Elem>(&self, k: usize) -> T {
        let edges = T::edges();
        self.value(&edges, k + 1000, 0)
    }
}

/// A one-dimensional tensor holding `v`.
///
/// # Errors
/// Whatever `TensorT::from_slice` reports.
pub fn tensor<T: Elem>(dev: &Device, v: &[T]) -> silt::Result<TensorT<T>> {
    TensorT::from_slice(dev, v, [v.len()])
}

/// A tensor's values as a column.
///
/// # Errors
/// Whatever `TensorT::to_vec` reports.
pub fn out<T: Elem>(t: &TensorT<T>) -> silt::Result<Col> {
    Ok(T::col(t.to_vec()?))
}

/// An untyped tensor's values as a column of `T`.
///
/// # Errors
/// Whatever `Tensor::to_vec` reports (a dtype other than `T`'s among them).
pub fn out_any<T: Elem>(t: &Tensor) -> silt::Result<Col> {
    Ok(T::col(t.to_vec::<T>()?))
}

/// A scalar as a one-value column.
pub fn one<T: Elem>(v: T) -> Col {
    T::col(vec![v])
}
