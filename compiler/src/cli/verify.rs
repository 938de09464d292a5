//! `ptoc verify`: runs the driver and reports in one of three ways: rendered diagnostics (human
//! on stderr or JSON on stdout), the `--target all` summary on stdout (human lines, or one JSON
//! object with `--error-format json`), or the outcome of `--verify-diagnostics` (only failures
//! are rendered). Each chunk's verification diagnostics are capped when reported
//! (`driver::cap_shown`: `--error-limit` errors, default 50, or twice that many diagnostics, then
//! one E0016 counting the rest; `--error-limit 0` shows all).
//! `--lower-check tensix` adds the Tensix backend's E07xx verdicts in every mode
//! but `--verify-diagnostics`: next to the diagnostics, or with `--target all` after the summary
//! (human, stderr) or as its `lower_check` member (JSON).

use std::borrow::Cow;

use serde_json::{json, Value};

use crate::diag::render::{diagnostic_json, render_human_indexed, render_json_indexed};
use crate::diag::{sort_by_position, Diagnostic};
use crate::driver::{self, ChunkResult, FileResult, LazyLines, Options, TargetChoice};
use crate::target::Profile;

use super::args::{self, ErrorFormat, VerifyArgs};
use super::{check_input, read_text_input, Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};

pub(super) fn run(a: &VerifyArgs, io: &mut Io<'_>) -> u8 {
    let format = args::input_format(a.input_format, &a.file);
    let Some((name, input)) = read_text_input(&a.file, io) else {
        return EXIT_USAGE;
    };
    let target = a.target.map_or(TargetChoice::Auto, |t| t.choice());
    if let Some(note) = a.target.and_then(|t| t.alias_note()) {
        io.err(&note);
    }
    let opts = Options {
        target,
        split_input: a.split_input_file,
        format,
        parse_only: false,
        strict_ops: a.strict_ops,
        pto_level: a.pto_level.map(|l| l.level()).unwrap_or_default(),
        defaults: a.defaults.map(|d| d.toolchain()),
    };
    // The text moves into `file.text` (read once, or mapped): a large input is held once.
    let (file, undecodable) = check_input(input, &opts);
    let code = match &undecodable {
        Some(shown) => report(a, io, &name, &file, &LazyLines::new(shown)),
        None => report(a, io, &name, &file, &file.text.lines()),
    };
    super::release(file);
    code
}

/// Reports a checked file (`index` is over the text diagnostics are shown against) and returns
/// the exit status.
fn report(
    a: &VerifyArgs,
    io: &mut Io<'_>,
    name: &str,
    file: &FileResult,
    index: &LazyLines<'_>,
) -> u8 {
    let target = a.target.map_or(TargetChoice::Auto, |t| t.choice());
    if a.verify_diagnostics {
        let failures = driver::match_directives(file);
        emit(&failures, name, index, a.error_format, io);
        return if failures.iter().any(Diagnostic::is_error) {
            EXIT_ERRORS
        } else {
            EXIT_OK
        };
    }
    if target == TargetChoice::All {
        return report_all(a, io, name, file, index);
    }
    let limit = driver::ShownLimit::from_error_limit(a.error_limit);
    let mut diags = all_diagnostics(file, limit);
    let mut lowering_failed = false;
    if !file.has_errors() {
        if let Some(extra) = lower_check(a, file) {
            lowering_failed = extra.iter().any(Diagnostic::is_error);
            diags.extend(extra);
            sort_by_position(&mut diags);
        }
    }
    if !diags.is_empty() || a.error_format == ErrorFormat::Json {
        emit(&diags, name, index, a.error_format, io);
    }
    if file.has_errors() || lowering_failed {
        EXIT_ERRORS
    } else {
        EXIT_OK
    }
}

/// `--lower-check tensix`: the Tensix backend's verdict on each conversion (E07xx errors), without
/// emitting code; `None` without the flag. The lowering uses the cpu semantics whatever the
/// profile verified (`lower::tensix::lower_file`), so the check is the same under any `--target`.
fn lower_check(a: &VerifyArgs, file: &FileResult) -> Option<Vec<Diagnostic>> {
    a.lower_check?;
    let lowered = crate::lower::tensix::lower_file_as(
        file.text.as_bytes(),
        pto_runtime::tensix::isa::Arch::Bh,
        &crate::lower::tensix::LowerOptions {
            format: args::input_format(a.input_format, &a.file),
            split_input: a.split_input_file,
            defaults: a.defaults.map(|d| d.toolchain()),
            ..Default::default()
        },
    );
    Some(
        lowered
            .diagnostics
            .into_iter()
            .filter(|d| d.code.as_str().starts_with("E07"))
            .collect(),
    )
}

/// `--target all`: the per-profile summary (stdout), then with `--lower-check` the lowering
/// diagnostics — human: rendered on stderr as without `--target all`; JSON: a `lower_check`
/// member of the summary object. Exit 1 when a profile rejects a chunk or a lowering fails.
fn report_all(
    a: &VerifyArgs,
    io: &mut Io<'_>,
    name: &str,
    file: &FileResult,
    index: &LazyLines<'_>,
) -> u8 {
    let lowering = if file.file_diagnostics.iter().any(Diagnostic::is_error) {
        None
    } else {
        lower_check(a, file)
    };
    let lowering_failed = lowering
        .as_ref()
        .is_some_and(|d| d.iter().any(Diagnostic::is_error));
    let ok = match a.error_format {
        ErrorFormat::Human => {
            let (text, ok) = summary(file, name, index, a.split_input_file, a.error_limit);
            io.out(&text);
            if let Some(d) = lowering.as_ref().filter(|d| !d.is_empty()) {
                emit(d, name, index, a.error_format, io);
            }
            ok
        }
        ErrorFormat::Json => {
            let (mut value, ok) =
                summary_value(file, name, index, a.split_input_file, a.error_limit);
            if let (Some(d), Some(obj)) = (&lowering, value.as_object_mut()) {
                let list: Vec<Value> = d.iter().map(|d| diagnostic_json(d, name, index)).collect();
                obj.insert(
                    "lower_check".to_string(),
                    json!({ "target": "tensix", "diagnostics": list }),
                );
            }
            io.out(&format!("{value}\n"));
            ok
        }
    };
    if ok && !lowering_failed {
        EXIT_OK
    } else {
        EXIT_ERRORS
    }
}

/// The text diagnostics are shown against: the decoded file, or for input that is not UTF-8 its
/// valid prefix and the offending bytes escaped (`driver::display_text`; identical up to the
/// first bad byte, where the only diagnostic points), so `invalid-utf8` still gets its line and
/// column. Borrowed from the file when it decoded.
pub(super) fn display_text<'f>(file: &'f FileResult, bytes: &'f [u8]) -> Cow<'f, str> {
    if file.text.is_empty() && !bytes.is_empty() {
        driver::display_text(bytes)
    } else {
        Cow::Borrowed(&*file.text)
    }
}

/// Every diagnostic of a run that counts: file-level, then each chunk's parse diagnostics and
/// its primary profile's diagnostics (capped: `driver::cap_shown`), sorted by position.
pub(super) fn all_diagnostics(
    file: &FileResult,
    limit: Option<driver::ShownLimit>,
) -> Vec<Diagnostic> {
    let mut diags: Vec<Diagnostic> = file.file_diagnostics.clone();
    for chunk in &file.chunks {
        diags.extend(chunk.shown_diagnostics(limit));
    }
    sort_by_position(&mut diags);
    diags
}

fn emit(
    diags: &[Diagnostic],
    name: &str,
    index: &LazyLines<'_>,
    format: ErrorFormat,
    io: &mut Io<'_>,
) {
    match format {
        ErrorFormat::Human => {
            let rendered = render_human_indexed(diags, name, index, io.color);
            io.err(&rendered);
        }
        ErrorFormat::Json => {
            let mut rendered = render_json_indexed(diags, name, index);
            rendered.push('\n');
            io.out(&rendered);
        }
    }
}

/// One profile's outcome for one chunk: every diagnostic that applies (file-level and parse
/// diagnostics, then that profile's verification), sorted by position.
struct ProfileOutcome<'f> {
    profile: Profile,
    diagnostics: Vec<&'f Diagnostic>,
    /// The count of those left out (`driver::cap_shown`), shown last.
    not_shown: Option<Diagnostic>,
}

impl ProfileOutcome<'_> {
    fn accepted(&self) -> bool {
        !self.shown().any(|d| d.is_error())
    }
    fn shown(&self) -> impl Iterator<Item = &Diagnostic> {
        self.diagnostics
            .iter()
            .copied()
            .chain(self.not_shown.as_ref())
    }
}

/// The `--target all` outcome: per chunk, one entry per profile in the order cpu, a2a3, a5.
/// Undecodable input (no chunk was parsed) counts as one chunk rejected by every profile.
fn outcomes(file: &FileResult, error_limit: usize) -> Vec<Vec<ProfileOutcome<'_>>> {
    let limit = driver::ShownLimit::from_error_limit(error_limit);
    if file.chunks.is_empty() {
        let diagnostics: Vec<&Diagnostic> = file.file_diagnostics.iter().collect();
        return vec![Profile::ALL
            .into_iter()
            .map(|profile| ProfileOutcome {
                profile,
                diagnostics: diagnostics.clone(),
                not_shown: None,
            })
            .collect()];
    }
    file.chunks
        .iter()
        .map(|chunk| {
            Profile::ALL
                .into_iter()
                .map(|profile| {
                    let mut diagnostics = chunk_diagnostics(file, chunk, profile);
                    let not_shown = driver::cap_shown_refs(&mut diagnostics, limit);
                    ProfileOutcome {
                        profile,
                        diagnostics,
                        not_shown,
                    }
                })
                .collect()
        })
        .collect()
}

/// Whether every chunk is accepted by at least one profile (parse and file errors reject all).
fn all_chunks_accepted(outcomes: &[Vec<ProfileOutcome<'_>>]) -> bool {
    outcomes
        .iter()
        .all(|chunk| chunk.iter().any(ProfileOutcome::accepted))
}

/// The human `--target all` report: per chunk (headed `chunk N:` with split input), one line per
/// profile, `accepted` or `rejected`, followed by one line per error of that profile,
/// `  error[E0207] file:line:col: message`. Returns the text and whether every chunk is accepted
/// by at least one profile.
pub(super) fn summary(
    file: &FileResult,
    name: &str,
    index: &LazyLines<'_>,
    split: bool,
    error_limit: usize,
) -> (String, bool) {
    let outcomes = outcomes(file, error_limit);
    let mut out = String::new();
    for (i, chunk) in outcomes.iter().enumerate() {
        if split {
            out.push_str(&format!("chunk {}:\n", i + 1));
        }
        for p in chunk {
            let verdict = if p.accepted() { "accepted" } else { "rejected" };
            out.push_str(&format!("{}: {verdict}\n", p.profile.as_str()));
            for d in p.shown().filter(|d| d.is_error()) {
                let (line, col) = index.line_col(d.span.start);
                out.push_str(&format!(
                    "  error[{}] {name}:{line}:{col}: {}\n",
                    d.code.as_str(),
                    d.message()
                ));
            }
        }
    }
    (out, all_chunks_accepted(&outcomes))
}

/// The JSON `--target all` report (one line): `{"profiles":[{"profile","accepted",
/// "diagnostics":[...]}]}`, or with split input `{"chunks":[{"chunk":N,"profiles":[...]}]}`; the
/// diagnostic objects are those of the normal JSON format, warnings and notes included (with
/// `--lower-check`, [`report_all`] adds `"lower_check"`). Returns the value and whether every
/// chunk is accepted by at least one profile.
fn summary_value(
    file: &FileResult,
    name: &str,
    index: &LazyLines<'_>,
    split: bool,
    error_limit: usize,
) -> (Value, bool) {
    let outcomes = outcomes(file, error_limit);
    let profiles = |chunk: &[ProfileOutcome<'_>]| -> Value {
        Value::Array(
            chunk
                .iter()
                .map(|p| {
                    json!({
                        "profile": p.profile.as_str(),
                        "accepted": p.accepted(),
                        "diagnostics": p.shown()
                            .map(|d| diagnostic_json(d, name, index))
                            .collect::<Vec<_>>(),
                    })
                })
                .collect(),
        )
    };
    let value = if split {
        let chunks: Vec<Value> = outcomes
            .iter()
            .enumerate()
            .map(|(i, chunk)| json!({ "chunk": i + 1, "profiles": profiles(chunk) }))
            .collect();
        json!({ "chunks": chunks })
    } else {
        // Without split input there is exactly one chunk.
        let first = outcomes
            .first()
            .map_or(Value::Array(Vec::new()), |c| profiles(c));
        json!({ "profiles": first })
    };
    (value, all_chunks_accepted(&outcomes))
}

/// The diagnostics that decide `chunk` on `p`, by position: file-level and parse diagnostics,
/// then those of that profile's verification.
fn chunk_diagnostics<'f>(
    file: &'f FileResult,
    chunk: &'f ChunkResult,
    p: Profile,
) -> Vec<&'f Diagnostic> {
    let mut diags: Vec<&Diagnostic> = file
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
        .collect();
    diags.sort_by_key(|d| (d.span.start, d.span.end));
    diags
}
