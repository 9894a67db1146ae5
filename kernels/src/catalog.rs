//! A list of every operation of this crate, for tools that look them up by name
//! at run time (the `silt` command's `silt source` uses it).
//!
//! ```
//! use silt::DType;
//! use silt_kernels::catalog;
//!
//! let add = catalog::find("add").unwrap();
//! assert!(add.types.contains(&DType::F32));
//! assert!(add.source(DType::F32).unwrap().contains("__kernel void add_f32"));
//! assert_eq!(catalog::OPERATIONS.len(), 178);
//! ```

use silt::DType;

/// The form of an operation, which says how it is called.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Kind {
    /// A `#[kernel]`: `launch(tensors.., scalars..)`, one output element per
    /// element of the broadcast inputs.
    Elementwise,
    /// A reduction: `launch(x, axes)` (`var`: `(x, correction, axes)`; `norm`:
    /// `(x, p, axes)`).
    Reduction,
    /// A scan or a normalisation along one axis: `launch(x, axis)`, a result
    /// of `x`'s shape.
    Scan,
    /// A normalisation over trailing dimensions: `launch(x,
    /// normalized_shape, weight, ..)` as PyTorch's `layer_norm` and
    /// `rms_norm`, a result of `x`'s shape.
    Normalization,
    /// A product of matrices: `launch(a, b)`, the shapes as PyTorch's
    /// `matmul` (run by grid kernels).
    Matrix,
    /// An ordering along one axis (run by grid kernels): `sort` and
    /// `argsort` as `launch(x, dim, descending)`, `topk` as `launch(x, k,
    /// dim, largest, sorted)`; values and `i64` indices; `searchsorted` as
    /// `launch(sorted_sequence, values, right, sorter)`, `i64` places.
    Ordering,
    /// Indexing by a tensor of indices, as PyTorch's: `index_select(input,
    /// dim, index)`, `gather(input, dim, index)`, `scatter_add(input, dim,
    /// index, src)`, `scatter_reduce(input, dim, index, src, reduce,
    /// include_self)`, `take(input, index)` (run by grid kernels).
    Indexing,
    /// Counting, as PyTorch's: `bincount(input, weights, minlength)`,
    /// `histc(input, bins, min, max)` (run by grid kernels).
    Counting,
    /// A factorisation of matrices and its solves, as PyTorch's
    /// `torch.linalg`: `lu_factor` as `launch(a)` (`(LU, pivots)`),
    /// `lu_solve` as `launch(lu, pivots, b, adjoint)`, `eigh` as `launch(a)`
    /// (`(eigenvalues, eigenvectors)`), `svd` as `launch(a)` (`(U, S, Vh)`),
    /// `geqrf` as `launch(a)` (`(a, tau)`), `householder_product` as
    /// `launch(a, tau)`, `cholesky_ex` as `launch(a)` (`(L, info)`),
    /// `solve_triangular` as `launch(a, b, upper, unit)`, `ldl_factor` as
    /// `launch(a)` (`(LD, pivots, info)`), `ldl_solve` as `launch(ld,
    /// pivots, b)` (run by grid kernels).
    Factorization,
}

/// One operation of the crate: its name, its group and its OpenCL C.
#[derive(Debug, Clone, Copy)]
#[non_exhaustive]
pub struct Operation {
    /// The operation's name, as its module is named (`"add"`, `"where_"`).
    pub name: &'static str,
    /// The group it belongs to in the crate's table of operations (`"binary"`,
    /// `"activations"`, ...).
    pub group: &'static str,
    /// The element types it is instantiated for (the module's `TYPES`). Empty
    /// for an operation that is not generic (such as `logical_and`, on `bool`):
    /// it then has one instantiation.
    pub types: &'static [DType],
    /// The module's `source`: the OpenCL C program of the instantiation for a
    /// dtype (`None` outside [`types`](Self::types); the dtype is ignored when
    /// `types` is empty).
    pub source_fn: fn(DType) -> Option<&'static str>,
    /// What form it has: elementwise, a reduction, a scan, or made of several
    /// launches.
    pub kind: Kind,
    /// The module's `__infos`: every instantiation's launch information, for
    /// tests and tools that build the programs.
    #[doc(hidden)]
    pub infos_fn: fn() -> &'static [&'static silt::__private::KernelInfo],
}

impl Operation {
    /// Whether the operation has a type parameter (a non-empty
    /// [`types`](Self::types)).
    pub fn is_generic(&self) -> bool {
        !self.types.is_empty()
    }

    /// The OpenCL C program of the instantiation for `dtype`: `None` when a
    /// generic operation is not instantiated for `dtype`; the single program,
    /// whatever `dtype`, for an operation that is not generic.
    pub fn source(&self, dtype: DType) -> Option<&'static str> {
        if self.is_generic() && !self.types.contains(&dtype) {
            return None;
        }
        (self.source_fn)(dtype)
    }

    /// Every instantiation's program, in the order of [`types`](Self::types):
    /// `(Some(dtype), source)` for a generic operation, a single
    /// `(None, source)` otherwise.
    pub fn sources(&self) -> Vec<(Option<DType>, &'static str)> {
        if self.is_generic() {
            self.types
                .iter()
                .filter_map(|&d| Some((Some(d), (self.source_fn)(d)?)))
                .collect()
        } else {
            (self.source_fn)(DType::Bool)
                .map(|s| (None, s))
                .into_iter()
                .collect()
        }
    }
}

/// The operation named `name`, if the crate has one.
pub fn find(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|op| op.name == name)
}

macro_rules! catalog {
    ($($group:literal $kind:ident: [$($name:ident),* $(,)?]),* $(,)?) => {
        /// Every operation of the crate, in the order of the crate's table of
        /// operations.
        pub static OPERATIONS: &[Operation] = &[$($(Operation {
            name: stringify!($name),
            group: $group,
            types: crate::$name::TYPES,
            source_fn: crate::$name::source,
            kind: Kind::$kind,
            infos_fn: crate::$name::__infos,
        }),*),*];
    };
}

catalog! {
    "fill and copy" Elementwise: [set, copy],
    "unary" Elementwise: [
        neg, abs, sign, square, reciprocal, sqrt, rsqrt, exp, exp2, expm1, log, log2, log10,
        log1p, sin, cos, tan, asin, acos, atan, sinh, cosh, tanh, asinh, acosh, atanh, erf,
        erfc, floor, ceil, round, trunc, frac,
    ],
    "special functions" Elementwise: [lgamma, digamma, erfinv, erfcx, log_ndtr, ndtri, i0, i0e, i1, i1e, zeta, gammainc, gammaincc],
    "Bessel and Airy functions" Elementwise: [
        bessel_j0, bessel_j1, bessel_y0, bessel_y1, modified_bessel_k0, modified_bessel_k1,
        scaled_modified_bessel_k0, scaled_modified_bessel_k1, airy_ai,
    ],
    "orthogonal polynomials" Elementwise: [
        chebyshev_polynomial_t, chebyshev_polynomial_u, chebyshev_polynomial_v,
        chebyshev_polynomial_w, shifted_chebyshev_polynomial_t, shifted_chebyshev_polynomial_u,
        shifted_chebyshev_polynomial_v, shifted_chebyshev_polynomial_w, hermite_polynomial_h,
        hermite_polynomial_he, laguerre_polynomial_l, legendre_polynomial_p,
    ],
    "binary" Elementwise: [
        add, sub, mul, div, rem, minimum, maximum, fmin, fmax, pow, atan2, hypot, copysign,
    ],
    "comparisons" Elementwise: [eq, ne, lt, le, gt, ge],
    "tests" Elementwise: [isnan, isinf, isfinite],
    "logical" Elementwise: [logical_and, logical_or, logical_xor, logical_not],
    "bitwise" Elementwise: [bitwise_and, bitwise_or, bitwise_xor, bitwise_not, shl, shr],
    "divisors" Elementwise: [gcd, lcm],
    "ternary" Elementwise: [where_, clamp, lerp, addcmul],
    "activations" Elementwise: [
        relu, relu6, leaky_relu, elu, selu, gelu, gelu_tanh, sigmoid, silu, softplus, softsign,
        mish, hardtanh, hardsigmoid, hardswish, logsigmoid,
    ],
    "in place" Elementwise: [axpy, scale_, add_],
    "casts" Elementwise: [to_f16, to_f32, to_f64, to_i32, to_i64, to_u8, to_bool],
    "reductions" Reduction: [
        sum, prod, mean, var, std, amin, amax, argmin, argmax, all, any, count_nonzero, norm,
        logsumexp,
    ],
    "normalisation" Scan: [softmax, log_softmax],
    "normalisation over trailing dimensions" Normalization: [layer_norm, rms_norm],
    "scans" Scan: [cumsum, cumprod, cummax, cummin, logcumsumexp],
    "linear algebra" Matrix: [matmul],
    "factorisations" Factorization: [
        lu_factor, lu_solve, eigh, svd, geqrf, householder_product, cholesky_ex, solve_triangular,
        ldl_factor, ldl_solve,
    ],
    "ordering" Ordering: [sort, argsort, topk, searchsorted],
    "indexing" Indexing: [index_select, gather, scatter_add, scatter_reduce, take],
    "counting" Counting: [bincount, histc],
}

/// Calls the macro `$m` with the names of the operations called as
/// `NAME::dispatch(&x)`: one tensor in, one elementwise result out. For
/// bindings and tests that go over every operation of one form (the Python
/// module binds them through it).
///
/// ```
/// macro_rules! count { ($($op:ident),*) => { [$(stringify!($op)),*].len() }; }
/// assert_eq!(silt_kernels::unary_operations!(count), 77);
/// ```
#[macro_export]
macro_rules! unary_operations {
    ($m:ident) => {
        $m! {
            neg,
            abs,
            sign,
            square,
            reciprocal,
            sqrt,
            rsqrt,
            exp,
            exp2,
            expm1,
            log,
            log2,
            log10,
            log1p,
            sin,
            cos,
            tan,
            asin,
            acos,
            atan,
            sinh,
            cosh,
            tanh,
            asinh,
            acosh,
            atanh,
            erf,
            erfc,
            lgamma,
            digamma,
            erfinv,
            erfcx,
            log_ndtr,
            ndtri,
            i0,
            i0e,
            i1,
            i1e,
            bessel_j0,
            bessel_j1,
            bessel_y0,
            bessel_y1,
            modified_bessel_k0,
            modified_bessel_k1,
            scaled_modified_bessel_k0,
            scaled_modified_bessel_k1,
            airy_ai,
            floor,
            ceil,
            round,
            trunc,
            frac,
            isnan,
            isinf,
            isfinite,
            logical_not,
            bitwise_not,
            relu,
            relu6,
            selu,
            gelu,
            gelu_tanh,
            sigmoid,
            silu,
            softplus,
            softsign,
            mish,
            hardsigmoid,
            hardswish,
            logsigmoid,
            to_f16,
            to_f32,
            to_f64,
            to_i32,
            to_i64,
            to_u8,
            to_bool
        }
    };
}

/// Calls the macro `$m` with the names of the operations called as
/// `NAME::dispatch(&a, &b)`: two tensors in (broadcast together), one
/// elementwise result out (see [`unary_operations!`]).
///
/// ```
/// macro_rules! count { ($($op:ident),*) => { [$(stringify!($op)),*].len() }; }
/// assert_eq!(silt_kernels::binary_operations!(count), 44);
/// ```
#[macro_export]
macro_rules! binary_operations {
    ($m:ident) => {
        $m! {
            add,
            sub,
            mul,
            div,
            rem,
            minimum,
            maximum,
            fmin,
            fmax,
            pow,
            atan2,
            hypot,
            copysign,
            eq,
            ne,
            lt,
            le,
            gt,
            ge,
            logical_and,
            logical_or,
            logical_xor,
            bitwise_and,
            bitwise_or,
            bitwise_xor,
            shl,
            shr,
            gcd,
            lcm,
            zeta,
            gammainc,
            gammaincc,
            chebyshev_polynomial_t,
            chebyshev_polynomial_u,
            chebyshev_polynomial_v,
            chebyshev_polynomial_w,
            shifted_chebyshev_polynomial_t,
            shifted_chebyshev_polynomial_u,
            shifted_chebyshev_polynomial_v,
            shifted_chebyshev_polynomial_w,
            hermite_polynomial_h,
            hermite_polynomial_he,
            laguerre_polynomial_l,
            legendre_polynomial_p
        }
    };
}

/// Calls the macro `$m` with the names of the reductions called as
/// `NAME::dispatch(&x, axes)`, with no other argument (`var`, `std` and
/// `norm` take one more; see [`unary_operations!`]).
///
/// ```
/// macro_rules! count { ($($op:ident),*) => { [$(stringify!($op)),*].len() }; }
/// assert_eq!(silt_kernels::reduction_operations!(count), 11);
/// ```
#[macro_export]
macro_rules! reduction_operations {
    ($m:ident) => {
        $m! {
            sum,
            prod,
            mean,
            amin,
            amax,
            argmin,
            argmax,
            all,
            any,
            count_nonzero,
            logsumexp
        }
    };
}
