//! The library as a whole: every operation the crate links is in its catalogue
//! (`silt_kernels::catalog`, the one list of operations these tests read), a
//! snapshot of every operation's OpenCL C (all its types in one file), every
//! program built by the device, and `dispatch` called once per listed dtype and
//! once with a dtype outside the list.

mod harness;

use silt::prelude::*;
use silt_kernels as k;
use silt_kernels::catalog::OPERATIONS;

#[test]
fn the_library_has_every_operation_of_the_issue() {
    assert_eq!(OPERATIONS.len(), 178);
    let mut names: Vec<&str> = OPERATIONS.iter().map(|o| o.name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(names.len(), OPERATIONS.len(), "a name twice");
}

/// The entry point names (`add_f32`, `sum_float_f32_reduce`) of a program
/// (`__kernel void NAME(`, attributes between `__kernel` and `void` allowed).
fn entries_of(source: &str) -> Vec<String> {
    source
        .split("__kernel")
        .skip(1)
        .filter_map(|rest| {
            let after = &rest[rest.find("void ")? + 5..];
            Some(after.split('(').next()?.trim().to_string())
        })
        .collect()
}

/// The entry point names of every kernel linked into this binary (only
/// silt-kernels' kernels are), from their programs.
fn linked_entries() -> Vec<String> {
    let mut out: Vec<String> = silt::__private::PROGRAMS
        .iter()
        .flat_map(|p| entries_of(p.source()))
        .collect();
    out.sort();
    out.dedup();
    out
}

#[test]
fn the_catalogue_lists_every_operation_with_its_sources() {
    // every instantiation of the crate belongs to an operation of the catalogue:
    // its entry points are in the program of one of the operation's instantiations
    let mut listed: Vec<String> = Vec::new();
    for op in OPERATIONS {
        for info in (op.infos_fn)() {
            listed.extend(entries_of(info.source()));
        }
    }
    let linked = linked_entries();
    assert!(linked.len() > 400, "{} entry points", linked.len());
    for e in &linked {
        assert!(
            listed.contains(e),
            "`{e}` is linked but not in the catalogue"
        );
    }
    for entry in OPERATIONS {
        let name = entry.name;
        assert!(!entry.group.is_empty(), "{name}");
        assert!(std::ptr::eq(k::catalog::find(name).unwrap(), entry));
        // one launch description per instantiation (the operations made of
        // several launches describe every part)
        let infos = (entry.infos_fn)().len();
        if matches!(
            name,
            "var"
                | "std"
                | "norm"
                | "logsumexp"
                | "softmax"
                | "log_softmax"
                | "layer_norm"
                | "rms_norm"
                | "sort"
                | "argsort"
                | "topk"
                | "bincount"
                | "index_select"
                | "gather"
                | "take"
                | "scatter_add"
                | "lu_factor"
                | "eigh"
                | "svd"
        ) {
            assert!(infos > entry.types.len(), "{name}");
        } else {
            assert_eq!(infos, entry.types.len().max(1), "{name}");
        }
        let sources = entry.sources();
        if entry.types.is_empty() {
            assert!(!entry.is_generic());
            let src = (entry.source_fn)(DType::Bool).unwrap();
            assert!(!src.trim().is_empty(), "{name}");
            assert_eq!(sources, [(None, src)], "{name}");
            continue;
        }
        assert_eq!(sources.len(), entry.types.len(), "{name}");
        for (&d, &(sd, src)) in entry.types.iter().zip(&sources) {
            assert_eq!(sd, Some(d));
            let entry_point = match entry.kind {
                k::catalog::Kind::Elementwise => format!("__kernel void {name}_{d}("),
                _ => "__kernel".to_string(),
            };
            assert!(src.contains(&entry_point), "{name} for {d}:\n{src}");
            assert_eq!(entry.source(d), Some(src));
            assert_eq!((entry.source_fn)(d), Some(src), "{name} for {d}");
        }
        // a dtype outside the list has no source
        if let Some(&d) = DType::ALL.iter().find(|d| !entry.types.contains(d)) {
            assert_eq!(entry.source(d), None, "{name} for {d}");
        }
    }
    assert!(k::catalog::find("no_such_op").is_none());
}

#[test]
fn snapshot_of_every_operation() {
    for op in OPERATIONS {
        let mut text = String::new();
        if op.types.is_empty() {
            text.push_str((op.source_fn)(DType::Bool).unwrap_or_default());
        }
        for &d in op.types {
            let src = (op.source_fn)(d).unwrap_or_else(|| panic!("{}: no source for {d}", op.name));
            text.push_str(&format!("/* ===== {} for {d} ===== */\n{src}\n", op.name));
        }
        insta::assert_snapshot!(op.name, text);
    }
}

#[test]
fn the_device_builds_every_program() {
    let Some(cl) = harness::common::opencl() else {
        return;
    };
    let start = std::time::Instant::now();
    let before = cl.programs_built();
    let mut n = 0usize;
    for op in OPERATIONS {
        for info in (op.infos_fn)() {
            if let Err(e) = silt::__private::build(info, &cl) {
                panic!("{}: {e}", op.name);
            }
            n += 1;
        }
    }
    let programs = cl.programs_built() - before;
    eprintln!(
        "built the {n} instantiations in {programs} programs in {:.1} s",
        start.elapsed().as_secs_f64()
    );
    assert!(n > 400, "{n}");
    // the crate's kernels in programs of up to 12 instantiations (f64 ones
    // apart), packed in order: about one program per 10 instantiations (other
    // tests of this binary build only programs of the same crate)
    assert!(programs <= n.div_ceil(12) + 12, "{programs} programs");
}

/// Calls `dispatch` with zero-filled tensors of `dtype` (and `bool` conditions).
fn dispatch(name: &str, dev: &Device, dtype: DType) -> silt::Result<Vec<Tensor>> {
    let t = || Tensor::zeros(dev, dtype, [5]).unwrap();
    let b = || Tensor::zeros(dev, DType::Bool, [5]).unwrap();
    let idx = || Tensor::zeros(dev, DType::I64, [5]).unwrap();
    let one = |r: silt::Result<Tensor>| r.map(|t| vec![t]);
    macro_rules! un {
        ($($op:ident),*) => {
            match name {
                $(stringify!($op) => return one(k::$op::dispatch(&t())),)*
                _ => {}
            }
        };
    }
    macro_rules! bin {
        ($($op:ident),*) => {
            match name {
                $(stringify!($op) => return one(k::$op::dispatch(&t(), &t())),)*
                _ => {}
            }
        };
    }
    k::unary_operations!(un);
    k::binary_operations!(bin);
    // reductions over no axis and scans keep the shape [5]
    let none = || silt::Axes::of([]);
    macro_rules! red {
        ($($op:ident),*) => {
            match name {
                $(stringify!($op) => return one(k::$op::dispatch(&t(), none())),)*
                _ => {}
            }
        };
    }
    k::reduction_operations!(red);
    let two = |r: silt::Result<(Tensor, Tensor)>| r.map(|(a, b)| vec![a, b]);
    let mut out = t();
    match name {
        "var" => return one(k::var::dispatch(&t(), 1.0, none())),
        "std" => return one(k::std::dispatch(&t(), 0.0, none())),
        "norm" => return one(k::norm::dispatch(&t(), 2.0, none())),
        "softmax" => return one(k::softmax::dispatch(&t(), 0)),
        "log_softmax" => return one(k::log_softmax::dispatch(&t(), -1)),
        "cumsum" => return one(k::cumsum::dispatch(&t(), 0)),
        "cumprod" => return one(k::cumprod::dispatch(&t(), 0)),
        "cummax" => return two(k::cummax::dispatch(&t(), 0)),
        "cummin" => return two(k::cummin::dispatch(&t(), -1)),
        "logcumsumexp" => return one(k::logcumsumexp::dispatch(&t(), 0)),
        "layer_norm" => return one(k::layer_norm::dispatch(&t(), &[5], None, None, 1e-5)),
        "rms_norm" => return one(k::rms_norm::dispatch(&t(), &[5], None, None)),
        // a row times a [5, 5] matrix
        "matmul" => {
            let m = Tensor::zeros(dev, dtype, [5, 5]).unwrap();
            return one(k::matmul::dispatch(&t(), &m));
        }
        "sort" => return two(k::sort::dispatch(&t(), 0, false)),
        "argsort" => return one(k::argsort::dispatch(&t(), -1, true)),
        "topk" => return two(k::topk::dispatch(&t(), 5, 0, true, true)),
        "searchsorted" => return one(k::searchsorted::dispatch(&t(), &t(), false, None)),
        // indices 0, and `scatter_add`'s `src` of the input's dtype
        "index_select" => return one(k::index_select::dispatch(&t(), 0, &idx())),
        "gather" => return one(k::gather::dispatch(&t(), 0, &idx())),
        "scatter_add" => return one(k::scatter_add::dispatch(&t(), 0, &idx(), &t())),
        "scatter_reduce" => {
            let amax = k::scatter_reduce::Reduce::Amax;
            return one(k::scatter_reduce::dispatch(
                &t(),
                0,
                &idx(),
                &t(),
                amax,
                false,
            ));
        }
        "take" => return one(k::take::dispatch(&t(), &idx())),
        // one row of 5 (its LU is itself); a 1 x 1 LU solving 5 columns
        "lu_factor" => {
            let (lu, piv) = k::lu_factor::dispatch(&t().reshape([1, 5]).unwrap())?;
            assert_eq!(piv.to_vec::<i32>().unwrap(), [1]);
            return one(lu.reshape([5]));
        }
        // five 1 x 1 matrices: their eigenvalues and eigenvectors, reshaped to [5]
        "eigh" => {
            let (w, v) = k::eigh::dispatch(&t().reshape([5, 1, 1]).unwrap())?;
            return Ok(vec![w.reshape([5])?, v.reshape([5])?]);
        }
        "svd" => {
            let (u, s, vh) = k::svd::dispatch(&t().reshape([5, 1, 1]).unwrap())?;
            return Ok(vec![u.reshape([5])?, s.reshape([5])?, vh.reshape([5])?]);
        }
        "geqrf" => {
            let (r, tau) = k::geqrf::dispatch(&t().reshape([5, 1, 1]).unwrap())?;
            return Ok(vec![r.reshape([5])?, tau.reshape([5])?]);
        }
        "householder_product" => {
            let q = k::householder_product::dispatch(
                &t().reshape([5, 1, 1]).unwrap(),
                &t().reshape([5, 1]).unwrap(),
            )?;
            return one(q.reshape([5]));
        }
        "cholesky_ex" => {
            let (l, info) = k::cholesky_ex::dispatch(&t().reshape([5, 1, 1]).unwrap())?;
            assert_eq!(info.to_vec::<i32>().unwrap(), [1; 5]); // zeros: not positive-definite
            return one(l.reshape([5]));
        }
        "solve_triangular" => {
            let a = t().narrow(0, 0, 1).unwrap().reshape([1, 1]).unwrap();
            return one(k::solve_triangular::dispatch(
                &a,
                &t().reshape([1, 5]).unwrap(),
                true,
                true,
            )?
            .reshape([5]));
        }
        "ldl_factor" => {
            let (ld, piv, info) = k::ldl_factor::dispatch(&t().reshape([5, 1, 1]).unwrap())?;
            assert_eq!(piv.to_vec::<i32>().unwrap(), [1; 5]);
            assert_eq!(info.to_vec::<i32>().unwrap(), [1; 5]); // zeros: D is singular
            return one(ld.reshape([5]));
        }
        "ldl_solve" => {
            let piv = Tensor::from(silt::TensorT::from_slice(dev, &[1i32], [1]).unwrap());
            let x = k::ldl_solve::dispatch(
                &t().narrow(0, 0, 1).unwrap().reshape([1, 1]).unwrap(),
                &piv,
                &t().reshape([1, 5]).unwrap(),
            )?;
            return one(x.reshape([5]));
        }
        "lu_solve" => {
            let piv = Tensor::from(silt::TensorT::from_slice(dev, &[1i32], [1]).unwrap());
            let x = k::lu_solve::dispatch(
                &t().narrow(0, 0, 1).unwrap().reshape([1, 1]).unwrap(),
                &piv,
                &t().reshape([1, 5]).unwrap(),
                false,
            )?;
            return one(x.reshape([5]));
        }
        // zeros: one bin, then five
        "bincount" => return one(k::bincount::dispatch(&t(), None, 5)),
        "histc" => return one(k::histc::dispatch(&t(), 5, 0.0, 0.0)),
        _ => {}
    }
    match name {
        "set" => k::set::dispatch(one_of(dtype), &mut out).map(|()| vec![out]),
        "copy" => k::copy::dispatch(&t(), &mut out).map(|()| vec![out]),
        "where_" => one(k::where_::dispatch(&b(), &t(), &t())),
        "clamp" => one(k::clamp::dispatch(&t(), 0u8, 1u8)),
        "lerp" => one(k::lerp::dispatch(&t(), &t(), 0.5f32)),
        "addcmul" => one(k::addcmul::dispatch(&t(), &t(), &t(), 1u8)),
        "leaky_relu" => one(k::leaky_relu::dispatch(&t(), 0.1f32)),
        "elu" => one(k::elu::dispatch(&t(), 1.0f32)),
        "hardtanh" => one(k::hardtanh::dispatch(&t(), -1.0f32, 1.0f32)),
        "axpy" => k::axpy::dispatch(2.0f32, &t(), &mut out).map(|()| vec![out]),
        "scale_" => k::scale_::dispatch(2.0f32, &mut out).map(|()| vec![out]),
        "add_" => k::add_::dispatch(&mut out, &t()).map(|()| vec![out]),
        other => panic!("no dispatch call written for {other}"),
    }
}

/// The value 1 as a scalar of `dtype`.
fn one_of(dtype: DType) -> Scalar {
    match dtype {
        DType::Bool => Scalar::Bool(true),
        DType::F16 => Scalar::F16(silt::f16::ONE),
        DType::F32 => Scalar::F32(1.0),
        DType::F64 => Scalar::F64(1.0),
        _ => Scalar::U8(1),
    }
}

#[test]
fn dispatch_once_per_dtype_and_once_outside() {
    for dev in harness::common::devices() {
        for op in OPERATIONS {
            let listed: Vec<DType> = if op.types.is_empty() {
                vec![DType::Bool]
            } else {
                op.types.to_vec()
            };
            for &d in &listed {
                let out = dispatch(op.name, &dev, d)
                    .unwrap_or_else(|e| panic!("{} for {d} on {dev}: {e}", op.name));
                assert!(out.iter().all(|t| t.shape() == [5]), "{}", op.name);
            }
            // a dtype outside the list (`where_` and `copy` take every dtype)
            let Some(outside) = DType::ALL.into_iter().find(|d| !listed.contains(d)) else {
                continue;
            };
            match dispatch(op.name, &dev, outside) {
                Err(Error::UnsupportedDType { kernel, dtype, .. }) => {
                    assert_eq!((kernel, dtype), (op.name, outside));
                }
                Err(Error::DTypeMismatch { got, .. }) if op.types.is_empty() => {
                    assert_eq!(got, outside)
                }
                other => panic!(
                    "{} with {outside}: expected an unsupported-dtype error, got {other:?}",
                    op.name
                ),
            }
        }
    }
}
