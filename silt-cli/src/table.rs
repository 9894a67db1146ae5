//! Plain-text tables, byte counts for people, and writing to standard output.

use std::io::Write;

/// A table of left-aligned text columns, two spaces apart, with a header row
/// and a rule under it.
pub struct Table {
    header: Vec<String>,
    rows: Vec<Vec<String>>,
}

impl Table {
    /// A table with these column titles.
    pub fn new(header: &[&str]) -> Table {
        Table {
            header: header.iter().map(|h| h.to_string()).collect(),
            rows: Vec::new(),
        }
    }

    /// Adds a row (missing cells are empty).
    pub fn row(&mut self, cells: Vec<String>) {
        self.rows.push(cells);
    }

    /// The table as text, one line per row, each ending in a newline.
    pub fn render(&self) -> String {
        let mut widths: Vec<usize> = self.header.iter().map(|h| h.chars().count()).collect();
        for row in &self.rows {
            for (i, cell) in row.iter().enumerate() {
                if i < widths.len() {
                    widths[i] = widths[i].max(cell.chars().count());
                }
            }
        }
        let line = |cells: &[String]| {
            let mut s = String::new();
            for (i, w) in widths.iter().enumerate() {
                let cell = cells.get(i).map_or("", String::as_str);
                if i + 1 == widths.len() {
                    s.push_str(cell);
                } else {
                    s.push_str(cell);
                    s.push_str(&" ".repeat(w - cell.chars().count() + 2));
                }
            }
            s.truncate(s.trim_end().len());
            s.push('\n');
            s
        };
        let mut out = line(&self.header);
        // no rule under a column without a title (such as a marker column)
        let rule: Vec<String> = widths
            .iter()
            .zip(&self.header)
            .map(|(w, h)| {
                if h.is_empty() {
                    " ".repeat(*w)
                } else {
                    "-".repeat(*w)
                }
            })
            .collect();
        out.push_str(&line(&rule));
        for row in &self.rows {
            out.push_str(&line(row));
        }
        out
    }
}

/// A byte count in binary units: `512 B`, `1.5 KiB`, `16.0 GiB`.
pub fn bytes(n: u64) -> String {
    const UNITS: [&str; 5] = ["KiB", "MiB", "GiB", "TiB", "PiB"];
    if n < 1024 {
        return format!("{n} B");
    }
    let mut v = n as f64 / 1024.0;
    let mut unit = 0;
    while v >= 1024.0 && unit + 1 < UNITS.len() {
        v /= 1024.0;
        unit += 1;
    }
    format!("{v:.1} {}", UNITS[unit])
}

/// Writes `text` to standard output. A reader that went away (`silt source
/// gelu | head`) is not an error.
pub fn emit(text: &str) -> Result<(), crate::Failure> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(()),
        Err(e) => Err(crate::Failure::runtime(format!(
            "cannot write to standard output: {e}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::{bytes, Table};

    #[test]
    fn byte_counts_read_well() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(16 << 30), "16.0 GiB");
    }

    #[test]
    fn columns_line_up() {
        let mut t = Table::new(&["a", "long title", "c"]);
        t.row(vec!["wide cell".into(), "x".into(), "y".into()]);
        t.row(vec!["z".into()]);
        assert_eq!(
            t.render(),
            "a          long title  c\n\
             ---------  ----------  -\n\
             wide cell  x           y\n\
             z\n"
        );
    }
}
