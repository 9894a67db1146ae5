//! Snapshots: placeholder.
