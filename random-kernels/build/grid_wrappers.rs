//! The wrapper of a random grid kernel: a function that launches it on a
//! device over its shapes and returns what it wrote (`crate::GridRun`).

use std::fmt::Write as _;

use silt_abi::DType;
use silt_kernel_gen::{GridKernel, HIST};

/// Writes `g`, then its wrapper into `out`; returns its entry of `GRIDS`.
pub fn write(g: &GridKernel, out: &mut String) -> String {
    let t = g.ty.name();
    let dims = |s: &[usize]| {
        s.iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(", ")
    };
    let (xs, ys) = (dims(&g.x_shape), dims(&g.y_shape));
    let x_len: usize = g.x_shape.iter().product();
    // each element's bits, all NaNs alike
    let bits = match g.ty {
        DType::F32 | DType::F64 => "if v.is_nan() { u64::MAX } else { v.to_bits() as u64 }",
        DType::I32 | DType::I64 => "v as i64 as u64",
        _ => "v as u64",
    };
    let name = &g.name;
    let scalar = &g.scalar;
    let _ = writeln!(
        out,
        "/// Random grid kernel `{name}`.\n{}\n\
         /// Runs `{name}` on `dev`: x holds `(k % 11) - 5` at flat index `k`.\n\
         pub fn run_{name}(dev: &::silt::Device) -> crate::GridRun {{\n    \
             let data: ::std::vec::Vec<{t}> = (0..{x_len}i64).map(|k| (k % 11 - 5) as {t}).collect();\n    \
             let x = ::silt::TensorT::<{t}>::from_slice(dev, &data, [{xs}]).unwrap();\n    \
             let mut y = ::silt::TensorT::<{t}>::zeros(dev, [{ys}]).unwrap();\n    \
             let mut h = ::silt::TensorT::<u32>::zeros(dev, [{HIST}]).unwrap();\n    \
             let r = {name}::launch(::silt::Grid::over([{ys}]), &x, {scalar}, &mut y, &mut h);\n    \
             let y: ::std::vec::Vec<u64> = y.to_vec().unwrap().into_iter().map(|v| {bits}).collect();\n    \
             crate::GridRun::new(r, y, h.to_vec().unwrap())\n}}\n",
        g.text
    );
    format!(
        "crate::Grid {{ name: \"{name}\", may_overrun: {}, run: grids::run_{name} }}",
        g.may_overrun
    )
}
