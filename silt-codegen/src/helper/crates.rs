//! Which calls name another crate's kernels and helpers: those whose path
//! starts with a crate the calling crate depends on (by the name its code
//! uses: a dependency's key in `Cargo.toml`, `-` read as `_`), or with `::`.
//!
//! Such a kernel or helper is reached through the macro its crate exports at
//! its root, `__silt_export_NAME` (only `pub` ones are exported, so two `pub`
//! ones may not share a name in one crate); those of the calling crate through
//! their module's `__silt_helper_tokens`.

use std::path::Path;

/// The names by which the crate being compiled refers to other crates: its
/// package's dependencies, read from its `Cargo.toml` (cargo sets
/// `CARGO_MANIFEST_DIR` for the compiler, and so for this macro), and the
/// package's own library (for its tests, examples, benchmarks and doctests; the
/// library itself names its items by `crate::`). Empty when the manifest
/// cannot be read.
pub(super) fn dependencies() -> Vec<String> {
    let Some(text) = std::env::var_os("CARGO_MANIFEST_DIR")
        .and_then(|dir| std::fs::read_to_string(Path::new(&dir).join("Cargo.toml")).ok())
    else {
        return Vec::new();
    };
    let mut names = dependency_names(&text);
    if let Ok(own) = std::env::var("CARGO_PKG_NAME") {
        names.push(own.replace('-', "_"));
    }
    names
}

/// The keys of every dependency table in a `Cargo.toml`: `[dependencies]`,
/// `[dev-dependencies]`, `[build-dependencies]`, their `target.*` forms, and
/// `[dependencies.NAME]` tables; `-` as `_`.
pub(super) fn dependency_names(toml: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut in_table = false;
    for line in toml.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(header) = line.strip_prefix('[') {
            let header = header.trim_start_matches('[').trim_end_matches(']').trim();
            let last = header.rsplit('.').next().unwrap_or("");
            in_table = last.ends_with("dependencies");
            // `[dependencies.NAME]`
            if !in_table {
                let parts: Vec<&str> = header.split('.').collect();
                if let [.., table, name] = parts.as_slice() {
                    if table.ends_with("dependencies") {
                        names.push(name.trim_matches('"').replace('-', "_"));
                    }
                }
            }
            continue;
        }
        if in_table {
            // `name = ...` and `name.workspace = true`
            let key = line.split(['=', '.']).next().unwrap_or("").trim();
            let key = key.trim_matches('"');
            if !key.is_empty()
                && key
                    .chars()
                    .all(|c| c.is_alphanumeric() || c == '_' || c == '-')
            {
                names.push(key.replace('-', "_"));
            }
        }
    }
    names.sort();
    names.dedup();
    names
}

/// The macro that hands over the definition a call path names: the root
/// export of another crate (`::krate::__silt_export_NAME`) when the path
/// starts with `::` or with one of `deps`, else the module's macro.
pub(super) fn tokens_macro(path: &syn::Path, deps: &[String]) -> syn::Path {
    let first = path.segments.first().map(|s| s.ident.to_string());
    let external = path.segments.len() > 1
        && (path.leading_colon.is_some() || first.as_ref().is_some_and(|f| deps.contains(f)));
    match (external, path.segments.first(), path.segments.last()) {
        (true, Some(krate), Some(last)) => {
            // spanned on the call's name, where rustc reports a missing export
            let name = quote::format_ident!(
                "__silt_export_{}",
                crate::front::ident_name(&last.ident),
                span = last.ident.span()
            );
            let krate = &krate.ident;
            syn::parse_quote!(::#krate::#name)
        }
        _ => {
            let mut p = path.clone();
            p.segments.push(syn::PathSegment::from(quote::format_ident!(
                "__silt_helper_tokens"
            )));
            // a call of `default(..)` (or `union`, `auto`, `safe`): where an
            // item starts, those words begin an item of their own, so the
            // macro's path starts at `self::` (the same module)
            if path.leading_colon.is_none()
                && first.is_some_and(|f| ["default", "union", "auto", "safe"].contains(&f.as_str()))
            {
                p.segments
                    .insert(0, syn::PathSegment::from(quote::format_ident!("self")));
            }
            p
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_every_dependency_table() {
        let toml = r#"
[package]
name = "user"
[dependencies]
silt = { path = "../.." }
silt-kernels = "0.1" # the library
my_lib.workspace = true
[dev-dependencies]
"proptest" = "1"
[target.'cfg(unix)'.dependencies]
libc = "0.2"
[dependencies.renamed-one]
version = "1"
[features]
default = []
"#;
        assert_eq!(
            dependency_names(toml),
            [
                "libc",
                "my_lib",
                "proptest",
                "renamed_one",
                "silt",
                "silt_kernels"
            ]
        );
    }

    #[test]
    fn external_paths_go_to_the_root_export() {
        let deps = vec!["silt_kernels".to_string()];
        let show = |p: syn::Path| {
            let m = tokens_macro(&p, &deps);
            quote::quote!(#m).to_string().replace(' ', "")
        };
        assert_eq!(
            show(syn::parse_quote!(silt_kernels::gelu)),
            "::silt_kernels::__silt_export_gelu"
        );
        assert_eq!(
            show(syn::parse_quote!(silt_kernels::activation::gelu)),
            "::silt_kernels::__silt_export_gelu"
        );
        assert_eq!(
            show(syn::parse_quote!(::other::f)),
            "::other::__silt_export_f"
        );
        assert_eq!(
            show(syn::parse_quote!(util::sq)),
            "util::sq::__silt_helper_tokens"
        );
        assert_eq!(show(syn::parse_quote!(sq)), "sq::__silt_helper_tokens");
        // words that start an item of their own where an item is expected
        assert_eq!(
            show(syn::parse_quote!(default)),
            "self::default::__silt_helper_tokens"
        );
        let call: syn::Item = syn::parse_quote!(self::default::__silt_helper_tokens! {});
        assert!(matches!(call, syn::Item::Macro(_)));
    }
}
