//! Definite assignment against rustc: random function bodies of assignments
//! and reads of `let y: i32;` and `let w: i32;` in `if`s and loops of every
//! kind, with plain and labelled `break`, `continue` and `return`, each
//! compiled by rustc and by the code generator; both must accept the same
//! bodies. (A body silt accepts and rustc rejects would fail later, in the
//! host code the macro emits, pointing at the wrong place; one silt rejects
//! and rustc accepts is a false error.)

use std::fmt::Write as _;
use std::process::Command;

/// A small deterministic generator (xorshift64).
struct Rng(u64);

#[allow(clippy::cast_possible_truncation)]
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// Up to three statements; `labels` are the labels of the loops around
/// (`None` for an unlabelled one), `depth` how much deeper loops and `if`s
/// may nest.
fn stmts(r: &mut Rng, depth: u32, labels: &[Option<usize>]) -> String {
    let n = 1 + r.below(3);
    (0..n)
        .map(|_| stmt(r, depth, labels))
        .collect::<Vec<_>>()
        .join(" ")
}

fn stmt(r: &mut Rng, depth: u32, labels: &[Option<usize>]) -> String {
    let k = r.below(10);
    let pick = r.below(if depth > 0 { 16 } else { 8 });
    let in_loop = !labels.is_empty();
    match pick {
        0 | 1 => "y = x;".into(),
        2 => "z = y;".into(),
        3 => "let w: i32;".into(),
        4 => "w = x;".into(),
        5 => "z = w;".into(),
        6 if in_loop => "break;".into(),
        7 if in_loop => "continue;".into(),
        6 | 7 => "return z;".into(),
        8 => format!("if x > {k} {{ {} }}", stmts(r, depth - 1, labels)),
        9 => format!(
            "if x > {k} {{ {} }} else {{ {} }}",
            stmts(r, depth - 1, labels),
            stmts(r, depth - 1, labels)
        ),
        10 | 11 if labels.iter().any(Option::is_some) => {
            let named: Vec<usize> = labels.iter().flatten().copied().collect();
            let l = named[r.below(named.len())];
            let exit = if pick == 10 { "break" } else { "continue" };
            format!("{exit} 'a{l};")
        }
        _ => {
            let label = (r.below(2) == 0).then_some(labels.len());
            let mut inner = labels.to_vec();
            inner.push(label);
            let head = match r.below(4) {
                0 => "loop".to_string(),
                1 => format!("while x > {k}"),
                2 => "while y > 0".to_string(),
                _ => "for _i in 0..x".to_string(),
            };
            let pre = label.map(|l| format!("'a{l}: ")).unwrap_or_default();
            format!("{pre}{head} {{ {} }}", stmts(r, depth - 1, &inner))
        }
    }
}

fn silt_accepts(body: &str) -> bool {
    let item: proc_macro2::TokenStream = format!("fn f(x: i32) -> i32 {{ {body} }}")
        .parse()
        .expect("tokens");
    silt_codegen::compile(proc_macro2::TokenStream::new(), item).is_ok()
}

#[test]
fn accepts_the_bodies_rustc_accepts() {
    let mut r = Rng(0x5eed_2026_1205_0001);
    let bodies: Vec<String> = (0..400)
        .map(|_| {
            format!(
                "let y: i32; let w: i32; let mut z = 0; {} z",
                stmts(&mut r, 3, &[])
            )
        })
        .collect();
    // one function a line: rustc's errors name their line
    let mut src =
        String::from("#![allow(unused, unreachable_code, unused_labels, unused_assignments)]\n");
    for (i, b) in bodies.iter().enumerate() {
        let _ = writeln!(src, "pub fn f{i}(x: i32) -> i32 {{ {b} }}");
    }
    let dir = std::env::temp_dir().join(format!("silt-definite-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let file = dir.join("bodies.rs");
    std::fs::write(&file, &src).expect("write");
    let rustc = std::env::var("RUSTC").unwrap_or_else(|_| "rustc".into());
    let out = Command::new(rustc)
        .args([
            "--edition",
            "2021",
            "--crate-type",
            "lib",
            "--emit=metadata",
        ])
        .args(["--error-format=short", "-o"])
        .arg(dir.join("bodies.rmeta"))
        .arg(&file)
        .output()
        .expect("rustc runs");
    let _ = std::fs::remove_dir_all(&dir);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let mut rejected = vec![false; bodies.len()];
    for line in stderr.lines() {
        // `.../bodies.rs:LINE:COL: error[E0384]: ...`
        let Some((_, rest)) = line.split_once("bodies.rs:") else {
            continue;
        };
        if !rest.contains(": error") {
            continue;
        }
        let n: usize = rest
            .split(':')
            .next()
            .and_then(|n| n.parse().ok())
            .expect("a line");
        rejected[n - 2] = true;
    }
    let accepted = rejected.iter().filter(|r| !**r).count();
    // the bodies exercise both answers
    assert!(
        accepted > 50 && accepted < 350,
        "rustc accepted {accepted} of 400:\n{stderr}"
    );
    let differ: Vec<String> = bodies
        .iter()
        .zip(&rejected)
        .filter(|(b, rej)| silt_accepts(b) == **rej)
        .map(|(b, rej)| format!("rustc {}: {b}", if *rej { "rejects" } else { "accepts" }))
        .collect();
    assert!(
        differ.is_empty(),
        "{} differ:\n{}",
        differ.len(),
        differ.join("\n")
    );
}

#[test]
fn deeply_nested_loops_are_checked_without_blowing_up() {
    // each loop's body is walked twice to learn its head; walked twice again
    // inside an outer loop's learning walk, 40 loops would take 2^40 walks
    let depth = 40;
    let body = format!(
        "let y: i32; let mut z = 0; {} y = x; z = y; if z > 3 {{ return z; }} {} z",
        "loop { ".repeat(depth),
        "} ".repeat(depth)
    );
    let item: proc_macro2::TokenStream = format!("fn f(x: i32) -> i32 {{ {body} }}")
        .parse()
        .expect("tokens");
    // `y = x` runs again on the next round: rustc rejects it too
    let e = match silt_codegen::compile(proc_macro2::TokenStream::new(), item) {
        Ok(_) => panic!("expected an error"),
        Err((e, _)) => e.into_iter().map(|e| e.to_string()).collect::<Vec<_>>(),
    };
    assert!(e.iter().any(|m| m.contains("cannot assign twice")), "{e:?}");
}
