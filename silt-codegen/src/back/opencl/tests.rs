//! Unit tests of the OpenCL backend: the map entry template against the launch
//! ABI, the `f64` pragma, and the text of one program.

use quote::quote;
use silt_abi::opencl::{map_args, MapArg, Pass};

use crate::ir::ParamKind;
use silt_abi::DType;

fn compiled(attr: proc_macro2::TokenStream, item: proc_macro2::TokenStream) -> crate::Compiled {
    crate::compile(attr, item).unwrap_or_else(|(e, _)| panic!("rejected: {e}"))
}

/// The parameter list of the entry point `name` in `program`, one per argument.
fn entry_params<'a>(program: &'a str, name: &str) -> Vec<&'a str> {
    let head = format!("__kernel void {name}(");
    let start = program.find(&head).unwrap() + head.len();
    let end = start + program[start..].find(") {").unwrap();
    program[start..end].split(',').map(str::trim).collect()
}

#[test]
fn entry_points_declare_the_arguments_of_the_abi_in_its_order() {
    let c = compiled(
        quote!(),
        quote! {
            fn k(#[scalar] a: f32, #[index] i: u64, x: f16, y: &mut i8) -> (f32, bool) {
                *y = *y + 1;
                (a + (i as f32), x > x)
            }
        },
    );
    let inst = &c.instances[0];
    let f = &inst.kernel.func;
    let pass: Vec<Pass> = f
        .params
        .iter()
        .map(|p| match p.kind {
            ParamKind::Input | ParamKind::InOut | ParamKind::View(_) | ParamKind::ViewMut(_) => {
                Pass::Tensor
            }
            ParamKind::Scalar => Pass::Scalar,
            ParamKind::Index => Pass::Index,
        })
        .collect();
    for (name, strided) in [
        (super::entry_name(f), false),
        (super::strided3_entry_name(f), true),
        (super::strided_entry_name(f), true),
    ] {
        let text = inst.opencl();
        let declared = entry_params(&text, &name);
        let abi: Vec<MapArg> = map_args(pass.iter().copied(), f.outputs.len(), strided).collect();
        assert_eq!(declared.len(), abi.len(), "{declared:?}");
        for (d, a) in declared.iter().zip(&abi) {
            let want = match a {
                MapArg::Scalar { .. } => "float a",
                MapArg::Buffer { param: 2 } => "__global const ushort* x",
                MapArg::Buffer { .. } => "__global char* y",
                MapArg::Offset { param: 2 } => "ulong silt_off_x",
                MapArg::Offset { .. } => "ulong silt_off_y",
                MapArg::Strides { param: 2, .. } => "ulong16 silt_st_x",
                MapArg::Strides { .. } => "ulong16 silt_st_y",
                MapArg::Output { output: 0 } => "__global float* silt_out0",
                MapArg::Output { .. } => "__global uchar* silt_out1",
                MapArg::Shape => "ulong16 silt_shape",
                MapArg::Ndim => "uint silt_ndim",
                MapArg::Len => "ulong silt_n",
            };
            assert_eq!(d, &want, "{a:?} in {name}");
        }
    }
}

#[test]
fn the_f64_pragma_follows_the_ir() {
    for (body, f64) in [
        (quote!(x + x), false),
        (quote!(((x as f64) * 0.5) as f32), true),
        (quote!(let big = 1.0e300; x), true),
    ] {
        let c = compiled(quote!(), quote!(fn k(x: f32) -> f32 { #body }));
        let inst = &c.instances[0];
        assert_eq!(inst.kernel.uses(DType::F64), f64, "{body}");
        assert_eq!(inst.uses_f64, f64);
        assert_eq!(
            inst.opencl().contains("cl_khr_fp64"),
            f64,
            "{}",
            inst.opencl()
        );
    }
}

#[test]
fn a_map_program() {
    let c = compiled(
        quote!(types = [f32]),
        quote! {
            fn scaled<T>(#[scalar] a: T, x: T, y: &mut T) -> T {
                *y = a * x + *y;
                x.max(*y)
            }
        },
    );
    insta::assert_snapshot!(c.instances[0].opencl());
}
