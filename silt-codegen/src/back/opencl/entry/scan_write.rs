//! The scan written over one segment, for both of the scan's entry points
//! (`scan.rs`): each element's value from the segment's prefix and running
//! value, finished into the outputs.

use std::fmt::Write;

use silt_abi::opencl::SCAN_ROW_BLOCK;

use super::reduce::Template;
use crate::back::opencl::polyfill::store;
use crate::back::opencl::types::ClType;

/// The scan written over one segment, `silt_sf` to `silt_se`, one element
/// at a time: the segment's first element apart, and a loop for each of the
/// inclusive and the exclusive scan, so that no loop tests which element or
/// scan it is (such tests in the loop made PoCL's code for it 2-3 times
/// slower). `silt_b` is the segment's prefix (there only where `silt_hb`),
/// `silt_l` the running value (declared; the segment's total after), map's
/// arguments `map_args`, the outputs' element at `out_at`. With `lanes`, a
/// block's rows side by side: each element of each row `silt_j`, its prefix
/// and running value in the arrays `silt_ba` and `silt_la`.
pub(super) fn write_segment(
    t: &Template<'_>,
    s: &mut String,
    indent: &str,
    map_args: &[String],
    out_at: &str,
    lanes: bool,
) {
    let n = t.acc.len();
    let i1 = format!("{indent}    ");
    let i2 = format!("{indent}        ");
    let mut both = Template::vars("silt_b", n);
    both.extend(Template::vars("silt_l", n));
    // the value with the prefix, into silt_v
    let with_prefix = |s: &mut String, at: &str| {
        t.declare(s, at, "silt_v");
        let _ = writeln!(s, "{at}if (silt_hb) {{");
        let _ = writeln!(s, "{at}    {}", t.call(2, &both, "silt_v", n));
        let _ = writeln!(s, "{at}}} else {{");
        for i in 0..n {
            let _ = writeln!(s, "{at}    silt_v{i} = silt_l{i};");
        }
        let _ = writeln!(s, "{at}}}");
    };
    let fold = |s: &mut String, at: &str| {
        t.declare(s, at, "silt_m");
        let _ = writeln!(s, "{at}{}", t.call(0, map_args, "silt_m", n));
        t.combine_into(
            s,
            at,
            &Template::vars("silt_l", n),
            &Template::vars("silt_m", n),
        );
    };
    // one element of each lane (or of the row): `first` the segment's
    let element = |s: &mut String, at: &str, first: bool, exclusive: bool| {
        let at = if lanes {
            let _ = writeln!(
                s,
                "{at}for (uint silt_j = 0; silt_j < {SCAN_ROW_BLOCK}u; silt_j++) {{"
            );
            let inner = format!("{at}    ");
            t.declare(s, &inner, "silt_b");
            t.declare(s, &inner, "silt_l");
            for i in 0..n {
                let _ = writeln!(s, "{inner}silt_b{i} = silt_ba{i}[silt_j];");
                if !first {
                    let _ = writeln!(s, "{inner}silt_l{i} = silt_la{i}[silt_j];");
                }
            }
            inner
        } else {
            at.to_owned()
        };
        let count = if exclusive { "silt_k" } else { "silt_k + 1" };
        match (first, exclusive) {
            (true, true) => {
                t.declare(s, &at, "silt_v");
                for i in 0..n {
                    let _ = writeln!(s, "{at}silt_v{i} = silt_b{i};");
                }
                finish_into(t, s, &at, count, out_at);
                let _ = writeln!(s, "{at}{}", t.call(0, map_args, "silt_l", n));
            }
            (true, false) => {
                let _ = writeln!(s, "{at}{}", t.call(0, map_args, "silt_l", n));
                with_prefix(s, &at);
                finish_into(t, s, &at, count, out_at);
            }
            (false, true) => {
                with_prefix(s, &at);
                finish_into(t, s, &at, count, out_at);
                fold(s, &at);
            }
            (false, false) => {
                fold(s, &at);
                with_prefix(s, &at);
                finish_into(t, s, &at, count, out_at);
            }
        }
        if lanes {
            for i in 0..n {
                let _ = writeln!(s, "{at}silt_la{i}[silt_j] = silt_l{i};");
            }
            let _ = writeln!(s, "{}}}", &at[4..]);
        }
    };
    let _ = writeln!(s, "{indent}{{\n{i1}ulong silt_k = silt_sf;");
    for (exclusive, open) in [(true, "if (silt_exclusive) {"), (false, "} else {")] {
        let _ = writeln!(s, "{i1}{open}");
        element(s, &i2, true, exclusive);
        let _ = writeln!(
            s,
            "{i2}for (silt_k = silt_sf + 1; silt_k < silt_se; silt_k++) {{"
        );
        element(s, &format!("{i2}    "), false, exclusive);
        let _ = writeln!(s, "{i2}}}");
    }
    let _ = writeln!(s, "{i1}}}\n{indent}}}");
}

/// `silt_outN[out_at] = finish(silt_v, count)`.
fn finish_into(t: &Template<'_>, s: &mut String, indent: &str, count: &str, out_at: &str) {
    for (i, ty) in t.out.iter().enumerate() {
        let _ = writeln!(s, "{indent}{} silt_o{i};", ty.value_type());
    }
    let mut args = Template::vars("silt_v", t.acc.len());
    args.push(count.to_owned());
    let _ = writeln!(s, "{indent}{}", t.call(3, &args, "silt_o", t.out.len()));
    for (i, ty) in t.out.iter().enumerate() {
        let _ = writeln!(
            s,
            "{indent}silt_out{i}[{out_at}] = {};",
            store(*ty, format!("silt_o{i}"))
        );
    }
}
