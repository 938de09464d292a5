//! The `ptoc` command line (clap): `verify`, `fmt`, `explain`.
//!
//! Owns argument parsing (`args`), reading the input (a path or `-` for stdin), rendering at the
//! edge (human diagnostics on stderr, JSON and `--target all` summaries on stdout) and the exit
//! codes: 0 no errors (warnings allowed), 1 errors or failed `--verify-diagnostics`, 2 usage or
//! I/O errors. [`run`] takes its streams as parameters, so it is testable in-process; it never
//! panics (write errors such as a closed pipe are ignored, clap errors become exit 2).

pub mod args;
pub mod cast;
pub mod lower;
pub mod run;
pub mod sim;
mod sim_vcvt;
mod verify;

use std::ffi::OsString;
use std::io::{IsTerminal, Read, Write};
use std::path::Path;
use std::process::ExitCode;

use clap::Parser;

use crate::diag::explain;
use crate::diag::render::render_human;
use crate::diag::Code;
use crate::driver::{self, Options, TargetChoice};
use args::{Cli, Command};

/// Exit status: no errors.
pub const EXIT_OK: u8 = 0;
/// Exit status: diagnostics with errors, or a failed `--verify-diagnostics`.
pub const EXIT_ERRORS: u8 = 1;
/// Exit status: usage or I/O error.
pub const EXIT_USAGE: u8 = 2;

/// The one-line form of a tool run's error (`sim`, `cast`, `prove`, `lower`), the same for every
/// command: `ptoc: error[CODE]: message` (the stable code of `ptoc explain`), or
/// `ptoc: error: message` for usage and I/O errors, which have none. Locations inside the
/// message are written `FILE:LINE:COLUMN:`.
pub(crate) fn error_line(code: Option<Code>, message: &str) -> String {
    match code {
        Some(c) => format!("ptoc: error[{c}]: {message}\n"),
        None => format!("ptoc: error: {message}\n"),
    }
}

/// A tool run's warning line: `ptoc: warning: message`.
pub(crate) fn warning_line(message: &str) -> String {
    format!("ptoc: warning: {message}\n")
}

/// The process's streams and terminal facts, injected for testing.
pub struct Io<'a> {
    pub stdin: &'a mut dyn Read,
    pub stdout: &'a mut dyn Write,
    pub stderr: &'a mut dyn Write,
    /// Colour human diagnostics (the caller decides from `NO_COLOR` and the TTY).
    pub color: bool,
}

impl Io<'_> {
    // Output errors (e.g. a closed pipe) must not panic or change the exit status.
    fn out(&mut self, s: &str) {
        let _ = self.stdout.write_all(s.as_bytes());
    }
    fn err(&mut self, s: &str) {
        let _ = self.stderr.write_all(s.as_bytes());
    }
}

/// Runs the CLI with the process arguments; returns the exit code (0 ok, 1 errors, 2 usage/IO).
pub fn main() -> ExitCode {
    let color = std::env::var_os("NO_COLOR").is_none() && std::io::stderr().is_terminal();
    let stdin = std::io::stdin();
    let stdout = std::io::stdout();
    let stderr = std::io::stderr();
    let mut stdin = stdin.lock();
    let mut stdout = stdout.lock();
    let mut stderr = stderr.lock();
    let mut io = Io {
        stdin: &mut stdin,
        stdout: &mut stdout,
        stderr: &mut stderr,
        color,
    };
    EXITING.store(true, std::sync::atomic::Ordering::Relaxed);
    let code = run(std::env::args_os(), &mut io);
    let _ = io.stdout.flush();
    ExitCode::from(code)
}

/// Set by [`main`]: this process exits right after the command, so [`release`] leaves the
/// command's large results (the file's text and IR) to the OS instead of freeing them one
/// allocation at a time (millions for a large file). In-process callers of [`run`] free as usual.
static EXITING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Drops `value`, or when the process is about to exit ([`EXITING`]) forgets it.
fn release<T>(value: T) {
    if EXITING.load(std::sync::atomic::Ordering::Relaxed) {
        std::mem::forget(value);
    } else {
        drop(value);
    }
}

/// Runs one command line (`args` includes the program name) and returns the exit status.
pub fn run<I, T>(args: I, io: &mut Io<'_>) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<OsString> + Clone,
{
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => {
            let text = e.render().to_string();
            if e.use_stderr() {
                io.err(&text);
                return EXIT_USAGE;
            }
            // --help / --version
            io.out(&text);
            return EXIT_OK;
        }
    };
    match cli.command {
        Command::Verify(a) => verify::run(&a, io),
        Command::Fmt(a) => fmt_cmd(&a, io),
        Command::Explain { code } => explain_cmd(&code, io),
        Command::Cast(a) => cast::run(&a, io),
        Command::Run(a) => run::run(&a, io),
        Command::Sim(a) => sim::run(&a, io),
        Command::Lower(a) => lower::run_lower(&a, io),
        Command::Prove(a) => lower::run_prove(&a, io),
    }
}

/// `ptoc fmt`: parse errors and structural errors (undefined values, redefinitions, type
/// mismatches: the printed text of such a module would not parse back cleanly) fail with exit 1;
/// target rules are not run.
fn fmt_cmd(a: &args::FmtArgs, io: &mut Io<'_>) -> u8 {
    let format = args::input_format(a.input_format, &a.file);
    let Some((name, input)) = read_text_input(&a.file, io) else {
        return EXIT_USAGE;
    };
    let opts = Options {
        target: TargetChoice::Auto,
        split_input: a.split_input_file,
        format,
        parse_only: true,
        strict_ops: a.strict_ops,
        pto_level: Default::default(),
        defaults: None,
    };
    let (file, undecodable) = check_input(input, &opts);
    let code = match driver::print_file(&file) {
        Ok(text) => {
            io.out(&text);
            EXIT_OK
        }
        Err(diags) => {
            let text = undecodable.as_deref().unwrap_or(&*file.text);
            io.err(&render_human(&diags, &name, text, io.color));
            EXIT_ERRORS
        }
    };
    release(file);
    code
}

fn explain_cmd(code: &str, io: &mut Io<'_>) -> u8 {
    match Code::lookup(code) {
        Some(c) => {
            io.out(&explain::render(c));
            EXIT_OK
        }
        None => {
            let mut msg = format!(
                "ptoc: error: unknown diagnostic code '{}'\n\
                 Codes are printed in brackets after the severity (error[E0207]) and as \"code\" \
                 and \"name\" in --error-format json; `ptoc explain` accepts either. Known codes:\n",
                crate::diag::clip::Echo(code)
            );
            for c in Code::ALL {
                msg.push_str(&format!("  {}  {}\n", c.as_str(), c.name()));
            }
            io.err(&msg);
            EXIT_USAGE
        }
    }
}

/// A source input: a mapped large file, already checked to be UTF-8, or bytes read.
pub(super) enum TextInput {
    Mapped(driver::SourceText),
    Bytes(Vec<u8>),
}

/// [`read_input`] for the commands that only parse and verify (`verify`, `fmt`): a regular file
/// of at least `driver::MAP_MIN` bytes is mapped instead of read, so its pages need not stay
/// resident (`driver::SourceText`); if mapping fails it is read as usual.
pub(super) fn read_text_input(path: &Path, io: &mut Io<'_>) -> Option<(String, TextInput)> {
    if path.as_os_str() != "-" {
        if let Ok(f) = std::fs::File::open(path) {
            let big = f
                .metadata()
                .is_ok_and(|m| m.is_file() && m.len() >= driver::MAP_MIN);
            if big {
                let name = path.display().to_string();
                match driver::SourceText::map_checked(&f) {
                    Ok(Ok(text)) => return Some((name, TextInput::Mapped(text))),
                    Ok(Err(bad)) => return Some((name, TextInput::Bytes(bad.prefix))),
                    Err(_) => {}
                }
            }
        }
    }
    read_input(path, io).map(|(name, bytes)| (name, TextInput::Bytes(bytes)))
}

/// `driver::check_source` or `driver::check_owned` on what [`read_text_input`] got.
pub(super) fn check_input(
    input: TextInput,
    opts: &Options,
) -> (driver::FileResult, Option<String>) {
    match input {
        TextInput::Mapped(text) => (driver::check_source(text, opts), None),
        TextInput::Bytes(bytes) => driver::check_owned(bytes, opts),
    }
}

/// Reads `path` (`-` = stdin) as bytes, stopping after the first invalid UTF-8 sequence
/// (`driver::read_source`); returns the display name and the bytes, or reports the I/O error on
/// stderr and returns `None` (exit 2).
fn read_input(path: &Path, io: &mut Io<'_>) -> Option<(String, Vec<u8>)> {
    if path.as_os_str() == "-" {
        match driver::read_source(io.stdin) {
            Ok(bytes) => Some(("<stdin>".to_string(), bytes)),
            Err(e) => {
                io.err(&error_line(
                    None,
                    &format!("cannot read standard input: {e}"),
                ));
                None
            }
        }
    } else {
        let name = path.display().to_string();
        let read = |mut f: std::fs::File| {
            // A regular file's length sizes the buffer once (0 for pipes and devices).
            let expected = f.metadata().map_or(0, |m| m.len());
            driver::read_source_sized(&mut f, usize::try_from(expected).unwrap_or(0))
        };
        match std::fs::File::open(path).and_then(read) {
            Ok(b) => Some((name, b)),
            Err(e) => {
                io.err(&error_line(None, &format!("cannot read '{name}': {e}")));
                None
            }
        }
    }
}
