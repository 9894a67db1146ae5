//! `break value`: a `loop`'s value, nested loops each with their own, a
//! `while` inside one, and a local assigned before a `loop`'s `break` read
//! after it; labelled `break` and `continue` out of nested loops of every
//! kind; on every device, against the same Rust compiled by rustc.

use silt::prelude::*;

use crate::common;

/// The first power of two at or above `x` (a `loop`'s value), and the first
/// multiple of 30 past `x` reached by steps of a loop nested in another,
/// each with its own value.
#[kernel(types = [i32, i64])]
pub fn loop_values<T>(x: T) -> (T, T) {
    let mut p = 1;
    let up = loop {
        if p >= x {
            break p;
        }
        p = p * 2;
    };
    let mut k = 0;
    let past = loop {
        let inner = loop {
            k += 1;
            if k % 3 == 0 {
                break k * 10;
            }
        };
        let mut w = 0;
        while w < 2 {
            w += 1;
            if w == 5 {
                break;
            }
        }
        if inner > x {
            break inner + w - 2;
        }
    };
    // immutable: assigned once, as control cannot come back round after it
    let last;
    loop {
        last = up + past;
        break;
    }
    (last - past, past)
}

/// `loop_values` in Rust.
fn loop_values_rs(x: i64) -> (i64, i64) {
    let mut p = 1;
    let up = loop {
        if p >= x {
            break p;
        }
        p *= 2;
    };
    let mut k = 0;
    let past = loop {
        let inner = loop {
            k += 1;
            if k % 3 == 0 {
                break k * 10;
            }
        };
        if inner > x {
            break inner;
        }
    };
    (up, past)
}

/// A search through a `for`, a `while` and a `loop`: `break 'rows` leaves
/// all three at the first hit, `continue 'rows` skips a row from the
/// innermost loop, `continue 'cols` the rest of a column; a labelled `loop`
/// gives a value by its label.
#[kernel(types = [i32, i64])]
pub fn labelled<T>(x: T) -> (T, T) {
    let mut found = -1;
    let mut skipped = 0;
    let mut s = 0;
    let step = 'v: loop {
        s += 1;
        if s == 2 {
            break 'v s - 1;
        }
    };
    'rows: for i in 1..20 {
        let mut j = 0;
        'cols: while j < 20 {
            j += step;
            let mut k = 0;
            loop {
                k += 1;
                if k > 3 {
                    break;
                }
                if (i + j + k) % 7 == 0 && i % 4 == 0 {
                    skipped += 1;
                    continue 'rows;
                }
                if (j + k) % 5 == 0 {
                    continue 'cols;
                }
                if i * j * k > x {
                    found = i * 100 + j * 10 + k;
                    break 'rows;
                }
            }
        }
    }
    (found, skipped)
}

/// `labelled` in Rust.
fn labelled_rs(x: i64) -> (i64, i64) {
    let mut found = -1;
    let mut skipped = 0;
    let mut s = 0;
    let step = 'v: loop {
        s += 1;
        if s == 2 {
            break 'v s - 1;
        }
    };
    'rows: for i in 1..20 {
        let mut j = 0;
        'cols: while j < 20 {
            j += step;
            let mut k = 0;
            loop {
                k += 1;
                if k > 3 {
                    break;
                }
                if (i + j + k) % 7 == 0 && i % 4 == 0 {
                    skipped += 1;
                    continue 'rows;
                }
                if (j + k) % 5 == 0 {
                    continue 'cols;
                }
                if i * j * k > x {
                    found = i * 100 + j * 10 + k;
                    break 'rows;
                }
            }
        }
    }
    (found, skipped)
}

#[test]
fn labelled_exits_match_rust_on_every_device() {
    let xs: Vec<i64> = (-3..300)
        .step_by(7)
        .chain([1000, 3000, 5000, 7000, 100_000])
        .collect();
    let want: Vec<(i64, i64)> = xs.iter().map(|&x| labelled_rs(x)).collect();
    // every exit is taken somewhere: a hit, none, rows skipped before a hit
    assert!(want.iter().any(|&(f, _)| f == -1));
    assert!(want.iter().any(|&(f, s)| f > 0 && s > 0));
    assert!(want.iter().any(|&(f, s)| f > 0 && s == 0));
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &xs, [xs.len()]).unwrap();
        let (a, b) = labelled::launch(&t).unwrap();
        let got: Vec<(i64, i64)> = a
            .to_vec()
            .unwrap()
            .into_iter()
            .zip(b.to_vec().unwrap())
            .collect();
        assert_eq!(got, want, "i64 on {dev}");
        let xs32: Vec<i32> = xs.iter().map(|&x| x as i32).collect();
        let t = TensorT::from_slice(&dev, &xs32, [xs.len()]).unwrap();
        let (a, b) = labelled::launch(&t).unwrap();
        let got: Vec<(i64, i64)> = a
            .to_vec()
            .unwrap()
            .into_iter()
            .zip(b.to_vec().unwrap())
            .map(|(a, b)| (i64::from(a), i64::from(b)))
            .collect();
        assert_eq!(got, want, "i32 on {dev}");
    }
}

#[test]
fn break_values_match_rust_on_every_device() {
    let xs: Vec<i64> = vec![-5, 0, 1, 2, 3, 7, 8, 9, 29, 30, 31, 1000, 65_535, 1 << 20];
    let want: Vec<(i64, i64)> = xs.iter().map(|&x| loop_values_rs(x)).collect();
    for dev in common::devices() {
        let t = TensorT::from_slice(&dev, &xs, [xs.len()]).unwrap();
        let (a, b) = loop_values::launch(&t).unwrap();
        let got: Vec<(i64, i64)> = a
            .to_vec()
            .unwrap()
            .into_iter()
            .zip(b.to_vec().unwrap())
            .collect();
        assert_eq!(got, want, "i64 on {dev}");
        let xs32: Vec<i32> = xs.iter().map(|&x| x as i32).collect();
        let t = TensorT::from_slice(&dev, &xs32, [xs.len()]).unwrap();
        let (a, b) = loop_values::launch(&t).unwrap();
        let got: Vec<(i64, i64)> = a
            .to_vec()
            .unwrap()
            .into_iter()
            .zip(b.to_vec().unwrap())
            .map(|(a, b)| (i64::from(a), i64::from(b)))
            .collect();
        assert_eq!(got, want, "i32 on {dev}");
    }
    // by hand: 9 -> 16; k reaches 3 (30 > 9)
    assert_eq!(loop_values_rs(9), (16, 30));
    assert_eq!(loop_values::eval(9i64), (16, 30));
}
