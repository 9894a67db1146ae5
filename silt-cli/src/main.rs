//! `silt`: look at what silt sees and makes: the devices it can run on, the
//! OpenCL C it generates for the operations of `silt-kernels`, its on-disk
//! cache of compiled programs, and a quick measurement.
//!
//! ```sh
//! cargo run -p silt-cli -- devices
//! cargo run -p silt-cli -- source gelu f32
//! cargo run -p silt-cli -- cache stats
//! cargo run --release -p silt-cli -- bench
//! ```

use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod bench;
mod cache;
mod devices;
mod raw;
mod source;
mod table;

/// Look at what silt sees and makes: devices, generated OpenCL C, the program
/// cache.
///
/// silt runs elementwise kernels written in Rust on OpenCL devices (GPUs, or the
/// CPU through PoCL) and on the host. This tool lists those devices, prints the
/// OpenCL C that silt generates for the operations of silt-kernels, shows and
/// clears the on-disk cache of compiled programs, and measures a kernel.
#[derive(Debug, Parser)]
#[command(name = "silt", version)]
#[command(
    after_help = "Environment: SILT_DEVICE chooses the default device (host, opencl, \
                        opencl:N); SILT_CACHE_DIR is the program cache's folder (off disables \
                        it); POCL_CACHE_DIR is PoCL's own cache folder.\n\nRun `silt <COMMAND> \
                        --help` for the details of a command."
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// List every device silt can run kernels on, marking the default one.
    ///
    /// One row per OpenCL device (in the order of `opencl:N`), then the host
    /// backend, which runs kernels as plain Rust on the CPU. The row marked `*`
    /// is the default device, the one programs get from `Device::default()`:
    /// the device SILT_DEVICE names (`host`, `opencl`, `opencl:N`), else the
    /// first OpenCL device, else the host. `spec` is what to put in
    /// SILT_DEVICE to choose a row.
    Devices {
        /// Also print each device's vendor, versions, work-group size and
        /// extensions.
        #[arg(short, long)]
        long: bool,
    },
    /// Print the OpenCL C that silt generates for an operation of silt-kernels.
    ///
    /// Each operation (`add`, `gelu`, `where_`, ...) is compiled to one OpenCL C
    /// program per element type. With a dtype, that program is printed, complete
    /// and compilable on its own; without one, every instantiation is printed, each
    /// under a `/* ===== NAME for DTYPE ===== */` line. Without a kernel, the
    /// operations are listed with their dtypes.
    #[command(
        after_help = "Examples:\n  silt source                 list the operations\n  \
                            silt source add f32         the program of add for f32\n  \
                            silt source gelu            every instantiation of gelu\n  \
                            silt source add f32 --color never > add_f32.cl"
    )]
    Source {
        /// The operation, as named in silt-kernels (`add`, `sigmoid`,
        /// `where_`); omit it to list them all.
        kernel: Option<String>,
        /// The element type (`f32`, `f64`, `i32`, `u8`, `bool`, ...); omit it to
        /// print every instantiation.
        dtype: Option<String>,
        /// Colour the C: `auto` (when writing to a terminal and NO_COLOR is not
        /// set), `always` or `never`.
        #[arg(long, value_enum, default_value_t = Color::Auto)]
        color: Color,
    },
    /// Show or clear silt's on-disk cache of compiled programs.
    ///
    /// silt saves each OpenCL program's binary after its first launch, so that
    /// later processes load it (about 2 ms) instead of compiling it. The folder
    /// is SILT_CACHE_DIR (`off` disables the cache), else
    /// $XDG_CACHE_HOME/silt, else ~/.cache/silt.
    Cache {
        #[command(subcommand)]
        action: CacheAction,
    },
    /// Measure the `add` kernel: bandwidth over sizes and launch overhead.
    ///
    /// A quick check on the default device and on the host: the time of the
    /// first launch (building or loading the program), the bandwidth of
    /// `c = a + b` on f32 tensors of a few sizes, and the time of one launch
    /// plus synchronize; on an OpenCL device, beside the same kernel
    /// hand-written and launched through opencl3 with the driver's local
    /// size. Build with --release for meaningful host numbers. For the full
    /// report (more operations and sizes, the host against plain loops,
    /// start-up with cold and warm caches) run
    /// `cargo run --release -p silt-kernels --example bench_report`.
    Bench {
        /// Small sizes and short runs only (a few seconds at most).
        #[arg(long)]
        quick: bool,
        /// The device to measure besides the host (`opencl`, `opencl:N`,
        /// `host`); default: the default device.
        #[arg(long, value_name = "SPEC")]
        device: Option<String>,
    },
}

#[derive(Debug, Subcommand)]
enum CacheAction {
    /// Show the cache folder, how many programs it holds and their size.
    ///
    /// Reads the folder on disk (the counts of a running program are in
    /// `silt::program_cache::stats()`). Also shows PoCL's own cache folder
    /// (POCL_CACHE_DIR) when it is set.
    Stats,
    /// Delete silt's saved program binaries.
    ///
    /// Only silt's files are removed: other files in the folder, and PoCL's
    /// cache, are left alone. Programs are compiled again on their next launch,
    /// and saved again.
    Clear,
}

/// When to colour output.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
enum Color {
    /// When standard output is a terminal and NO_COLOR is not set.
    Auto,
    /// Always.
    Always,
    /// Never.
    Never,
}

/// A failure to report: its message, and the exit code (2 for bad input).
#[derive(Debug)]
struct Failure {
    message: String,
    code: u8,
}

impl Failure {
    /// A mistake in the command line (exit code 2).
    fn usage(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 2,
        }
    }

    /// A failure of the work itself (exit code 1).
    fn runtime(message: impl Into<String>) -> Failure {
        Failure {
            message: message.into(),
            code: 1,
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Devices { long } => devices::run(long),
        Command::Source {
            kernel,
            dtype,
            color,
        } => source::run(kernel.as_deref(), dtype.as_deref(), color),
        Command::Cache { action } => match action {
            CacheAction::Stats => cache::stats(),
            CacheAction::Clear => cache::clear(),
        },
        Command::Bench { quick, device } => bench::run(quick, device.as_deref()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(f) => {
            eprintln!("error: {}", f.message);
            ExitCode::from(f.code)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_is_well_formed() {
        Cli::command().debug_assert();
    }
}
