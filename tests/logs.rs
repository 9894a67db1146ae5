//! silt reports what it does through `tracing`: device selection, program
//! builds (with the time and whether the disk cache hit), pool misses and
//! `empty_cache`, and launches at trace level. The subscriber is the user's
//! choice; this test installs a minimal one that records every event.

mod common;

use std::fmt::Write as _;
use std::sync::Mutex;

use silt::prelude::*;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id, Record};
use tracing::{Event, Metadata, Subscriber};

/// Every event, as `LEVEL target: message field=value ...`.
static EVENTS: Mutex<Vec<String>> = Mutex::new(Vec::new());

struct Recorder;

struct Fields(String);

impl Visit for Fields {
    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "message" {
            let _ = write!(self.0, " {value:?}");
        } else {
            let _ = write!(self.0, " {}={value:?}", field.name());
        }
    }
}

impl Subscriber for Recorder {
    fn enabled(&self, _: &Metadata<'_>) -> bool {
        true
    }
    fn new_span(&self, _: &Attributes<'_>) -> Id {
        Id::from_u64(1)
    }
    fn record(&self, _: &Id, _: &Record<'_>) {}
    fn record_follows_from(&self, _: &Id, _: &Id) {}
    fn event(&self, event: &Event<'_>) {
        let meta = event.metadata();
        let mut fields = Fields(format!("{} {}:", meta.level(), meta.target()));
        event.record(&mut fields);
        EVENTS.lock().unwrap().push(fields.0);
    }
    fn enter(&self, _: &Id) {}
    fn exit(&self, _: &Id) {}
}

#[kernel(types = [f32])]
fn logged<T>(x: T) -> T {
    x * x + x
}

#[scan(types = [f32])]
mod logged_cumsum {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

#[reduce(types = [f32])]
mod logged_sum {
    pub fn identity<T>() -> T {
        0.0
    }
    pub fn combine<T>(a: T, b: T) -> T {
        a + b
    }
}

/// The `mapping=` field of a reduction's or a scan's launch event.
fn mapping_of(event: &str) -> u32 {
    event
        .split("mapping=")
        .nth(1)
        .and_then(|m| m.split(' ').next())
        .and_then(|m| m.parse().ok())
        .unwrap_or_else(|| panic!("{event}"))
}

fn find(what: &[&str]) -> Option<String> {
    let events = EVENTS.lock().unwrap();
    events
        .iter()
        .find(|e| what.iter().all(|w| e.contains(w)))
        .cloned()
}

#[test]
fn builds_pool_misses_devices_and_launches_are_traced() {
    tracing::subscriber::set_global_default(Recorder).unwrap();
    let Some(cl) = common::opencl() else { return };
    drop(Device::default().unwrap());
    let x = TensorT::from_slice(&cl, &[1.0f32, 2.0, 3.0], [3]).unwrap();
    let y = logged::launch(&x).unwrap();
    assert_eq!(y.to_vec().unwrap(), [2.0, 6.0, 12.0]);
    drop((x, y));
    cl.empty_cache();

    let all = EVENTS.lock().unwrap().join("\n");
    assert!(
        find(&["silt::device:", "default device"]).is_some(),
        "{all}"
    );
    // the program of this crate's kernels, `logged` and `logged_sum`
    let build =
        find(&["silt::program:", "program=\"logs (part "]).unwrap_or_else(|| panic!("{all}"));
    assert!(build.contains("ms="), "{build}");
    assert!(
        build.contains("cache=\"hit\"") || build.contains("cache=\"miss\""),
        "{build}"
    );
    assert!(find(&["DEBUG silt::pool:", "pool miss"]).is_some(), "{all}");
    assert!(
        find(&["DEBUG silt::pool:", "cache emptied"]).is_some(),
        "{all}"
    );
    let launch =
        find(&["TRACE silt::launch:", "kernel=\"logged\""]).unwrap_or_else(|| panic!("{all}"));
    assert!(launch.contains("elements=3"), "{launch}");
    assert!(launch.contains("entry=\"logged_f32\""), "{launch}");

    // views take a strided entry: the one without branches up to three
    // coalesced dimensions, the general one past them
    let m = TensorT::from_slice(&cl, &[0.5f32; 24], [2, 3, 4]).unwrap();
    let t = logged::launch(&m.transpose(0, 2).unwrap()).unwrap();
    assert_eq!(t.to_vec().unwrap(), [0.75; 24]);
    let v = TensorT::from_slice(&cl, &[0.5f32; 120], [2, 3, 4, 5]).unwrap();
    let p = logged::launch(&v.permute(&[2, 0, 3, 1]).unwrap()).unwrap();
    assert_eq!(p.to_vec().unwrap(), [0.75; 120]);
    let all = EVENTS.lock().unwrap().join("\n");
    for (elements, entry) in [(24, "logged_f32_strided3"), (120, "logged_f32_strided")] {
        let want = format!("entry=\"{entry}\"");
        let launch = find(&["TRACE silt::launch:", &format!("elements={elements} ")])
            .unwrap_or_else(|| panic!("{all}"));
        assert!(launch.contains(&want), "{launch}");
    }

    // a reduction of one row never shares its work out by rows (the kept
    // dimensions, none, coalesce to one of size 1 whose stride says nothing):
    // a full sum of a transpose is not mistaken for a sum down columns
    let s = logged_sum::launch(&m.transpose(0, 2).unwrap(), Axes::all()).unwrap();
    assert_eq!(s.to_vec().unwrap(), [12.0]);
    let all = EVENTS.lock().unwrap().join("\n");
    let reduce = find(&[
        "TRACE silt::launch:",
        "kernel=\"logged_sum\"",
        "strided=true",
    ])
    .unwrap_or_else(|| panic!("{all}"));
    let mapping = mapping_of(&reduce);
    let by_rows = silt_abi::opencl::ROWS_FASTEST | silt_abi::opencl::ROW_BLOCKS;
    assert_eq!(mapping & by_rows, 0, "{reduce}");

    // on a CPU, a full sum of a transpose whose tiles are alike (four whole
    // runs of 1,024 each) takes blocks of tiles: neighbouring tiles' elements
    // are neighbours in memory
    let w = TensorT::from_slice(&cl, &[0.5f32; 16 * 1024], [1024, 16]).unwrap();
    let s = logged_sum::launch(&w.transpose(0, 1).unwrap(), Axes::all()).unwrap();
    assert_eq!(s.to_vec().unwrap(), [8192.0]);
    let all = EVENTS.lock().unwrap().join("\n");
    let reduce = find(&["TRACE silt::launch:", "kernel=\"logged_sum\"", "len=16384"])
        .unwrap_or_else(|| panic!("{all}"));
    let mapping = mapping_of(&reduce);
    let blocks = mapping & silt_abi::opencl::TILE_BLOCKS != 0;
    assert_eq!(blocks, cl.info().kind == silt::DeviceKind::Cpu, "{reduce}");

    // a scan down the columns of a matrix: neighbouring work-items on
    // neighbouring rows, on a CPU in blocks of rows; along its rows, neither
    let m = TensorT::from_slice(&cl, &[0.5f32; 48 * 20], [48, 20]).unwrap();
    for (axis, len) in [(0, 48), (1, 20)] {
        let c = logged_cumsum::launch(&m, axis).unwrap();
        assert_eq!(c.to_vec().unwrap()[20], if axis == 0 { 1.0 } else { 0.5 });
        let all = EVENTS.lock().unwrap().join("\n");
        let scan = find(&[
            "TRACE silt::launch:",
            "kernel=\"logged_cumsum\"",
            &format!("len={len} "),
        ])
        .unwrap_or_else(|| panic!("{all}"));
        let want = match (axis, cl.info().kind) {
            (1, _) => 0,
            (_, silt::DeviceKind::Cpu) => {
                silt_abi::opencl::SCAN_ROWS_FASTEST | silt_abi::opencl::SCAN_ROW_BLOCKS
            }
            _ => silt_abi::opencl::SCAN_ROWS_FASTEST,
        };
        assert_eq!(mapping_of(&scan), want, "{scan}");
    }
}
