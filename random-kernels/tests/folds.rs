//! Every generated reduction and scan (from `silt-kernel-gen`, see the crate
//! docs) launched over shapes (0-d, empty, size-1 axes, rows of several tiles
//! or chunks), random axes (all, lists with negative axes, `keepdim`) and
//! random views of each input (transposed, narrowed, broadcast, broadcast by
//! the launch) on the host device and on the OpenCL device, each reduction
//! there every way of sharing out its work (`silt::__testing::reduce_as`), and
//! compared with `eval` on the rows gathered on the host: bit for bit (NaNs
//! alike). A reduction with `empty = error` must fail on a case with an empty
//! row, on every device.
//!
//! On a mismatch the test prints the module, the instantiation, the case and
//! both values: `SILT_RANDOM_SEED=<seed> SILT_RANDOM_ONLY=rr<index> cargo test
//! -p silt-random-kernels --test folds` rebuilds just that module. A launch
//! that never returns prints nothing; `SILT_RANDOM_TRACE=1` (with
//! `--nocapture`) prints each case and way before its launch, so the last
//! line names the one that hangs.

#[path = "../../tests/common/mod.rs"]
mod common;

use silt::{Device, DeviceKind};
use silt_random_kernels::fold::{Case, Fold, Inst, Launched, Mode, View};
use silt_random_kernels::generated::{FOLDS, FOLD_COUNT, SEED};
use silt_random_kernels::Col;

/// Shards the corpus is split into (one test each, so that they run in parallel).
const SHARDS: usize = 4;

/// The shapes every reduction runs over (axes drawn per module); a row of
/// `[3, 5000]` spans two tiles of 4,096 elements.
const REDUCE_SHAPES: &[&[usize]] = &[
    &[],
    &[0],
    &[1],
    &[7],
    &[4097],
    &[3, 5000],
    &[2100, 3],
    &[5, 0, 3],
    &[4, 1, 70],
    &[2, 3, 4, 5],
];

/// The shapes every scan runs over, and the axis (`None`: drawn); a line of
/// `[3, 2500]` spans three chunks of 1,024 elements.
const SCAN_SHAPES: &[(&[usize], Option<isize>)] = &[
    (&[], Some(0)),
    (&[0], None),
    (&[5], None),
    (&[3, 2500], Some(-1)),
    (&[1100, 3], Some(0)),
    (&[4, 0, 3], None),
    (&[2, 1, 6], None),
];

/// SplitMix64, for the cases' choices.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^= z >> 31;
        usize::try_from(z % n.max(1) as u64).unwrap_or(0)
    }

    fn pct(&mut self, p: usize) -> bool {
        self.below(100) < p
    }
}

fn signed(i: usize) -> isize {
    isize::try_from(i).expect("a small axis")
}

/// An axis as written: `i`, or now and then `i - nd`.
fn written(rng: &mut Rng, i: usize, nd: usize) -> isize {
    if rng.pct(40) {
        signed(i) - signed(nd)
    } else {
        signed(i)
    }
}

/// The view of a tensor input of `shape`; the first input keeps the whole
/// shape (the launch broadcasts to it).
fn view(rng: &mut Rng, shape: &[usize], first: bool) -> View {
    let nd = shape.len();
    if nd == 0 {
        return View::Plain;
    }
    let axis = rng.below(nd);
    match rng.below(6) {
        1 if nd >= 2 => {
            let b = (axis + 1 + rng.below(nd - 1)) % nd;
            View::Transposed(axis, b)
        }
        2 => View::Narrowed {
            axis,
            start: rng.below(3),
            extra: 3,
        },
        3 => View::Broadcast(axis),
        4 if !first => View::Implicit(axis),
        _ => View::Plain,
    }
}

fn views(rng: &mut Rng, shape: &[usize], inputs_at: &[usize]) -> Vec<(usize, View)> {
    inputs_at
        .iter()
        .enumerate()
        .map(|(j, &k)| (k, view(rng, shape, j == 0)))
        .collect()
}

/// The cases of a reduction: every shape of [`REDUCE_SHAPES`] with random axes
/// (the rows of `[3, 5000]` always along its long axis).
fn reduce_cases(f: &Fold, rng: &mut Rng) -> Vec<Case> {
    REDUCE_SHAPES
        .iter()
        .map(|shape| {
            let nd = shape.len();
            let axes = if rng.pct(25) {
                None
            } else {
                let mut picked: Vec<usize> = (0..nd).filter(|_| rng.pct(50)).collect();
                if shape == &[3, 5000] && !picked.contains(&1) {
                    picked.push(1);
                }
                if nd == 0 && rng.pct(50) {
                    picked.push(0); // a 0-d tensor takes axis 0 as its one axis
                }
                for i in (1..picked.len()).rev() {
                    picked.swap(i, rng.below(i + 1));
                }
                Some(picked.iter().map(|&i| written(rng, i, nd.max(1))).collect())
            };
            Case {
                seed: rng.below(1 << 30) as u64 ^ SEED,
                shape: shape.to_vec(),
                axes,
                keepdim: rng.pct(30),
                axis: 0,
                views: views(rng, shape, f.inputs_at),
            }
        })
        .collect()
}

fn scan_cases(f: &Fold, rng: &mut Rng) -> Vec<Case> {
    SCAN_SHAPES
        .iter()
        .map(|&(shape, axis)| {
            let nd = shape.len();
            let axis = axis.unwrap_or_else(|| {
                let i = rng.below(nd);
                written(rng, i, nd)
            });
            Case {
                seed: rng.below(1 << 30) as u64 ^ SEED,
                shape: shape.to_vec(),
                axes: None,
                keepdim: false,
                axis,
                views: views(rng, shape, f.inputs_at),
            }
        })
        .collect()
}

#[derive(Default)]
struct Tally {
    folds: usize,
    insts: usize,
    launches: usize,
    values: usize,
    errors: usize,
    failures: Vec<String>,
}

fn describe(f: &Fold, inst: &Inst, case: &Case, mode: Mode, what: &str) -> String {
    format!(
        "{what}\n  {} instantiated for {} ({mode:?}; SILT_RANDOM_SEED={SEED:#x}, \
         SILT_RANDOM_FOLDS={FOLD_COUNT}, SILT_RANDOM_ONLY={})\n  case: {case:?}\n{}",
        f.name, inst.ty, f.name, f.source
    )
}

/// Compares a launch's results with `eval`'s: the shape, then every value.
fn compare(got: &Launched, want_shape: &[usize], want: &[Col]) -> Option<String> {
    if got.0 != want_shape {
        return Some(format!("shape {:?}, expected {want_shape:?}", got.0));
    }
    if got.1.len() != want.len() {
        return Some(format!("{} results, expected {}", got.1.len(), want.len()));
    }
    for (o, (d, e)) in got.1.iter().zip(want).enumerate() {
        if d.len() != e.len() || d.type_name() != e.type_name() {
            return Some(format!(
                "result {o}: {} values of {}, expected {} of {}",
                d.len(),
                d.type_name(),
                e.len(),
                e.type_name()
            ));
        }
        for i in 0..d.len() {
            if d.distance(e, i) != 0 {
                return Some(format!(
                    "result {o}, element {i}: {} vs eval's {}",
                    d.show(i),
                    e.show(i)
                ));
            }
        }
    }
    None
}

fn run_case(f: &Fold, inst: &Inst, case: &Case, mode: Mode, cl: Option<&Device>, t: &mut Tally) {
    let host = Device::host();
    let (len, rows) = if f.scan { (1, 0) } else { case.row_counts() };
    let expect_error = f.empty_is_error && len == 0 && rows > 0;
    let (shape, want) = if expect_error {
        (Vec::new(), Vec::new())
    } else if f.scan {
        (case.shape.clone(), (inst.eval)(case, mode))
    } else {
        (case.out_shape(), (inst.eval)(case, mode))
    };
    // the host, then the device every way of sharing out a reduction's work
    let mut runs: Vec<(&str, &Device, Option<DeviceKind>)> = vec![("host", &host, None)];
    if let Some(cl) = cl {
        runs.push(("device", cl, None));
        if !f.scan {
            runs.push(("device as a GPU", cl, Some(DeviceKind::Gpu)));
            runs.push(("device as a CPU", cl, Some(DeviceKind::Cpu)));
        }
    }
    for (label, dev, way) in runs {
        silt::__testing::reduce_as(way);
        if std::env::var("SILT_RANDOM_TRACE").is_ok() {
            eprintln!("TRACE {label} {mode:?} case {case:?}");
        }
        let got = (inst.launch)(dev, case, mode);
        silt::__testing::reduce_as(None);
        t.launches += 1;
        let problem = match (got, expect_error) {
            (Err(silt::Error::EmptyReduction { .. }), true) => {
                t.errors += 1;
                None
            }
            (Ok(_), true) => Some("an empty row without an error".to_string()),
            (Err(e), _) => Some(format!("failed: {e}")),
            (Ok(got), false) => {
                t.values += got.1.iter().map(Col::len).sum::<usize>();
                compare(&got, &shape, &want)
            }
        };
        if let Some(p) = problem {
            t.failures
                .push(describe(f, inst, case, mode, &format!("{label}: {p}")));
        }
    }
}

fn run_shard(shard: usize) {
    let cl = common::opencl();
    let mut t = Tally::default();
    for (fi, f) in FOLDS.iter().enumerate() {
        if fi % SHARDS != shard {
            continue;
        }
        t.folds += 1;
        let mut rng = Rng(SEED ^ (fi as u64).wrapping_mul(0xd1b5_4a32_d192_ed03));
        for inst in f.insts {
            t.insts += 1;
            let cases = if f.scan {
                scan_cases(f, &mut rng)
            } else {
                reduce_cases(f, &mut rng)
            };
            for (ci, case) in cases.iter().enumerate() {
                // `dispatch` every third case; a scan's exclusive form every other
                let mode = match (ci % 3, f.scan && ci % 2 == 1) {
                    (2, _) => Mode::Dispatch,
                    (_, true) => Mode::Exclusive,
                    _ => Mode::Launch,
                };
                run_case(f, inst, case, mode, cl.as_ref(), &mut t);
            }
        }
    }
    eprintln!(
        "folds shard {shard}: {} modules, {} instantiations, {} launches ({} empty-row \
         errors), {} values compared (SILT_RANDOM_SEED={SEED:#x}, SILT_RANDOM_FOLDS={FOLD_COUNT})",
        t.folds, t.insts, t.launches, t.errors, t.values
    );
    assert!(
        t.failures.is_empty(),
        "{} mismatches:\n\n{}",
        t.failures.len(),
        t.failures.join("\n\n")
    );
}

#[test]
fn folds_shard_0() {
    run_shard(0);
}

#[test]
fn folds_shard_1() {
    run_shard(1);
}

#[test]
fn folds_shard_2() {
    run_shard(2);
}

#[test]
fn folds_shard_3() {
    run_shard(3);
}

/// The corpus has reductions and scans, each with an instantiation and a
/// tensor input.
#[test]
fn fold_corpus_has_reductions_and_scans() {
    assert!(FOLDS.iter().any(|f| f.scan) && FOLDS.iter().any(|f| !f.scan));
    for f in FOLDS {
        assert!(!f.insts.is_empty() && !f.inputs_at.is_empty(), "{}", f.name);
    }
}

/// The host's rows and lines: row-major over the kept axes, each row-major
/// over the reduced ones; views read as the launch reads them.
#[test]
fn cases_gather_rows_lines_and_views() {
    let mut c = Case {
        seed: 1,
        shape: vec![2, 3, 2],
        axes: Some(vec![-1, 0]),
        keepdim: true,
        axis: 1,
        views: vec![(0, View::Transposed(0, 2)), (1, View::Implicit(1))],
    };
    assert_eq!(c.out_shape(), [1, 3, 1]);
    assert_eq!(c.row_counts(), (4, 3));
    assert_eq!(c.rows()[1], [2, 3, 8, 9]);
    assert_eq!(c.lines()[0], [0, 2, 4]);
    assert_eq!(c.lines().len(), 4);
    // input 0 is a [2, 3, 2] tensor transposed from [2, 3, 2]: element
    // (i, j, k) is the base's (k, j, i)
    let base: Vec<i32> = silt_random_kernels::Inputs { seed: 1, len: 12 }.col(0);
    let l: Vec<i32> = c.logical(0);
    assert_eq!(l[1], base[6]);
    assert_eq!(l[6], base[1]);
    // input 1 has size 1 along axis 1: the same along it
    let l: Vec<i32> = c.logical(1);
    assert_eq!((l[0], l[1]), (l[2], l[3]));
    c.axes = None;
    c.keepdim = false;
    assert_eq!(
        (c.out_shape(), c.row_counts(), c.rows().len()),
        (vec![], (12, 1), 1)
    );
    c.shape = vec![];
    c.views.clear();
    assert_eq!((c.lines(), c.rows()), (vec![vec![0]], vec![vec![0]]));
}
