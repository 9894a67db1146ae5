//! Running the macro the way rustc does, and the properties every run must have.

use proc_macro2::{Delimiter, Span, TokenStream, TokenTree};

/// What one expansion produced.
#[derive(Debug, Default)]
pub struct Expansion {
    /// The `compile_error!`s, with the span each points at.
    pub errors: Vec<(String, Span)>,
    /// Every OpenCL C program embedded in the output (each kernel's program of
    /// each precision, laid out from its pieces as the runtime lays it out),
    /// without repeats.
    pub programs: Vec<String>,
    /// The unexpanded call of the next helper's macro, if the output is one.
    pub next_helper: Option<(syn::Path, TokenStream)>,
    /// A helper path that names nothing (rustc would report it).
    pub unresolved: bool,
}

impl Expansion {
    /// Whether the macro accepted its input (no error at all).
    pub fn accepted(&self) -> bool {
        self.errors.is_empty() && self.next_helper.is_none() && !self.unresolved
    }
}

/// Reads an expansion: its errors, programs and helper request.
///
/// # Panics
/// When the output is not valid Rust syntax (a bug in the generator).
pub fn scan(out: &TokenStream) -> Expansion {
    let mut e = Expansion::default();
    if let Some(req) = helper_request(out) {
        e.next_helper = Some(req);
        return e;
    }
    if let Err(err) = syn::parse2::<syn::File>(out.clone()) {
        panic!("the expansion is not valid Rust: {err}\n{out}");
    }
    walk(out.clone(), &mut e);
    e
}

fn walk(ts: TokenStream, e: &mut Expansion) {
    let tokens: Vec<TokenTree> = ts.into_iter().collect();
    for (i, t) in tokens.iter().enumerate() {
        match t {
            TokenTree::Ident(id) if id == "compile_error" => {
                let bang =
                    matches!(tokens.get(i + 1), Some(TokenTree::Punct(p)) if p.as_char() == '!');
                if let (true, Some(TokenTree::Group(g))) = (bang, tokens.get(i + 2)) {
                    let msg = syn::parse2::<syn::LitStr>(g.stream())
                        .map(|l| l.value())
                        .unwrap_or_else(|_| g.stream().to_string());
                    e.errors.push((msg, id.span()));
                }
            }
            TokenTree::Group(g) => {
                // `ProgramText::new(TITLE, module_path!(), FP64, &[Def::new(..), ..])`
                let after_new = i >= 1
                    && matches!(&tokens[i - 1], TokenTree::Ident(n) if n == "new")
                    && i >= 4
                    && matches!(&tokens[i - 4], TokenTree::Ident(n) if n == "ProgramText");
                if after_new {
                    if let Some(program) = program_of(g.stream()) {
                        if !e.programs.contains(&program) {
                            e.programs.push(program);
                        }
                    }
                }
                walk(g.stream(), e);
            }
            _ => {}
        }
    }
}

/// The program of `ProgramText::new`'s arguments: its pieces laid out by
/// `silt_abi::opencl::assemble`, as the runtime lays them out.
fn program_of(args: TokenStream) -> Option<String> {
    use syn::punctuated::Punctuated;
    let parser = Punctuated::<syn::Expr, syn::Token![,]>::parse_terminated;
    let args: Vec<syn::Expr> = syn::parse::Parser::parse2(parser, args)
        .ok()?
        .into_iter()
        .collect();
    let lit_str = |e: &syn::Expr| match e {
        syn::Expr::Lit(syn::ExprLit {
            lit: syn::Lit::Str(s),
            ..
        }) => Some(s.value()),
        _ => None,
    };
    let title = lit_str(args.first()?)?;
    let fp64 = matches!(args.get(2)?, syn::Expr::Lit(syn::ExprLit { lit: syn::Lit::Bool(b), .. }) if b.value);
    let syn::Expr::Reference(r) = args.get(3)? else {
        return None;
    };
    let syn::Expr::Array(defs) = &*r.expr else {
        return None;
    };
    let mut pieces: Vec<(silt_abi::opencl::Piece, String, String)> = Vec::new();
    for d in &defs.elems {
        let syn::Expr::Call(call) = d else {
            return None;
        };
        let [kind, name, text] =
            <[syn::Expr; 3]>::try_from(call.args.iter().cloned().collect::<Vec<_>>()).ok()?;
        let syn::Expr::Path(p) = kind else {
            return None;
        };
        let piece = match p.path.segments.last()?.ident.to_string().as_str() {
            "Polyfill" => silt_abi::opencl::Piece::Polyfill,
            "Helper" => silt_abi::opencl::Piece::Helper,
            "Body" => silt_abi::opencl::Piece::Body,
            "Entries" => silt_abi::opencl::Piece::Entries,
            _ => return None,
        };
        pieces.push((piece, lit_str(&name)?, lit_str(&text)?));
    }
    let defs: Vec<silt_abi::opencl::Def<'_>> = pieces
        .iter()
        .map(|(p, n, t)| silt_abi::opencl::Def::new(*p, n, t))
        .collect();
    Some(silt_abi::opencl::assemble(&title, fp64, &defs).0)
}

/// `path::__silt_helper_tokens! { [callback] { state } }`: the path and the state.
fn helper_request(out: &TokenStream) -> Option<(syn::Path, TokenStream)> {
    let tokens: Vec<TokenTree> = out.clone().into_iter().collect();
    let bang = tokens
        .iter()
        .position(|t| matches!(t, TokenTree::Punct(p) if p.as_char() == '!'))?;
    if bang + 2 != tokens.len() {
        return None;
    }
    let path: syn::Path = syn::parse2(tokens[..bang].iter().cloned().collect()).ok()?;
    if path.segments.last()?.ident != "__silt_helper_tokens" {
        return None;
    }
    let TokenTree::Group(g) = &tokens[bang + 1] else {
        return None;
    };
    let inner: Vec<TokenTree> = g.stream().into_iter().collect();
    match inner.as_slice() {
        [TokenTree::Group(cb), TokenTree::Group(state)]
            if cb.delimiter() == Delimiter::Bracket && state.delimiter() == Delimiter::Brace =>
        {
            let mut p = path;
            p.segments.pop();
            let p = syn::Path {
                leading_colon: p.leading_colon,
                segments: p
                    .segments
                    .into_pairs()
                    .map(|pair| pair.into_value())
                    .collect(),
            };
            Some((p, TokenTree::Group(state.clone()).into()))
        }
        _ => None,
    }
}

/// Whether a span points into parsed input (not `Span::call_site()`). Under
/// `cfg(fuzzing)` proc-macro2 keeps no source map, but parsed tokens still carry
/// their offsets, which only `Debug` shows (`bytes(lo..hi)`; the call site is
/// `bytes(0..0)`).
pub fn located(span: Span) -> bool {
    format!("{span:?}") != "bytes(0..0)"
}

/// A `#[helper]` as the fuzzers define them: a name, its attribute and its item.
#[derive(Debug, Clone)]
pub struct HelperSrc {
    /// The function's name (the path kernels call it by).
    pub name: String,
    /// The attribute's tokens (`types = [f32]`).
    pub attr: String,
    /// The `fn` item.
    pub item: String,
    /// A `#[kernel]` that other kernels call (its definition is marked
    /// `kernel [..]`; the helpers it calls are found through its path, as for
    /// a helper).
    pub kernel: bool,
}

/// Expands `#[reduce(attr)] item` (`#[scan(attr)] item` when `scan`) as rustc
/// would. `None` when the text does not lex.
pub fn expand_fold(attr: &str, item: &str, scan_: bool) -> Option<Expansion> {
    let attr: TokenStream = attr.parse().ok()?;
    let item: TokenStream = item.parse().ok()?;
    let out = if scan_ {
        silt_codegen::expand_scan(attr, item)
    } else {
        silt_codegen::expand_reduce(attr, item)
    };
    Some(scan(&out))
}

/// Expands `#[kernel(attr)] item` as rustc would, with `helpers` defined beside it
/// at the crate root: the kernel's chain of helper macros is followed until it
/// ends. `None` when the text does not lex (rustc would stop before the macro).
pub fn expand(attr: &str, item: &str, helpers: &[HelperSrc]) -> Option<Expansion> {
    let attr: TokenStream = attr.parse().ok()?;
    let item: TokenStream = item.parse().ok()?;
    let mut defs = Vec::new();
    for h in helpers {
        let a: TokenStream = h.attr.parse().ok()?;
        let i: TokenStream = h.item.parse().ok()?;
        // each helper's own expansion must not panic, and must be valid Rust
        // (a called kernel's is checked as the kernel's: `expand` on it)
        if !h.kernel {
            let out = silt_codegen::expand_helper(a.clone(), i.clone());
            if let Err(err) = syn::parse2::<syn::File>(out.clone()) {
                panic!("the helper's expansion is not valid Rust: {err}\n{out}");
            }
        }
        defs.push((h.name.clone(), a, i, h.kernel));
    }
    let mut out = silt_codegen::expand_kernel(attr, item);
    // a chain longer than this is a loop
    for _ in 0..64 {
        let e = scan(&out);
        let Some((path, state)) = e.next_helper else {
            return Some(e);
        };
        let (types, def_item, kernel) = match resolve(&path, &defs) {
            Some(d) => d,
            // rustc would report an unresolved macro path: nothing more to run
            None => {
                return Some(Expansion {
                    unresolved: true,
                    ..Expansion::default()
                })
            }
        };
        let input: TokenStream = quote_chain(state, types, def_item, kernel);
        out = silt_codegen::helper_chain(input);
    }
    panic!("the helper chain does not end");
}

fn quote_chain(
    state: TokenStream,
    types: TokenStream,
    item: TokenStream,
    kernel: bool,
) -> TokenStream {
    let mut def = TokenStream::new();
    let bracket =
        |ts: TokenStream| TokenTree::Group(proc_macro2::Group::new(Delimiter::Bracket, ts));
    def.extend([
        TokenTree::Ident(proc_macro2::Ident::new("types", Span::call_site())),
        bracket(types),
        TokenTree::Ident(proc_macro2::Ident::new("item", Span::call_site())),
        bracket(item),
    ]);
    if kernel {
        def.extend([
            TokenTree::Ident(proc_macro2::Ident::new("kernel", Span::call_site())),
            bracket(TokenStream::new()),
        ]);
    }
    let mut input = state;
    input.extend([TokenTree::Group(proc_macro2::Group::new(
        Delimiter::Brace,
        def,
    ))]);
    input
}

/// The helper (or called kernel) a path names, from the crate root: `h` is
/// the helper `h`, `h::__silt_dep_j` the `j`-th helper `h`'s body calls.
fn resolve(
    path: &syn::Path,
    defs: &[(String, TokenStream, TokenStream, bool)],
) -> Option<(TokenStream, TokenStream, bool)> {
    let mut segs = path.segments.iter();
    let first = segs.next()?.ident.to_string();
    let mut cur = defs.iter().find(|(n, ..)| *n == first)?;
    for s in segs {
        let j: usize = s
            .ident
            .to_string()
            .strip_prefix("__silt_dep_")?
            .parse()
            .ok()?;
        let func: syn::ItemFn = syn::parse2(cur.2.clone()).ok()?;
        let generic = func
            .sig
            .generics
            .type_params()
            .next()
            .map(|p| p.ident.clone());
        let mut errors = silt_codegen::errors::Errors::default();
        let body = silt_codegen::front::block(&func.block, generic.as_ref(), &mut errors);
        let mut calls = Vec::new();
        silt_codegen::front::helper_calls(&body, &mut calls);
        let (key, _) = calls.get(j)?;
        cur = defs.iter().find(|(n, ..)| n == key)?;
    }
    Some((cur.1.clone(), cur.2.clone(), cur.3))
}
