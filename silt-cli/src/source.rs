//! `silt source`: the OpenCL C of the operations of silt-kernels.

use std::io::IsTerminal;

use silt::DType;
use silt_kernels::catalog::{self, Operation, OPERATIONS};

use crate::table::{emit, Table};
use crate::{Color, Failure};

/// Prints the list of operations, one operation's programs, or one program.
pub fn run(kernel: Option<&str>, dtype: Option<&str>, color: Color) -> Result<(), Failure> {
    let Some(name) = kernel else {
        return emit(&list());
    };
    let op = catalog::find(name).ok_or_else(|| unknown_kernel(name))?;
    let color = match color {
        Color::Always => true,
        Color::Never => false,
        Color::Auto => std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none(),
    };
    let text = match dtype {
        Some(d) => one(op, d)?.to_string(),
        None => {
            let mut text = String::new();
            for (d, src) in op.sources() {
                let title = d.map_or_else(String::new, |d| format!(" for {d}"));
                text.push_str(&format!("/* ===== {}{title} ===== */\n{src}\n", op.name));
            }
            text
        }
    };
    if color {
        emit(&highlight(&text))
    } else {
        emit(&text)
    }
}

/// The program of `op` for the dtype named `dtype`.
fn one(op: &Operation, dtype: &str) -> Result<&'static str, Failure> {
    let valid = || {
        op.types
            .iter()
            .map(|d| d.name())
            .collect::<Vec<_>>()
            .join(", ")
    };
    if !op.is_generic() {
        return Err(Failure::usage(format!(
            "`{}` is not generic: it has a single program, for its fixed types; run \
             `silt source {}` without a dtype",
            op.name, op.name
        )));
    }
    let Some(d) = DType::from_name(dtype) else {
        return Err(Failure::usage(format!(
            "`{dtype}` is not a dtype; `{}` is instantiated for: {}",
            op.name,
            valid()
        )));
    };
    op.source(d).ok_or_else(|| {
        Failure::usage(format!(
            "`{}` has no {d} instantiation; it is instantiated for: {}",
            op.name,
            valid()
        ))
    })
}

/// The error for a name that is not an operation, with the names closest to it.
fn unknown_kernel(name: &str) -> Failure {
    let close = close_names(name);
    let hint = if close.is_empty() {
        String::new()
    } else {
        format!("; did you mean {}?", close.join(", "))
    };
    Failure::usage(format!(
        "silt-kernels has no operation `{name}`{hint}\n`silt source` lists all {} operations",
        OPERATIONS.len()
    ))
}

/// Up to five operation names close to `name`: those within a few edits of it,
/// and those that contain it or that it contains, nearest first.
fn close_names(name: &str) -> Vec<&'static str> {
    let name = name.to_ascii_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    let mut found: Vec<(usize, &'static str)> = OPERATIONS
        .iter()
        .filter_map(|op| {
            let d = edit_distance(&name, op.name);
            let related = name.len() >= 3 && (op.name.contains(&name) || name.contains(op.name));
            (d <= limit || related).then_some((d, op.name))
        })
        .collect();
    found.sort();
    found.into_iter().take(5).map(|(_, n)| n).collect()
}

/// The Levenshtein distance between two strings, in characters.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut cur = vec![i + 1];
        for (j, &cb) in b.iter().enumerate() {
            let sub = prev[j] + usize::from(ca != cb);
            cur.push(sub.min(prev[j + 1] + 1).min(cur[j] + 1));
        }
        prev = cur;
    }
    prev[b.len()]
}

/// The operations with their groups and dtypes.
fn list() -> String {
    let mut t = Table::new(&["operation", "group", "dtypes"]);
    for op in OPERATIONS {
        let types = if op.is_generic() {
            op.types
                .iter()
                .map(|d| d.name())
                .collect::<Vec<_>>()
                .join(" ")
        } else {
            "(fixed types; one program)".to_string()
        };
        t.row(vec![op.name.to_string(), op.group.to_string(), types]);
    }
    format!(
        "{}\n{} operations. `silt source NAME [DTYPE]` prints the OpenCL C.\n",
        t.render(),
        OPERATIONS.len()
    )
}

const RESET: &str = "\x1b[0m";
const COMMENT: &str = "\x1b[2;37m";
const PREPROCESSOR: &str = "\x1b[35m";
const KEYWORD: &str = "\x1b[1;34m";
const TYPE: &str = "\x1b[36m";
const NUMBER: &str = "\x1b[33m";

const KEYWORDS: &[&str] = &[
    "__kernel",
    "kernel",
    "__global",
    "global",
    "__local",
    "local",
    "__constant",
    "constant",
    "__private",
    "private",
    "const",
    "static",
    "inline",
    "return",
    "if",
    "else",
    "for",
    "while",
    "do",
    "break",
    "continue",
    "switch",
    "case",
    "default",
    "sizeof",
    "typedef",
    "struct",
    "union",
    "restrict",
];

const TYPES: &[&str] = &[
    "void", "bool", "char", "uchar", "short", "ushort", "int", "uint", "long", "ulong", "half",
    "float", "double", "size_t", "ulong16", "uint16", "float16", "double16",
];

/// The C with ANSI colours: comments, preprocessor lines, keywords, types and
/// numbers.
fn highlight(src: &str) -> String {
    let mut out = String::with_capacity(src.len() * 2);
    let mut in_block = false;
    for line in src.split_inclusive('\n') {
        let (body, newline) = match line.strip_suffix('\n') {
            Some(b) => (b, "\n"),
            None => (line, ""),
        };
        if !in_block && body.trim_start().starts_with('#') {
            out.push_str(&format!("{PREPROCESSOR}{body}{RESET}{newline}"));
            continue;
        }
        let chars: Vec<char> = body.chars().collect();
        let mut i = 0;
        while i < chars.len() {
            let rest: String = chars[i..].iter().take(2).collect();
            if in_block || rest == "/*" {
                let from = if in_block { i } else { i + 2 };
                let end = match find(&chars, from, "*/") {
                    Some(e) => {
                        in_block = false;
                        e + 2
                    }
                    None => {
                        in_block = true;
                        chars.len()
                    }
                };
                push_colored(&mut out, COMMENT, &chars[i..end]);
                i = end;
            } else if rest == "//" {
                push_colored(&mut out, COMMENT, &chars[i..]);
                i = chars.len();
            } else if chars[i].is_ascii_alphabetic() || chars[i] == '_' {
                let end = scan(&chars, i, |c| c.is_ascii_alphanumeric() || c == '_');
                let word: String = chars[i..end].iter().collect();
                if KEYWORDS.contains(&word.as_str()) {
                    push_colored(&mut out, KEYWORD, &chars[i..end]);
                } else if TYPES.contains(&word.as_str()) {
                    push_colored(&mut out, TYPE, &chars[i..end]);
                } else {
                    out.push_str(&word);
                }
                i = end;
            } else if chars[i].is_ascii_digit() {
                let end = scan(&chars, i, |c| c.is_ascii_alphanumeric() || c == '.');
                push_colored(&mut out, NUMBER, &chars[i..end]);
                i = end;
            } else {
                out.push(chars[i]);
                i += 1;
            }
        }
        out.push_str(newline);
    }
    out
}

fn push_colored(out: &mut String, color: &str, chars: &[char]) {
    out.push_str(color);
    out.extend(chars);
    out.push_str(RESET);
}

/// The end of the run of characters from `start` that satisfy `f`.
fn scan(chars: &[char], start: usize, f: impl Fn(char) -> bool) -> usize {
    chars[start..]
        .iter()
        .position(|&c| !f(c))
        .map_or(chars.len(), |p| start + p)
}

/// Where `pat` next starts at or after `start`.
fn find(chars: &[char], start: usize, pat: &str) -> Option<usize> {
    let pat: Vec<char> = pat.chars().collect();
    (start..chars.len().saturating_sub(pat.len() - 1)).find(|&i| chars[i..].starts_with(&pat))
}

#[cfg(test)]
mod tests {
    use super::{close_names, edit_distance, highlight, RESET};

    #[test]
    fn edit_distances() {
        assert_eq!(edit_distance("add", "add"), 0);
        assert_eq!(edit_distance("ad", "add"), 1);
        assert_eq!(edit_distance("sigmod", "sigmoid"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
    }

    #[test]
    fn close_names_find_typos_and_parts() {
        assert_eq!(close_names("sigmod")[0], "sigmoid");
        assert!(close_names("ad").contains(&"add"));
        assert!(close_names("gel").contains(&"gelu"));
        assert!(close_names("where").contains(&"where_"));
        assert!(close_names("relu").contains(&"relu6"));
        assert!(close_names("zzzzzzzzzzzz").is_empty());
    }

    #[test]
    fn highlighting_only_adds_colours() {
        let src = "// c\n#pragma X\n/* a\n b */ __kernel void f(float x) { return 1.5f; }\n";
        let colored = highlight(src);
        assert!(colored.contains(&format!("\x1b[1;34m__kernel{RESET}")));
        assert!(colored.contains(&format!("\x1b[36mfloat{RESET}")));
        assert!(colored.contains(&format!("\x1b[33m1.5f{RESET}")));
        // removing the escapes gives the text back
        let mut plain = String::new();
        let mut chars = colored.chars();
        while let Some(c) = chars.next() {
            if c == '\x1b' {
                for c in chars.by_ref() {
                    if c == 'm' {
                        break;
                    }
                }
            } else {
                plain.push(c);
            }
        }
        assert_eq!(plain, src);
    }
}
