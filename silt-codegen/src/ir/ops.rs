//! The operators and parameter kinds that the syntax tree and the IR share.

/// How a parameter is passed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ParamKind {
    /// `x: T`: one element of an input tensor.
    Input,
    /// `y: &mut T`: one element of a tensor read and written in place.
    InOut,
    /// `#[scalar] a: T`: one value for all elements.
    Scalar,
    /// `#[index] i: u64`: the element's logical (row-major) index; not an argument
    /// of `launch`.
    Index,
    /// `a: View<T, N>`: a grid kernel's read-only view of `N` dimensions
    /// (any strides; broadcasts read the same element).
    View(usize),
    /// `c: ViewMut<T, N>`: a grid kernel's view of `N` dimensions that it
    /// reads and writes.
    ViewMut(usize),
}

impl ParamKind {
    /// The dimensions of a view parameter (`None` for the others).
    pub fn rank(self) -> Option<usize> {
        match self {
            ParamKind::View(n) | ParamKind::ViewMut(n) => Some(n),
            _ => None,
        }
    }
}

/// A unary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnOp {
    /// `-x`.
    Neg,
    /// `!x`.
    Not,
}

/// A binary operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BinOp {
    /// `+`
    Add,
    /// `-`
    Sub,
    /// `*`
    Mul,
    /// `/`
    Div,
    /// `%`
    Rem,
    /// `&`
    BitAnd,
    /// `|`
    BitOr,
    /// `^`
    BitXor,
    /// `<<`
    Shl,
    /// `>>`
    Shr,
    /// `==`
    Eq,
    /// `!=`
    Ne,
    /// `<`
    Lt,
    /// `<=`
    Le,
    /// `>`
    Gt,
    /// `>=`
    Ge,
    /// `&&`
    And,
    /// `||`
    Or,
}

impl BinOp {
    /// The operator as written.
    pub fn symbol(self) -> &'static str {
        match self {
            BinOp::Add => "+",
            BinOp::Sub => "-",
            BinOp::Mul => "*",
            BinOp::Div => "/",
            BinOp::Rem => "%",
            BinOp::BitAnd => "&",
            BinOp::BitOr => "|",
            BinOp::BitXor => "^",
            BinOp::Shl => "<<",
            BinOp::Shr => ">>",
            BinOp::Eq => "==",
            BinOp::Ne => "!=",
            BinOp::Lt => "<",
            BinOp::Le => "<=",
            BinOp::Gt => ">",
            BinOp::Ge => ">=",
            BinOp::And => "&&",
            BinOp::Or => "||",
        }
    }

    /// Whether the result is `bool` whatever the operands.
    pub fn is_comparison(self) -> bool {
        matches!(
            self,
            BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge
        )
    }
}
