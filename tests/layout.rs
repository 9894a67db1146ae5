//! The layout rules of ARCHITECTURE.md, checked on the sources: no file of the
//! code generator or the runtime is over 600 lines (its test module apart), the
//! graph of `use`s between a crate's files has no cycle, and every package of
//! the repository has a row in the document's table of crates.
//!
//! A reference is any path in a file's code outside its tests: `crate::a::b`,
//! `super::x`, `self::child::y`, or a path starting with a child module the file
//! declares. It points at the file of the deepest module it names; a name that a
//! module re-exports (`pub use child::Item`) is followed to where it comes from,
//! so `crate::Device` counts as a use of the file that defines `Device`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 600;
const CRATES: &[&str] = &["silt-codegen", "silt-runtime", "silt-abi"];

/// One source file: its module path and its code (comments, literals and the
/// test module removed).
struct File {
    path: PathBuf,
    module: Vec<String>,
    code: String,
    lines: usize,
}

fn files_of(krate: &Path) -> Vec<File> {
    let src = krate.join("src");
    let mut out = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in fs::read_dir(&dir).unwrap() {
            let p = entry.unwrap().path();
            if p.is_dir() {
                stack.push(p);
            } else if p.extension().is_some_and(|e| e == "rs")
                && p.file_name().is_some_and(|n| n != "tests.rs")
            {
                let rel = p.strip_prefix(&src).unwrap();
                let mut module: Vec<String> = rel
                    .with_extension("")
                    .components()
                    .map(|c| c.as_os_str().to_string_lossy().into_owned())
                    .collect();
                if matches!(module.last().map(String::as_str), Some("mod" | "lib")) {
                    module.pop();
                }
                let text = fs::read_to_string(&p).unwrap();
                let code = strip(&text);
                let lines = code.lines().count();
                out.push(File {
                    path: p,
                    module,
                    code,
                    lines,
                });
            }
        }
    }
    out.sort_by(|a, b| a.module.cmp(&b.module));
    out
}

/// The code of a file without comments, string and char literals, and without
/// its `#[cfg(test)]` module (tests apart).
fn strip(text: &str) -> String {
    let body = match text.find("#[cfg(test)]\nmod tests") {
        Some(i) => &text[..i],
        None => text,
    };
    let b = body.as_bytes();
    let mut out = String::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
        } else if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i += 2;
        } else if c == b'r' && matches!(b.get(i + 1), Some(b'"' | b'#')) && !ident_byte(b, i) {
            // raw string: r"..." or r#"..."#
            let mut j = i + 1;
            let mut hashes = 0;
            while b.get(j) == Some(&b'#') {
                hashes += 1;
                j += 1;
            }
            if b.get(j) != Some(&b'"') {
                out.push(c as char);
                i += 1;
                continue;
            }
            j += 1;
            loop {
                if j >= b.len() {
                    break;
                }
                if b[j] == b'"'
                    && b[j + 1..]
                        .iter()
                        .take(hashes)
                        .filter(|&&h| h == b'#')
                        .count()
                        == hashes
                {
                    j += 1 + hashes;
                    break;
                }
                if b[j] == b'\n' {
                    out.push('\n');
                }
                j += 1;
            }
            out.push_str("\"\"");
            i = j;
        } else if c == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    i += 1;
                }
                if i < b.len() && b[i] == b'\n' {
                    out.push('\n');
                }
                i += 1;
            }
            i += 1;
            out.push_str("\"\"");
        } else if c == b'\'' {
            // a char literal ('a', '\n', '\u{..}'), or a lifetime ('a)
            let close = b[i + 1..].iter().take(12).position(|&x| x == b'\'');
            match close {
                Some(n) if n == 1 || b.get(i + 1) == Some(&b'\\') => i += n + 2,
                _ => {
                    out.push('\'');
                    i += 1;
                }
            }
        } else {
            out.push(c as char);
            i += 1;
        }
    }
    out
}

fn ident_byte(b: &[u8], i: usize) -> bool {
    i > 0 && (b[i - 1].is_ascii_alphanumeric() || b[i - 1] == b'_')
}

/// Tokens: identifiers, `::`, and single punctuation characters.
fn tokens(code: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = code.as_bytes();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let s = i;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(code[s..i].to_string());
        } else if c == b':' && b.get(i + 1) == Some(&b':') {
            out.push("::".into());
            i += 2;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else {
            out.push((c as char).to_string());
            i += 1;
        }
    }
    out
}

/// Paths in `use` trees (expanded) and paths written in code, each as its
/// segments, plus whether it came from a `pub use` (a re-export). Left out:
/// `$crate` paths (code that a macro writes into its user's crate), `pub(in
/// path)` visibilities, and a root alone (`super::#p` in quoted code).
fn paths(code: &str) -> Vec<(Vec<String>, bool)> {
    let t = tokens(code);
    let mut out = Vec::new();
    let mut i = 0;
    while i < t.len() {
        if t[i] == "use" {
            let public = i > 0 && (t[i - 1] == "pub" || t[i - 1] == ")");
            let mut j = i + 1;
            use_tree(&t, &mut j, &mut Vec::new(), &mut out, public);
            i = j;
        } else if (t[i] == "crate"
            || t[i] == "super"
            || t[i] == "self"
            || t[i].starts_with(char::is_lowercase))
            && t.get(i + 1).map(String::as_str) == Some("::")
            && !(i > 0 && (t[i - 1] == "::" || t[i - 1] == "$" || t[i - 1] == "in"))
        {
            let mut p = vec![t[i].clone()];
            let mut j = i + 1;
            while t.get(j).map(String::as_str) == Some("::")
                && t.get(j + 1)
                    .is_some_and(|s| s.starts_with(|c: char| c.is_alphabetic() || c == '_'))
            {
                p.push(t[j + 1].clone());
                j += 2;
            }
            // a bare `super::` (as quoted code writes `super::#path`) names nothing
            if p.len() > 1 {
                out.push((p, false));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

fn use_tree(
    t: &[String],
    j: &mut usize,
    prefix: &mut Vec<String>,
    out: &mut Vec<(Vec<String>, bool)>,
    public: bool,
) {
    let depth = prefix.len();
    while *j < t.len() {
        match t[*j].as_str() {
            "{" => {
                *j += 1;
                loop {
                    use_tree(t, j, prefix, out, public);
                    match t.get(*j).map(String::as_str) {
                        Some(",") => *j += 1,
                        Some("}") => {
                            *j += 1;
                            break;
                        }
                        _ => break,
                    }
                    if t.get(*j).map(String::as_str) == Some("}") {
                        *j += 1;
                        break;
                    }
                }
                prefix.truncate(depth);
                return;
            }
            "::" => *j += 1,
            ";" | "," | "}" => {
                if prefix.len() > depth || depth == 0 {
                    out.push((prefix.clone(), public));
                }
                if t[*j] == ";" {
                    *j += 1;
                }
                prefix.truncate(depth);
                return;
            }
            "as" => {
                *j += 2;
            }
            "*" => {
                *j += 1;
            }
            s => {
                prefix.push(s.to_string());
                *j += 1;
            }
        }
    }
}

struct Crate {
    files: Vec<File>,
    by_module: BTreeMap<Vec<String>, usize>,
    /// Per file: the child modules it declares, and its re-exports (name -> path
    /// relative to the file's module).
    children: Vec<BTreeSet<String>>,
    reexports: Vec<BTreeMap<String, Vec<String>>>,
}

impl Crate {
    fn load(krate: &Path) -> Crate {
        let files = files_of(krate);
        let by_module = files
            .iter()
            .enumerate()
            .map(|(i, f)| (f.module.clone(), i))
            .collect();
        let mut children = Vec::new();
        let mut reexports = Vec::new();
        for f in &files {
            let t = tokens(&f.code);
            let mut kids = BTreeSet::new();
            for w in t.windows(3) {
                if w[0] == "mod" && (w[2] == ";" || w[2] == "{") {
                    kids.insert(w[1].clone());
                }
            }
            let mut re = BTreeMap::new();
            for (p, public) in paths(&f.code) {
                if public {
                    if let Some(last) = p.last() {
                        re.insert(last.clone(), p.clone());
                    }
                }
            }
            children.push(kids);
            reexports.push(re);
        }
        Crate {
            files,
            by_module,
            children,
            reexports,
        }
    }

    /// The file a path written in file `from` points at.
    fn resolve(&self, from: usize, path: &[String], depth: usize) -> Option<usize> {
        if depth > 8 || path.is_empty() {
            return None;
        }
        let here = &self.files[from].module;
        let (mut module, rest): (Vec<String>, &[String]) = match path[0].as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (here.clone(), &path[1..]),
            "super" => {
                let mut m = here.clone();
                let mut k = 0;
                while path.get(k).map(String::as_str) == Some("super") {
                    m.pop();
                    k += 1;
                }
                (m, &path[k..])
            }
            first if self.children[from].contains(first) => (here.clone(), path),
            _ => return None,
        };
        let mut file = *self.by_module.get(&module)?;
        for (k, seg) in rest.iter().enumerate() {
            let mut child = module.clone();
            child.push(seg.clone());
            if let Some(&f) = self.by_module.get(&child) {
                module = child;
                file = f;
                continue;
            }
            // a re-export of this module: follow it (relative to this module)
            if let Some(target) = self.reexports[file].get(seg) {
                if target.first().is_some_and(|s| {
                    self.children[file].contains(s) || s == "crate" || s == "super" || s == "self"
                }) {
                    let mut p = target.clone();
                    p.extend(rest[k + 1..].iter().cloned());
                    return self.resolve(file, &p, depth + 1).or(Some(file));
                }
            }
            return Some(file);
        }
        Some(file)
    }

    fn edges(&self) -> BTreeMap<usize, BTreeSet<usize>> {
        let mut g: BTreeMap<usize, BTreeSet<usize>> = BTreeMap::new();
        for (i, f) in self.files.iter().enumerate() {
            for (p, _) in paths(&f.code) {
                if let Some(to) = self.resolve(i, &p, 0) {
                    if std::env::var_os("LAYOUT_DEBUG").is_some() && to != i {
                        eprintln!(
                            "{} -> {}: {}",
                            f.path.display(),
                            self.files[to].path.display(),
                            p.join("::")
                        );
                    }
                    if to != i {
                        g.entry(i).or_default().insert(to);
                    }
                }
            }
        }
        g
    }
}

/// The strongly connected components with more than one file (Tarjan).
fn cycles(n: usize, g: &BTreeMap<usize, BTreeSet<usize>>) -> Vec<Vec<usize>> {
    struct S<'a> {
        g: &'a BTreeMap<usize, BTreeSet<usize>>,
        index: Vec<Option<usize>>,
        low: Vec<usize>,
        on: Vec<bool>,
        stack: Vec<usize>,
        next: usize,
        out: Vec<Vec<usize>>,
    }
    fn visit(s: &mut S<'_>, v: usize) {
        s.index[v] = Some(s.next);
        s.low[v] = s.next;
        s.next += 1;
        s.stack.push(v);
        s.on[v] = true;
        let succ: Vec<usize> =
            s.g.get(&v)
                .map(|x| x.iter().copied().collect())
                .unwrap_or_default();
        for w in succ {
            match s.index[w] {
                None => {
                    visit(s, w);
                    s.low[v] = s.low[v].min(s.low[w]);
                }
                Some(iw) if s.on[w] => s.low[v] = s.low[v].min(iw),
                _ => {}
            }
        }
        if Some(s.low[v]) == s.index[v] {
            let mut comp = Vec::new();
            while let Some(w) = s.stack.pop() {
                s.on[w] = false;
                comp.push(w);
                if w == v {
                    break;
                }
            }
            if comp.len() > 1 {
                comp.sort_unstable();
                s.out.push(comp);
            }
        }
    }
    let mut s = S {
        g,
        index: vec![None; n],
        low: vec![0; n],
        on: vec![false; n],
        stack: Vec::new(),
        next: 0,
        out: Vec::new(),
    };
    for v in 0..n {
        if s.index[v].is_none() {
            visit(&mut s, v);
        }
    }
    s.out
}

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn no_source_file_is_over_600_lines() {
    let mut long = Vec::new();
    for k in CRATES {
        for f in files_of(&root().join(k)) {
            if f.lines > MAX_LINES {
                long.push(format!("{} ({} lines)", f.path.display(), f.lines));
            }
        }
    }
    assert!(
        long.is_empty(),
        "over {MAX_LINES} lines, tests apart:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_use_graph_between_files_has_no_cycle() {
    let mut found = Vec::new();
    for k in CRATES {
        let c = Crate::load(&root().join(k));
        let g = c.edges();
        for comp in cycles(c.files.len(), &g) {
            let name = |i: usize| {
                c.files[i]
                    .path
                    .strip_prefix(root())
                    .unwrap()
                    .display()
                    .to_string()
            };
            let mut lines = Vec::new();
            for &a in &comp {
                for &b in g.get(&a).into_iter().flatten() {
                    if comp.contains(&b) {
                        lines.push(format!("    {} -> {}", name(a), name(b)));
                    }
                }
            }
            found.push(format!(
                "{k}: a cycle through {} files:\n{}",
                comp.len(),
                lines.join("\n")
            ));
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}

#[test]
fn the_checker_sees_uses_and_reexports() {
    // a cycle through a re-export and a `use` tree is found
    let code_a = "pub use b::Thing;\nmod b;\nuse crate::{c::Other, d};\n";
    let p = paths(&strip(code_a));
    assert!(p.contains(&(vec!["b".into(), "Thing".into()], true)));
    assert!(p.contains(&(vec!["crate".into(), "c".into(), "Other".into()], false)));
    assert!(p.contains(&(vec!["crate".into(), "d".into()], false)));
    // comments and strings are not code
    let s = strip("let x = \"crate::a::b\"; // crate::c\nlet y = crate::d::e;");
    let p = paths(&s);
    assert_eq!(
        p,
        [(vec!["crate".to_string(), "d".into(), "e".into()], false)]
    );
    // a graph with a cycle has one component
    let mut g = BTreeMap::new();
    g.insert(0, BTreeSet::from([1]));
    g.insert(1, BTreeSet::from([2]));
    g.insert(2, BTreeSet::from([0]));
    g.insert(3, BTreeSet::from([0]));
    assert_eq!(cycles(4, &g), [vec![0, 1, 2]]);
}

/// The package names of the repository's `Cargo.toml` files (build folders
/// apart).
fn packages(dir: &Path, depth: usize, out: &mut Vec<String>) {
    if let Ok(text) = fs::read_to_string(dir.join("Cargo.toml")) {
        let mut in_package = false;
        for line in text.lines() {
            let line = line.trim();
            if line.starts_with('[') {
                in_package = line == "[package]";
            } else if let Some(rest) = line.strip_prefix("name").filter(|_| in_package) {
                if let Some(name) = rest.trim().strip_prefix('=') {
                    out.push(name.trim().trim_matches('"').to_string());
                }
            }
        }
    }
    if depth == 0 {
        return;
    }
    for entry in fs::read_dir(dir).unwrap().flatten() {
        let p = entry.path();
        let skip = p
            .file_name()
            .and_then(|n| n.to_str())
            .is_some_and(|n| n.starts_with('.') || n == "target");
        if p.is_dir() && !skip {
            packages(&p, depth - 1, out);
        }
    }
}

#[test]
fn every_package_has_a_row_in_the_table_of_crates() {
    let root = root();
    let arch = fs::read_to_string(root.join("ARCHITECTURE.md")).unwrap();
    let mut names = Vec::new();
    packages(&root, 3, &mut names);
    names.sort();
    names.dedup();
    assert!(names.len() >= 12, "{names:?}");
    let missing: Vec<&String> = names
        .iter()
        .filter(|n| !arch.lines().any(|l| l.starts_with(&format!("| `{n}`"))))
        .collect();
    assert!(
        missing.is_empty(),
        "packages without a row in ARCHITECTURE.md's table of crates: {missing:?}"
    );
}

/// The `.rs` files under `dir`, test files apart, with their text.
fn sources(dir: &Path, out: &mut Vec<(PathBuf, String)>) {
    for entry in fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            sources(&p, out);
        } else if p.extension().is_some_and(|e| e == "rs")
            && p.file_name().is_some_and(|n| n != "tests.rs")
        {
            out.push((p.clone(), fs::read_to_string(&p).unwrap()));
        }
    }
}

/// OpenCL program text is written in one place, `silt_abi::opencl`: the
/// program header (its pragmas), the opening of every entry point, and the
/// pieces programs are made of, which nothing labels with strings to parse
/// back.
#[test]
fn opencl_headers_and_entry_declarations_are_written_by_silt_abi_alone() {
    let root = root();
    let mut files = Vec::new();
    for krate in ["silt-codegen", "silt-runtime", "kernels", "src"] {
        let dir = root.join(krate);
        let dir = if krate == "src" { dir } else { dir.join("src") };
        sources(&dir, &mut files);
    }
    assert!(files.len() > 100, "{} files", files.len());
    let mut found = Vec::new();
    for (path, text) in &files {
        // code, not comments (doc examples may show generated text)
        let code: String = text
            .lines()
            .filter(|l| !l.trim_start().starts_with("//"))
            .collect::<Vec<_>>()
            .join("\n");
        for needle in ["#pragma OPENCL", "\"__kernel", "(kernel)\"", "(body)\""] {
            if code.contains(needle) {
                found.push(format!("{}: {needle}", path.display()));
            }
        }
    }
    assert!(
        found.is_empty(),
        "written outside silt_abi::opencl: {found:#?}"
    );
    let abi = fs::read_to_string(root.join("silt-abi/src/opencl/program.rs")).unwrap();
    assert!(abi.contains("#pragma OPENCL FP_CONTRACT OFF"));
    let decl = fs::read_to_string(root.join("silt-abi/src/opencl/decl.rs")).unwrap();
    assert!(decl.contains("\"__kernel"));
}
