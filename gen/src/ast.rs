//! The syntax the generator writes, and how it is printed: with the fewest
//! parentheses Rust's precedence allows (so the parser's precedence is tested),
//! one statement a line.

use std::fmt::Write as _;

/// An expression.
#[derive(Clone, Debug)]
pub(crate) enum E {
    /// A literal; its value when it is an integer literal (a `-LIT` must fit).
    Lit(String, Option<i128>),
    /// A variable or a constant path.
    Path(String),
    /// `*name`.
    Deref(String),
    Un(&'static str, Box<E>),
    Bin(&'static str, Box<E>, Box<E>),
    Cast(Box<E>, String),
    /// `recv.method(args)`.
    Call(Box<E>, &'static str, Vec<E>),
    If(Box<E>, Blk, Blk),
    Block(Blk),
    Paren(Box<E>),
    Tuple(Vec<E>),
    HelperCall(String, Vec<E>),
    /// `match scrutinee { arms }`.
    Match(Box<E>, Vec<Arm>),
    /// Text printed as it is (the deliberate mistakes); atomic.
    Raw(String),
}

/// An arm of a `match`: `pattern [if guard] => body`.
#[derive(Clone, Debug)]
pub(crate) struct Arm {
    /// The pattern, as written.
    pub pat: String,
    pub guard: Option<E>,
    pub body: E,
}

/// A block: statements and an optional tail.
#[derive(Clone, Debug, Default)]
pub(crate) struct Blk {
    pub stmts: Vec<S>,
    pub tail: Option<Box<E>>,
}

impl Blk {
    /// `{ s }`.
    pub fn of(s: S) -> Blk {
        Blk {
            stmts: vec![s],
            tail: None,
        }
    }

    /// `{ e }`.
    pub fn value(e: E) -> Blk {
        Blk {
            stmts: Vec::new(),
            tail: Some(Box::new(e)),
        }
    }
}

/// A statement.
#[derive(Clone, Debug)]
pub(crate) enum S {
    /// `let [mut] name[: ty][ = init];`
    Let(String, bool, Option<String>, Option<E>),
    /// `place [op]= value;`
    Assign(String, Option<&'static str>, E),
    If(E, Blk, Option<Blk>),
    /// `for v in a..b` (`..=` when the flag is set).
    For(String, E, E, bool, Blk),
    While(E, Blk),
    Loop(Blk),
    Break,
    Continue,
    Return(Option<E>),
    Block(Blk),
    /// `let _ = e;`
    LetWild(E),
    /// `let PATTERN = e;`: a tuple pattern, as written (`(a, mut b, _)`,
    /// `((a, b), c)`), over a call with several results or a tuple holding one.
    LetPat(String, E),
    /// `e;`
    Expr(E),
}

fn binprec(op: &str) -> u8 {
    match op {
        "*" | "/" | "%" => 13,
        "+" | "-" => 12,
        "<<" | ">>" => 11,
        "&" => 10,
        "^" => 9,
        "|" => 8,
        "==" | "!=" | "<" | "<=" | ">" | ">=" => 7,
        "&&" => 6,
        "||" => 5,
        _ => 0,
    }
}

fn prec(e: &E) -> u8 {
    match e {
        E::Lit(t, _) if t.starts_with('-') => 15,
        E::Lit(..)
        | E::Path(_)
        | E::Paren(_)
        | E::Call(..)
        | E::Tuple(_)
        | E::HelperCall(..)
        | E::Raw(_) => 16,
        E::Deref(_) | E::Un(..) => 15,
        E::Cast(..) => 14,
        E::Bin(op, ..) => binprec(op),
        E::If(..) | E::Block(_) | E::Match(..) => 0,
    }
}

/// Whether printed text ends in `as TYPE` (then `<` / `<<` after it would start
/// generic arguments).
fn ends_in_cast(s: &str) -> bool {
    let mut words = s.trim_end().rsplit(' ');
    let last = words.next().unwrap_or("");
    words.next() == Some("as") && !last.ends_with(')')
}

/// Prints an expression.
pub(crate) fn expr(e: &E, ind: usize) -> String {
    match e {
        E::Lit(t, _) | E::Path(t) | E::Raw(t) => t.clone(),
        E::Deref(n) => format!("*{n}"),
        E::Un(op, x) => {
            let s = expr(x, ind);
            if prec(x) < 15 || s.starts_with('-') && *op == "-" {
                format!("{op}({s})")
            } else {
                format!("{op}{s}")
            }
        }
        E::Bin(op, l, r) => {
            let p = binprec(op);
            let mut ls = expr(l, ind);
            let rs = expr(r, ind);
            if prec(l) < p
                || (p == 7 && prec(l) == 7)
                || (matches!(*op, "<" | "<=" | "<<") && ends_in_cast(&ls))
            {
                ls = format!("({ls})");
            }
            let rs = if prec(r) <= p { format!("({rs})") } else { rs };
            format!("{ls} {op} {rs}")
        }
        E::Cast(x, t) => {
            let s = expr(x, ind);
            if prec(x) < 14 {
                format!("({s}) as {t}")
            } else {
                format!("{s} as {t}")
            }
        }
        E::Call(r, m, args) => {
            let s = expr(r, ind);
            let s = if prec(r) < 16 { format!("({s})") } else { s };
            format!("{s}.{m}({})", list(args, ind))
        }
        E::If(c, t, f) => format!("if {} {}{}", cond(c, ind), blk(t, ind), else_part(f, ind)),
        E::Block(b) => blk(b, ind),
        E::Paren(x) => format!("({})", expr(x, ind)),
        E::Tuple(xs) => format!("({})", list(xs, ind)),
        E::HelperCall(n, xs) => format!("{n}({})", list(xs, ind)),
        E::Match(x, arms) => {
            let pad = "    ".repeat(ind + 1);
            let mut s = format!("match {} {{\n", cond(x, ind));
            for a in arms {
                let guard = a
                    .guard
                    .as_ref()
                    .map(|g| format!(" if {}", cond(g, ind + 1)))
                    .unwrap_or_default();
                let _ = writeln!(s, "{pad}{}{guard} => {},", a.pat, expr(&a.body, ind + 1));
            }
            let _ = write!(s, "{}}}", "    ".repeat(ind));
            s
        }
    }
}

fn list(xs: &[E], ind: usize) -> String {
    let v: Vec<String> = xs.iter().map(|a| expr(a, ind)).collect();
    v.join(", ")
}

/// ` else { .. }`, or ` else if ..` when the block is only an `if`.
fn else_part(f: &Blk, ind: usize) -> String {
    match (&f.stmts[..], f.tail.as_deref()) {
        ([], Some(inner @ E::If(..))) => format!(" else {}", expr(inner, ind)),
        _ => format!(" else {}", blk(f, ind)),
    }
}

/// A condition: parenthesised when it starts like a block.
fn cond(c: &E, ind: usize) -> String {
    let s = expr(c, ind);
    if prec(c) == 0 {
        format!("({s})")
    } else {
        s
    }
}

/// Prints a block, its closing brace at indentation `ind`.
pub(crate) fn blk(b: &Blk, ind: usize) -> String {
    let pad = "    ".repeat(ind + 1);
    let mut s = String::from("{\n");
    for st in &b.stmts {
        let _ = writeln!(s, "{pad}{}", stmt(st, ind + 1));
    }
    if let Some(t) = &b.tail {
        let _ = writeln!(s, "{pad}{}", expr(t, ind + 1));
    }
    let _ = write!(s, "{}}}", "    ".repeat(ind));
    s
}

fn range_end(e: &E, ind: usize) -> String {
    let s = expr(e, ind);
    if prec(e) < 16 {
        format!("({s})")
    } else {
        s
    }
}

fn stmt(st: &S, ind: usize) -> String {
    match st {
        S::Let(n, m, t, init) => {
            let mut s = format!("let {}{n}", if *m { "mut " } else { "" });
            if let Some(t) = t {
                let _ = write!(s, ": {t}");
            }
            if let Some(i) = init {
                let _ = write!(s, " = {}", expr(i, ind));
            }
            s.push(';');
            s
        }
        S::Assign(p, op, e) => format!("{p} {}= {};", op.unwrap_or(""), expr(e, ind)),
        S::If(c, t, f) => {
            let mut s = format!("if {} {}", cond(c, ind), blk(t, ind));
            if let Some(f) = f {
                s.push_str(&else_part(f, ind));
            }
            s
        }
        S::For(v, a, b, incl, body) => format!(
            "for {v} in {}{}{} {}",
            range_end(a, ind),
            if *incl { "..=" } else { ".." },
            range_end(b, ind),
            blk(body, ind)
        ),
        S::While(c, body) => format!("while {} {}", cond(c, ind), blk(body, ind)),
        S::Loop(body) => format!("loop {}", blk(body, ind)),
        S::Break => "break;".into(),
        S::Continue => "continue;".into(),
        S::Return(None) => "return;".into(),
        S::Return(Some(e)) => format!("return {};", expr(e, ind)),
        S::Block(b) => blk(b, ind),
        S::LetWild(e) => format!("let _ = {};", expr(e, ind)),
        S::LetPat(p, e) => format!("let {p} = {};", expr(e, ind)),
        // a statement that starts like a block or an operator is parenthesised
        S::Expr(e) if prec(e) == 16 => format!("{};", expr(e, ind)),
        S::Expr(e) => format!("({});", expr(e, ind)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lit(s: &str) -> Box<E> {
        Box::new(E::Lit(s.into(), None))
    }

    #[test]
    fn prints_with_the_parentheses_precedence_needs() {
        let sum = E::Bin("+", lit("1"), lit("2"));
        let prod = E::Bin("*", Box::new(sum.clone()), lit("3"));
        assert_eq!(expr(&prod, 0), "(1 + 2) * 3");
        let cmp = E::Bin("<", Box::new(E::Cast(lit("x"), "u8".into())), lit("4"));
        assert_eq!(expr(&cmp, 0), "(x as u8) < 4");
        let chain = E::Bin("==", Box::new(E::Bin("<", lit("a"), lit("b"))), lit("c"));
        assert_eq!(expr(&chain, 0), "(a < b) == c");
        let neg = E::Un("-", lit("-1"));
        assert_eq!(expr(&neg, 0), "-(-1)");
        let call = E::Call(Box::new(sum), "min", vec![*lit("3")]);
        assert_eq!(expr(&call, 0), "(1 + 2).min(3)");
    }

    #[test]
    fn else_if_chains() {
        let inner = E::If(lit("b"), Blk::value(*lit("1")), Blk::value(*lit("2")));
        let outer = E::If(lit("a"), Blk::value(*lit("0")), Blk::value(inner));
        let s = expr(&outer, 0);
        assert!(s.contains("} else if b {"), "{s}");
        assert_eq!(stmt(&S::Expr(outer), 0).chars().next(), Some('('));
    }
}
