//! The host path of `launch`: inputs read in place where possible, fresh
//! outputs and `&mut` arguments written in place where possible (else through
//! a copy written back), chunks run on rayon (on the calling thread up to
//! `HOST_SERIAL_MAX` elements), each element by the `eval` function.

use proc_macro2::TokenStream;
use quote::{format_ident, quote};

use super::sig::elem;
use crate::front::syntax::{Param, ParamKind, Signature};

/// The statements of the host path and the `Result` it returns; `eval_call`
/// is the element function. `given` names the output tensors of a
/// `launch_into` (written in place where possible, else through a buffer
/// stored back); `None` makes fresh outputs, as `launch` does.
pub(super) fn host_path(
    sig: &Signature,
    eval_call: &TokenStream,
    given: Option<&[syn::Ident]>,
    s: &TokenStream,
) -> (TokenStream, TokenStream) {
    let inputs: Vec<&Param> = sig
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::Input)
        .collect();
    let inouts: Vec<&Param> = sig
        .params
        .iter()
        .filter(|p| p.kind == ParamKind::InOut)
        .collect();
    let host_reads = inputs.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__v_{}", n);
        let sl = format_ident!("__s_{}", n);
        quote! {
            let #v = #s::__private::host_read(&__plan, #n)?;
            let #sl = &*#v;
        }
    });
    let inout_loads = inouts.iter().map(|p| {
        let n = &p.name;
        let v = format_ident!("__v_{}", n);
        quote!(let mut #v = #s::__private::host_inout(&__plan, &*#n)?;)
    });
    let n_out = sig.outputs.len();
    let out_ts: Vec<syn::Ident> = (0..n_out).map(|i| format_ident!("__t{}", i)).collect();
    let out_ws: Vec<syn::Ident> = (0..n_out).map(|i| format_ident!("__w{}", i)).collect();
    // the mutable buffers, zipped chunk by chunk: outputs, then `&mut` copies
    let mut mut_bufs: Vec<TokenStream> = out_ws.iter().map(|w| quote!(#w.as_mut_slice())).collect();
    mut_bufs.extend(inouts.iter().map(|p| {
        let v = format_ident!("__v_{}", p.name);
        quote!(#v.as_mut_slice())
    }));
    let chunks: Vec<syn::Ident> = (0..mut_bufs.len())
        .map(|i| format_ident!("__c{}", i))
        .collect();
    // the element types of the mutable buffers, in the same order
    let mut_tys: Vec<TokenStream> = sig
        .outputs
        .iter()
        .map(|(r, _)| elem(*r))
        .chain(inouts.iter().map(|p| elem(p.ty)))
        .collect();
    // the buffers zipped chunk by chunk, in parallel (rayon) and serially (on
    // the calling thread, for small launches), and the pattern and type of an
    // item
    let mut zipped = quote!();
    let mut serial = quote!();
    let mut pattern = quote!();
    let mut item_ty = quote!();
    // the whole buffers as one chunk, for launches of one chunk
    let mut whole = quote!();
    for (i, ((b, c), t)) in mut_bufs.iter().zip(&chunks).zip(&mut_tys).enumerate() {
        let par = quote!(#s::__private::rayon::slice::ParallelSliceMut::par_chunks_mut(#b, #s::__private::HOST_CHUNK));
        let ser = quote!(<[#t]>::chunks_mut(#b, #s::__private::HOST_CHUNK));
        if i == 0 {
            zipped = par;
            serial = ser;
            pattern = quote!(#c);
            item_ty = quote!(&mut [#t]);
            whole = quote!(#b);
        } else {
            zipped =
                quote!(#s::__private::rayon::iter::IndexedParallelIterator::zip(#zipped, #par));
            serial = quote!(::core::iter::Iterator::zip(#serial, #ser));
            pattern = quote!((#pattern, #c));
            item_ty = quote!((#item_ty, &mut [#t]));
            whole = quote!((#whole, #b));
        }
    }
    let host_args = sig.params.iter().map(|p| {
        let n = &p.name;
        match p.kind {
            ParamKind::Input => {
                let xl = format_ident!("__x_{}", n);
                quote!(#xl[__j])
            }
            ParamKind::InOut => {
                let pos = inouts.iter().position(|q| q.name == p.name).unwrap_or(0);
                let c = &chunks[n_out + pos];
                quote!(&mut #c[__j])
            }
            ParamKind::Scalar => quote!(#n),
            // a map's host path has no views (the checker keeps them to grids)
            ParamKind::Index | ParamKind::View(_) | ParamKind::ViewMut(_) => quote!(__i as u64),
        }
    });
    let call = quote!(#eval_call(#(#host_args),*));
    // the element's index, for an `#[index]` parameter
    let index_of = if sig.params.iter().any(|p| p.kind == ParamKind::Index) {
        quote!(let __i = __base + __j;)
    } else {
        quote!()
    };
    let chunk_inputs: Vec<syn::Ident> = inputs
        .iter()
        .map(|p| format_ident!("__x_{}", p.name))
        .collect();
    let input_slices: Vec<syn::Ident> = inputs
        .iter()
        .map(|p| format_ident!("__s_{}", p.name))
        .collect();
    let rs: Vec<syn::Ident> = (0..n_out).map(|i| format_ident!("__r{}", i)).collect();
    let out_chunks = &chunks[..n_out];
    let per_element = match n_out {
        0 => quote!(#call;),
        1 => {
            let c = &out_chunks[0];
            quote!(#c[__j] = #call;)
        }
        _ => quote! {
            let (#(#rs),*) = #call;
            #(#out_chunks[__j] = #rs;)*
        },
    };
    let Some(first) = chunks.first() else {
        // rejected before expansion (a kernel writes something)
        let error = quote!(::core::compile_error!("a kernel must write an output"););
        return (error, quote!(()));
    };
    let out_tys_host: Vec<TokenStream> = sig.outputs.iter().map(|(r, _)| elem(*r)).collect();
    // `&mut` arguments that went through a copy are stored once every lock is
    // released
    let inout_vs: Vec<syn::Ident> = inouts
        .iter()
        .map(|p| format_ident!("__v_{}", p.name))
        .collect();
    let backs: Vec<syn::Ident> = inouts
        .iter()
        .map(|p| format_ident!("__back_{}", p.name))
        .collect();
    let inout_names: Vec<&syn::Ident> = inouts.iter().map(|p| &p.name).collect();
    if let Some(given) = given {
        // the given outputs, taken after the inputs' reads (see `host_into`)
        // and stored back after every lock is released when they went through
        // a buffer
        let out_backs: Vec<syn::Ident> = (0..n_out)
            .map(|i| format_ident!("__back_out{}", i))
            .collect();
        let body = chunk_loop(
            &pattern,
            &item_ty,
            &whole,
            &serial,
            &zipped,
            first,
            &chunk_inputs,
            &input_slices,
            &index_of,
            &per_element,
            s,
        );
        let host = quote! {
            let (#(#out_backs,)* #(#backs,)*) = {
                #(#host_reads)*
                #(#inout_loads)*
                #(let mut #out_ws = #s::__private::host_into(&__plan, &*#given)?;)*
                #body
                (#(#out_ws.finish(),)* #(#inout_vs.finish(),)*)
            };
            #(
                if let ::core::option::Option::Some(__copy) = #out_backs {
                    #s::__private::store_host(#given, &__copy)?;
                }
            )*
            #(
                if let ::core::option::Option::Some(__copy) = #backs {
                    #s::__private::store_host(#inout_names, &__copy)?;
                }
            )*
        };
        return (host, quote!(::core::result::Result::Ok(())));
    }
    let body = chunk_loop(
        &pattern,
        &item_ty,
        &whole,
        &serial,
        &zipped,
        first,
        &chunk_inputs,
        &input_slices,
        &index_of,
        &per_element,
        s,
    );
    let host = quote! {
        // fresh outputs, written without a lock and made tensors once written
        #(let mut #out_ws = #s::__private::host_out::<#out_tys_host>(&__plan)?;)*
        let (#(#backs,)*) = {
            #(#host_reads)*
            #(#inout_loads)*
            #body
            (#(#inout_vs.finish(),)*)
        };
    };
    // one output and no `&mut` copy to store: the output is made in the
    // function's return slot (no move of the tensor through `?` and `Ok`)
    if n_out == 1 && inouts.is_empty() {
        let w = &out_ws[0];
        return (host, quote!(#w.into_tensor(&__plan)));
    }
    let host = quote! {
        #host
        #(let #out_ts = #out_ws.into_tensor(&__plan)?;)*
        #(
            if let ::core::option::Option::Some(__copy) = #backs {
                #s::__private::store_host(#inout_names, &__copy)?;
            }
        )*
    };
    let host_ret = match n_out {
        0 => quote!(()),
        1 => {
            let t = &out_ts[0];
            quote!(#t)
        }
        _ => quote!((#(#out_ts),*)),
    };
    (host, quote!(::core::result::Result::Ok(#host_ret)))
}

/// The loop over the launch's chunks: one chunk called directly, more on the
/// calling thread up to
/// `HOST_SERIAL_MAX` elements, else on rayon's threads; each chunk's element
/// loop compiled for AVX2 where the CPU has it.
#[allow(clippy::too_many_arguments)]
fn chunk_loop(
    pattern: &TokenStream,
    item_ty: &TokenStream,
    whole: &TokenStream,
    serial: &TokenStream,
    zipped: &TokenStream,
    first: &syn::Ident,
    chunk_inputs: &[syn::Ident],
    input_slices: &[syn::Ident],
    index_of: &TokenStream,
    per_element: &TokenStream,
    s: &TokenStream,
) -> TokenStream {
    quote! {
        let __chunk = |(__k, #pattern): (usize, #item_ty)| {
            let __base = __k * #s::__private::HOST_CHUNK;
            // each input's elements of this chunk: indexed like the
            // chunk, so the bounds checks fold away
            #(let #chunk_inputs = &#input_slices[__base..__base + #first.len()];)*
            // vectorized for AVX2 where the CPU has it
            #s::__private::host_simd(|| {
                for __j in 0..#first.len() {
                    #index_of
                    #per_element
                }
            });
        };
        if __plan.len() <= #s::__private::HOST_CHUNK {
            // one chunk: the buffers whole, no iterator
            __chunk((0, #whole));
        } else if __plan.len() <= #s::__private::HOST_SERIAL_MAX {
            // small: on the calling thread, without waking rayon's
            ::core::iter::Iterator::for_each(::core::iter::Iterator::enumerate(#serial), &__chunk);
        } else {
            #s::__private::rayon::iter::ParallelIterator::for_each(
                #s::__private::rayon::iter::IndexedParallelIterator::enumerate(#zipped),
                &__chunk,
            );
        }
    }
}
