//! `ptoc verify`: runs the driver and reports in one of three ways: rendered diagnostics (human
//! on stderr or JSON on stdout), the `--target all` summary on stdout, or the outcome of
//! `--verify-diagnostics` (only failures are rendered).

use crate::diag::render::{render_human, render_json};
use crate::diag::{sort_by_position, Diagnostic};
use crate::driver::{self, ChunkResult, FileResult, Options, TargetChoice};
use crate::target::Profile;

use super::args::{self, ErrorFormat, VerifyArgs};
use super::{read_input, Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};

pub(super) fn run(a: &VerifyArgs, io: &mut Io<'_>) -> u8 {
    let format = args::input_format(a.input_format, &a.file);
    let Some((name, bytes)) = read_input(&a.file, io) else {
        return EXIT_USAGE;
    };
    let target = a.target.map_or(TargetChoice::Auto, |t| t.choice());
    let opts = Options {
        target,
        split_input: a.split_input_file,
        format,
        parse_only: false,
    };
    let file = driver::check_file(&bytes, &opts);

    if a.verify_diagnostics {
        let failures = driver::match_directives(&file);
        emit(
            &failures,
            &name,
            &display_text(&file, &bytes),
            a.error_format,
            io,
        );
        return if failures.iter().any(Diagnostic::is_error) {
            EXIT_ERRORS
        } else {
            EXIT_OK
        };
    }
    if target == TargetChoice::All {
        let (text, ok) = summary(&file, a.split_input_file);
        io.out(&text);
        return if ok { EXIT_OK } else { EXIT_ERRORS };
    }
    let diags = all_diagnostics(&file);
    if !diags.is_empty() || a.error_format == ErrorFormat::Json {
        emit(
            &diags,
            &name,
            &display_text(&file, &bytes),
            a.error_format,
            io,
        );
    }
    if file.has_errors() {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// The text diagnostics are shown against: the decoded file, or for input that is not UTF-8 a
/// lossy decoding (identical up to the first bad byte, where the only diagnostic points), so
/// `invalid-utf8` still gets its line and column.
pub(super) fn display_text(file: &FileResult, bytes: &[u8]) -> String {
    if file.text.is_empty() && !bytes.is_empty() {
        String::from_utf8_lossy(bytes).into_owned()
    } else {
        file.text.clone()
    }
}

/// Every diagnostic of a run that counts: file-level, then each chunk's parse diagnostics and
/// its primary profile's diagnostics, sorted by position.
pub(super) fn all_diagnostics(file: &FileResult) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> = file.file_diagnostics.clone();
    for chunk in &file.chunks {
        diags.extend(chunk.diagnostics().cloned());
    }
    sort_by_position(&mut diags);
    diags
}

fn emit(diags: &[Diagnostic], name: &str, text: &str, format: ErrorFormat, io: &mut Io<'_>) {
    match format {
        ErrorFormat::Human => {
            let rendered = render_human(diags, name, text, io.color);
            io.err(&rendered);
        }
        ErrorFormat::Json => {
            let mut rendered = render_json(diags, name, text);
            rendered.push('\n');
            io.out(&rendered);
        }
    }
}

/// The `--target all` report: per chunk (headed `chunk N:` with split input), one line per
/// profile in the order cpu, a2a3, a5, `accepted` or `rejected` followed by its errors. Parse and
/// file errors reject every profile. Returns the text and whether every chunk is accepted by at
/// least one profile.
pub(super) fn summary(file: &FileResult, split: bool) -> (String, bool) {
    let mut out = String::new();
    let mut ok = true;
    if file.chunks.is_empty() {
        // Undecodable input: no chunk was parsed.
        let errors: Vec<&Diagnostic> = file
            .file_diagnostics
            .iter()
            .filter(|d| d.is_error())
            .collect();
        for p in Profile::ALL {
            ok &= profile_block(&mut out, p, &errors);
        }
        return (out, ok && errors.is_empty());
    }
    for (i, chunk) in file.chunks.iter().enumerate() {
        if split {
            out.push_str(&format!("chunk {}:\n", i + 1));
        }
        let mut any_accepts = false;
        for p in Profile::ALL {
            let errors = chunk_errors(file, chunk, p);
            any_accepts |= profile_block(&mut out, p, &errors);
        }
        ok &= any_accepts;
    }
    (out, ok)
}

/// Writes one profile's block; returns whether it accepted.
fn profile_block(out: &mut String, p: Profile, errors: &[&Diagnostic]) -> bool {
    let accepted = errors.is_empty();
    out.push_str(&format!(
        "{}: {}\n",
        p.as_str(),
        if accepted { "accepted" } else { "rejected" }
    ));
    for d in errors {
        out.push_str(&format!("  error[{}]: {}\n", d.code.as_str(), d.message()));
    }
    accepted
}

/// The errors that reject `chunk` on `p`, by position: file-level and parse errors, else the
/// errors of that profile's verification.
fn chunk_errors<'f>(
    file: &'f FileResult,
    chunk: &'f ChunkResult,
    p: Profile,
) -> Vec<&'f Diagnostic> {
    let mut errors: Vec<&Diagnostic> = file
        .file_diagnostics
        .iter()
        .chain(chunk.parse_diagnostics.iter())
        .chain(
            chunk
                .verified
                .iter()
                .filter(|r| r.profile == p)
                .flat_map(|r| r.diagnostics.iter()),
        )
        .filter(|d| d.is_error())
        .collect();
    errors.sort_by_key(|d| (d.span.start, d.span.end));
    errors
}
