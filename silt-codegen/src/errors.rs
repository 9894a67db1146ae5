//! Collecting several spanned errors and failing once.

use proc_macro2::Span;
use std::fmt::Display;

/// Errors found so far; every stage adds to it instead of stopping at the first.
#[derive(Default)]
pub struct Errors {
    list: Vec<syn::Error>,
}

impl Errors {
    /// Adds an error at `span`.
    pub fn push(&mut self, span: Span, msg: impl Display) {
        self.list.push(syn::Error::new(span, msg));
    }

    /// Adds an existing error.
    pub fn add(&mut self, err: syn::Error) {
        self.list.push(err);
    }

    /// How many errors so far.
    pub fn len(&self) -> usize {
        self.list.len()
    }

    /// Whether nothing went wrong.
    pub fn is_empty(&self) -> bool {
        self.list.is_empty()
    }

    /// All errors as one (`None` when there are none). Duplicates (same place, same
    /// text: one mistake seen by several instantiations) are reported once.
    pub fn combine(self) -> Option<syn::Error> {
        let mut seen: Vec<(String, String)> = Vec::new();
        let mut out: Option<syn::Error> = None;
        for e in self.list {
            let key = (format!("{:?}", e.span()), e.to_string());
            if seen.contains(&key) {
                continue;
            }
            seen.push(key);
            match &mut out {
                Some(o) => o.combine(e),
                None => out = Some(e),
            }
        }
        out
    }
}
