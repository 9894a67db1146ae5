//! The pipeline of one kernel, from tokens to checked instantiations:
//! [`front`] (attribute and function lowered into the syntax tree), the
//! signature rules, [`check`] (types, for each listed type, with the helpers
//! it calls) and definite assignment. Backends take the checked instantiations
//! from here ([`Instance::opencl`] runs the OpenCL one).

use proc_macro2::TokenStream;
use quote::quote;

use crate::back::opencl;
use crate::check;
use crate::errors::Errors;
use crate::front::reduce::ReduceModule;
use crate::front::syntax::{ParamKind, Signature};
use crate::front::{self, attr, ident_name};
use crate::ir;
use silt_abi::DType;

/// One instantiation of a kernel.
#[derive(Debug, Clone)]
pub struct Instance {
    /// The type of the generic parameter (`None` for a non-generic kernel).
    pub ty: Option<DType>,
    /// The typed IR.
    pub kernel: ir::Kernel,
    /// Whether the kernel computes in `f64` (OpenCL devices need `cl_khr_fp64`).
    pub uses_f64: bool,
    /// Where the type is listed in `types`.
    pub ty_span: proc_macro2::Span,
}

impl Instance {
    /// The OpenCL C program of this instantiation alone (what `NAME::source`
    /// returns for its type).
    pub fn opencl(&self) -> String {
        opencl::emit(&self.kernel)
    }
}

/// A kernel that passed every check.
#[derive(Debug, Clone)]
pub struct Compiled {
    /// The signature.
    pub sig: Signature,
    /// One entry per listed type (or one for a non-generic kernel).
    pub instances: Vec<Instance>,
    /// The crate path generated code uses (`::silt` unless `crate = ...`).
    pub krate: TokenStream,
}

/// Parses, checks and lowers a kernel; all errors at once, spanned.
///
/// # Errors
/// Every problem found, combined into one `syn::Error`, and the signature when it
/// could be read (so that a placeholder module can be generated).
pub fn compile(
    attr: TokenStream,
    item: TokenStream,
) -> Result<Compiled, (syn::Error, Option<Box<Signature>>)> {
    compile_with(attr, item, &[])
}

/// [`compile`] with the `#[helper]` functions the kernel (and its helpers) call.
///
/// # Errors
/// As [`compile`].
pub fn compile_with(
    attr: TokenStream,
    item: TokenStream,
    helpers: &[check::HelperDef],
) -> Result<Compiled, (syn::Error, Option<Box<Signature>>)> {
    compile_function(attr, item, helpers, false)
}

/// Parses, checks and lowers a `#[grid]` kernel, with the `#[helper]`
/// functions it calls; all errors at once, spanned.
///
/// # Errors
/// As [`compile`].
pub fn compile_grid_with(
    attr: TokenStream,
    item: TokenStream,
    helpers: &[check::HelperDef],
) -> Result<Compiled, (syn::Error, Option<Box<Signature>>)> {
    compile_function(attr, item, helpers, true)
}

/// A `#[kernel]`, or with `grid` a `#[grid]` kernel.
fn compile_function(
    attr: TokenStream,
    item: TokenStream,
    helpers: &[check::HelperDef],
    grid: bool,
) -> Result<Compiled, (syn::Error, Option<Box<Signature>>)> {
    let mut errors = Errors::default();
    let opts = attr::parse(attr, &mut errors);
    if let Some((_, span)) = opts.empty {
        errors.push(
            span,
            "`empty` is an option of `#[reduce]`: a kernel has a value for every element",
        );
    }
    let entry = if grid {
        grid_entry(&opts, &mut errors)
    } else {
        for span in [opts.group.as_ref().map(|g| g.1), opts.unchecked]
            .into_iter()
            .flatten()
        {
            errors.push(
                span,
                "this is an option of `#[grid]` kernels: a `#[kernel]` runs one work-item per element",
            );
        }
        ir::Entry::Map
    };
    let attr_ok = errors.is_empty();
    let func: syn::ItemFn = match syn::parse2(item) {
        Ok(f) => f,
        Err(e) => {
            errors.push(e.span(), format!("`#[kernel]` goes on a function: {e}"));
            return Err((combine(errors), None));
        }
    };
    let sig = front::signature(&func, &mut errors);
    let body = front::block(
        &func.block,
        sig.as_ref().and_then(|s| s.generic.as_ref()),
        &mut errors,
    );
    let Some(sig) = sig else {
        return Err((combine(errors), None));
    };
    if sig.complete {
        check_types_option(&sig, &opts, attr_ok, &mut errors);
        if grid {
            check_grid_signature(&sig, &mut errors);
        } else {
            check_signature(&sig, &mut errors);
        }
        check_param_names(&sig, &mut errors);
    }
    let types: Vec<(Option<DType>, proc_macro2::Span)> = match (&sig.generic, &opts.types) {
        (Some(_), Some((list, _))) => list.iter().map(|(t, s)| (Some(*t), *s)).collect(),
        (None, None) => vec![(None, sig.name.span())],
        _ => Vec::new(),
    };
    let mut instances = Vec::new();
    if errors.is_empty() {
        for (ty, ty_span) in types {
            let before = errors.len();
            let Some(mut kernel) = check::check_kernel(&sig, &body, ty, helpers, &mut errors)
            else {
                continue;
            };
            kernel.entry = entry.clone();
            // definite assignment, once the types are right: the helpers', then
            // the kernel's if theirs passed
            for h in &kernel.helpers {
                check::definite_init::check(&h.func, &mut errors);
            }
            if errors.len() == before {
                check::definite_init::check(&kernel.func, &mut errors);
            }
            if grid && errors.len() == before {
                check::uniform::check(&kernel.func, &mut errors);
            }
            if errors.len() == before {
                let uses_f64 = kernel.uses(DType::F64);
                instances.push(Instance {
                    ty,
                    kernel,
                    uses_f64,
                    ty_span,
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err((combine(errors), Some(Box::new(sig))));
    }
    let krate = match opts.krate {
        Some(p) => quote!(#p),
        None => quote!(::silt),
    };
    Ok(Compiled {
        sig,
        instances,
        krate,
    })
}

fn combine(errors: Errors) -> syn::Error {
    errors
        .combine()
        .unwrap_or_else(|| syn::Error::new(proc_macro2::Span::call_site(), "invalid kernel"))
}

/// `#[grid]`'s launch form: its `group` (required) and `unchecked`.
fn grid_entry(opts: &attr::Options, errors: &mut Errors) -> ir::Entry {
    let group = match &opts.group {
        Some((g, _)) => g.clone(),
        None => {
            errors.push(
                proc_macro2::Span::call_site(),
                "a grid kernel needs the shape of its work-groups: `#[grid(group = [256])]` (1 to 3 sizes; `Grid::over` gives as many)",
            );
            vec![1]
        }
    };
    ir::Entry::Grid(ir::Grid {
        group,
        unchecked: opts.unchecked.is_some(),
    })
}

/// `types` and the generic parameter go together.
fn check_types_option(sig: &Signature, opts: &attr::Options, attr_ok: bool, errors: &mut Errors) {
    match (&sig.generic, &opts.types) {
        (Some(g), None) if attr_ok => errors.push(
            g.span(),
            format!(
                "a generic kernel needs `types`: write `#[kernel(types = [f32, f64])]`; `{g}` stands for each of them"
            ),
        ),
        (None, Some((_, span))) => errors.push(
            *span,
            "`types` needs a generic parameter: write `fn name<T>(...)`, or drop `types` for a kernel of fixed types",
        ),
        _ => {}
    }
}

/// A `#[kernel]`'s parameters and results.
fn check_signature(sig: &Signature, errors: &mut Errors) {
    for p in &sig.params {
        if p.kind.rank().is_some() {
            errors.push(
                p.ty_span,
                "views are parameters of `#[grid]` kernels; a `#[kernel]` takes one element of each tensor (`x: T`, `y: &mut T`)",
            );
        }
    }
    if !sig.params.iter().any(|p| {
        matches!(
            p.kind,
            ParamKind::Input | ParamKind::InOut | ParamKind::View(_) | ParamKind::ViewMut(_)
        )
    }) {
        errors.push(
            sig.name.span(),
            "a kernel needs at least one tensor parameter (`x: T` or `y: &mut T`): its shape and device come from the tensors",
        );
    }
    if sig
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Index)
        .count()
        > 1
    {
        errors.push(
            sig.name.span(),
            "a kernel takes at most one `#[index]` parameter",
        );
    }
    if sig.outputs.is_empty() && !sig.params.iter().any(|p| p.kind == ParamKind::InOut) {
        errors.push(
            sig.name.span(),
            "a kernel without a return value must write a `&mut` parameter, or it has no effect",
        );
    }
}

/// A `#[grid]` kernel's parameters: views and `#[scalar]`s, no results.
fn check_grid_signature(sig: &Signature, errors: &mut Errors) {
    for p in &sig.params {
        if !matches!(
            p.kind,
            ParamKind::View(_) | ParamKind::ViewMut(_) | ParamKind::Scalar
        ) {
            errors.push(
                p.ty_span,
                "a grid kernel takes views (`a: View<T, N>` to read, `c: ViewMut<T, N>` to write) and `#[scalar]`s",
            );
        }
    }
    if !sig.params.iter().any(|p| p.kind.rank().is_some()) {
        errors.push(
            sig.name.span(),
            "a grid kernel needs at least one view (`a: View<T, N>` or `c: ViewMut<T, N>`): its device comes from the tensors",
        );
    }
    if let Some((_, span)) = sig.outputs.first() {
        errors.push(
            *span,
            "a grid kernel returns nothing: it writes its `ViewMut`s",
        );
    }
}

/// Parameter names: each once, none reserved for generated code.
fn check_param_names(sig: &Signature, errors: &mut Errors) {
    let mut seen: Vec<String> = Vec::new();
    for p in &sig.params {
        let n = ident_name(&p.name);
        if seen.contains(&n) {
            errors.push(p.name.span(), format!("parameter `{n}` is declared twice"));
        }
        if n.starts_with("__") {
            errors.push(
                p.name.span(),
                "parameter names starting with `__` are reserved for generated code",
            );
        }
        if n == "NAME" || n == "TYPES" {
            errors.push(
                p.name.span(),
                format!(
                    "`{n}` is a constant of the generated module: give the parameter another name"
                ),
            );
        }
        seen.push(n);
    }
}

/// What a `#[reduce]` or `#[scan]` module computes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FoldForm {
    /// A reduction along axes (`#[reduce]`).
    Reduce {
        /// Whether a reduction over no elements is an error (`empty = error`).
        empty_is_error: bool,
    },
    /// A scan along an axis (`#[scan]`).
    Scan,
}

/// A reduction or scan that passed every check.
#[derive(Debug, Clone)]
pub struct CompiledReduce {
    /// Its functions as written (`map` and `finish` written in when missing).
    pub module: ReduceModule,
    /// One entry per listed type (or one for a reduction without `types`).
    pub instances: Vec<Instance>,
    /// What the module computes.
    pub form: FoldForm,
    /// The crate path generated code uses (`::silt` unless `crate = ...`).
    pub krate: TokenStream,
}

/// Parses and checks a `#[reduce]` module for each listed type; all errors at
/// once, spanned.
///
/// # Errors
/// Every problem found, and the module's name and visibility when they could
/// be read (for a placeholder module).
pub fn compile_reduce(
    attr: TokenStream,
    item: TokenStream,
) -> Result<CompiledReduce, (syn::Error, Option<(syn::Visibility, syn::Ident)>)> {
    compile_module_with(attr, item, false, &[])
}

/// Parses and checks a `#[scan]` module for each listed type, as
/// [`compile_reduce`].
///
/// # Errors
/// As [`compile_reduce`].
pub fn compile_scan(
    attr: TokenStream,
    item: TokenStream,
) -> Result<CompiledReduce, (syn::Error, Option<(syn::Visibility, syn::Ident)>)> {
    compile_module_with(attr, item, true, &[])
}

/// [`compile_reduce`] (or, with `scan`, [`compile_scan`]) with the `#[helper]`
/// functions the module's functions (and their helpers) call.
///
/// # Errors
/// As [`compile_reduce`].
pub fn compile_module_with(
    attr: TokenStream,
    item: TokenStream,
    scan: bool,
    helpers: &[check::HelperDef],
) -> Result<CompiledReduce, (syn::Error, Option<(syn::Visibility, syn::Ident)>)> {
    let mut errors = Errors::default();
    let opts = attr::parse(attr, &mut errors);
    if let (true, Some((_, span))) = (scan, opts.empty) {
        errors.push(
            span,
            "`empty` is an option of `#[reduce]`: a scan of no elements has no outputs",
        );
    }
    let what = if scan { "scan" } else { "reduce" };
    let Some(mut m) = front::reduce::module_of_parts(item, what, &mut errors) else {
        return Err((combine(errors), None));
    };
    let placeholder = Some((m.vis.clone(), m.name.clone()));
    if !errors.is_empty() {
        return Err((combine(errors), placeholder));
    }
    check::reduce::complete(&mut m, &mut errors);
    let parts = [&m.identity, &m.map, &m.combine, &m.finish];
    let generic = parts
        .iter()
        .filter_map(|p| p.as_ref())
        .find_map(|p| p.sig.generic.as_ref());
    let types: Vec<(Option<DType>, proc_macro2::Span)> = match (generic, &opts.types) {
        (Some(_), Some((list, _))) => list.iter().map(|(t, s)| (Some(*t), *s)).collect(),
        (None, None) => vec![(None, m.name.span())],
        (Some(g), None) => {
            errors.push(
                g.span(),
                format!("a generic reduction needs `types`: write `#[reduce(types = [f32, f64])]`; `{g}` stands for each of them"),
            );
            Vec::new()
        }
        (None, Some((_, span))) => {
            errors.push(
                *span,
                "`types` needs a generic parameter: write `fn identity<T>() -> T`, or drop `types` for a reduction of fixed types",
            );
            Vec::new()
        }
    };
    let form = if scan {
        FoldForm::Scan
    } else {
        FoldForm::Reduce {
            empty_is_error: matches!(opts.empty, Some((attr::EmptyRows::Error, _))),
        }
    };
    let mut instances = Vec::new();
    if errors.is_empty() {
        for (ty, ty_span) in types {
            if let Some(kernel) = check::reduce::instantiate(&m, ty, scan, helpers, &mut errors) {
                let uses_f64 = kernel.uses(DType::F64);
                instances.push(Instance {
                    ty,
                    kernel,
                    uses_f64,
                    ty_span,
                });
            }
        }
    }
    if !errors.is_empty() {
        return Err((combine(errors), placeholder));
    }
    let krate = match opts.krate {
        Some(p) => quote!(#p),
        None => quote!(::silt),
    };
    Ok(CompiledReduce {
        module: m,
        instances,
        form,
        krate,
    })
}
