//! The pipeline over one input file: decode, split into chunks (`--split-input-file`), parse,
//! select the profile (CLI flag, else the `pto.target_arch` of each op's nearest module that has
//! one, else cpu; D-6), verify, and match
//! `expected-*` directives (`--verify-diagnostics`, syntax.md §8.3). Shared by the CLI, tests
//! and the benchmark. Never prints.
//!
//! Invariants: every span in a result is a byte offset into the original file (chunks are parsed
//! as slices with their base offset, §8.4); invalid UTF-8 yields exactly one `InvalidUtf8`
//! diagnostic and no chunks (never an I/O error); a chunk with parse errors is not verified
//! (D-27). [`read_source`] stops reading at the first invalid UTF-8 sequence and
//! [`display_text`] shows the offending bytes escaped.
//!
//! Cost: a file is read once into a buffer of its size ([`read_source_sized`]) and
//! [`check_owned`] moves that buffer into [`FileResult::text`]; the CLI holds a large input once.
//! A large regular file is mapped instead ([`SourceText::map_checked`], [`check_source`]): the
//! UTF-8 check and the parser give its pages back behind them, so it does not stay resident
//! (`source` module doc).
//!
//! Reporting: [`ChunkResult::shown_diagnostics`] caps a chunk's verification diagnostics as the
//! parser caps its errors ([`cap_shown`]); the results themselves keep every diagnostic (the
//! directive matcher needs them all).

mod directives;
mod source;

use std::ops::Range;

use crate::diag::{Code, Diagnostic, Span};
use crate::front::lexer::LexError;
use crate::front::InputFormat;
use crate::ir::Module;
use crate::target::Profile;

pub use crate::diag::lines::{LazyLines, LineIndex};
pub use directives::{find_directives, match_directives, Directive};
pub use source::{NotUtf8, SourceText, MAP_MIN};

/// Which profile(s) to verify against.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TargetChoice {
    /// `pto.target_arch` of each chunk's module, else `cpu`.
    Auto,
    Profile(Profile),
    /// Every profile; report which accept the file.
    All,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Options {
    pub target: TargetChoice,
    pub split_input: bool,
    pub format: InputFormat,
    /// Skip the verifier (fmt without checks).
    pub parse_only: bool,
    /// `--strict-ops`: a custom form of an unknown op is an error (E0008), not an opaque
    /// statement.
    pub strict_ops: bool,
    /// `--pto-level` (PTOAS's build level): at level3 memory planning is skipped and implicit
    /// tcvt tmps must be written (E0211, `verify::rules::check_plan_memory_skipped`).
    pub pto_level: crate::target::PtoLevel,
    /// `--defaults`: the toolchain whose defaults an omitted `satmode` / `rmode = NONE` take.
    /// `None` (no choice): pto-isa's, and a tcvt whose result depends on the choice gets W0208
    /// (`verify::rules::check_toolchain_defaults`).
    pub defaults: Option<crate::target::toolchain::Toolchain>,
}

/// Verification of one chunk against one profile.
#[derive(Debug)]
pub struct ProfileResult {
    pub profile: Profile,
    pub diagnostics: Vec<Diagnostic>,
}

impl ProfileResult {
    pub fn accepted(&self) -> bool {
        !self.diagnostics.iter().any(|d| d.is_error())
    }
}

/// One split chunk (the whole file without `--split-input-file`).
#[derive(Debug)]
pub struct ChunkResult {
    /// Byte range of the chunk in the original file.
    pub range: Range<usize>,
    pub module: Option<Module>,
    /// Lexical, syntax and parse-time diagnostics.
    pub parse_diagnostics: Vec<Diagnostic>,
    /// Empty when parsing failed (D-27); one entry per verified profile otherwise.
    pub verified: Vec<ProfileResult>,
}

impl ChunkResult {
    /// Whether parsing reported an error (or built no module).
    pub fn parse_failed(&self) -> bool {
        self.module.is_none() || self.parse_diagnostics.iter().any(|d| d.is_error())
    }

    /// The verification whose diagnostics count for this chunk's outcome and directives: the
    /// only one, or (with `--target all`) the profile `Auto` would have picked.
    pub fn primary(&self) -> Option<&ProfileResult> {
        if self.verified.len() == 1 {
            return self.verified.first();
        }
        let want = self.module.as_ref().map_or(Profile::Cpu, auto_profile);
        self.verified.iter().find(|r| r.profile == want)
    }

    /// [`Self::diagnostics`] as reported: the primary profile's verification capped by
    /// [`cap_shown`] at `limit` (`None`: all; the parser caps its own).
    pub fn shown_diagnostics(&self, limit: Option<ShownLimit>) -> Vec<Diagnostic> {
        let mut out = self.parse_diagnostics.clone();
        if let Some(p) = self.primary() {
            out.extend(cap_shown(p.diagnostics.clone(), limit));
        }
        out
    }

    /// Parse diagnostics followed by the primary profile's diagnostics.
    pub fn diagnostics(&self) -> impl Iterator<Item = &Diagnostic> {
        self.parse_diagnostics.iter().chain(
            self.primary()
                .into_iter()
                .flat_map(|r| r.diagnostics.iter()),
        )
    }
}

#[derive(Debug)]
pub struct FileResult {
    /// The decoded text (empty if the input was not UTF-8).
    pub text: SourceText,
    pub chunks: Vec<ChunkResult>,
    /// File-level diagnostics (invalid UTF-8).
    pub file_diagnostics: Vec<Diagnostic>,
}

impl FileResult {
    /// Whether any error was reported: file-level, parse, or by a chunk's primary profile.
    pub fn has_errors(&self) -> bool {
        self.file_diagnostics.iter().any(|d| d.is_error())
            || self
                .chunks
                .iter()
                .any(|c| c.diagnostics().any(|d| d.is_error()))
    }
}

/// How many of one chunk's verification diagnostics on one profile are shown ([`cap_shown`]);
/// the rest are counted. `verify --error-limit N` sets it (0: no limit).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ShownLimit {
    /// Errors shown (as the parser stops after 50 errors, E0016).
    pub errors: usize,
    /// Diagnostics of any severity shown.
    pub total: usize,
}

impl Default for ShownLimit {
    fn default() -> Self {
        ShownLimit::from_error_limit(50).unwrap_or(ShownLimit {
            errors: 50,
            total: 100,
        })
    }
}

impl ShownLimit {
    /// `N` errors and `2N` diagnostics in all; `None` (no limit) for 0.
    pub fn from_error_limit(n: usize) -> Option<ShownLimit> {
        (n > 0).then(|| ShownLimit {
            errors: n,
            total: n.saturating_mul(2),
        })
    }
}

/// The diagnostics [`cap_shown`] leaves out, counted by severity (E0016 `too-many-errors`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("too many diagnostics; {} of this chunk not shown", not_shown(*errors, *warnings, *notes))]
pub struct NotShown {
    pub errors: usize,
    pub warnings: usize,
    pub notes: usize,
}

fn not_shown(errors: usize, warnings: usize, notes: usize) -> String {
    let parts: Vec<String> = [(errors, "error"), (warnings, "warning"), (notes, "note")]
        .into_iter()
        .filter(|&(n, _)| n > 0)
        .map(|(n, what)| format!("{n} more {what}{}", if n == 1 { "" } else { "s" }))
        .collect();
    match parts.as_slice() {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

/// The capped count is a diagnostic of the driver's own.
impl From<NotShown> for crate::diag::DiagKind {
    fn from(e: NotShown) -> Self {
        crate::diag::DiagKind::cause(e)
    }
}

/// `diags` (one chunk's verification on one profile) as shown: by position, until `limit`'s
/// errors or diagnostics in all are shown (`None`: every one) (notes on the span of the
/// last one shown stay with it), then one E0016 [`NotShown`] at the first one left out, counting
/// the rest; an error if any of them is, else a warning or note. Rule diagnostics repeat per op,
/// so a file of 1,000 bad lines gives a bounded report. `--verify-diagnostics` matches the
/// whole list, never this.
pub fn cap_shown(mut diags: Vec<Diagnostic>, limit: Option<ShownLimit>) -> Vec<Diagnostic> {
    crate::diag::sort_by_position(&mut diags);
    let refs: Vec<&Diagnostic> = diags.iter().collect();
    let Some((cut, counted)) = shown_cut(&refs, limit) else {
        return diags;
    };
    diags.truncate(cut);
    diags.push(counted);
    diags
}

/// [`cap_shown`] over borrowed diagnostics already sorted by position: truncates `diags` and
/// returns the [`NotShown`] diagnostic, if any were left out.
pub fn cap_shown_refs(
    diags: &mut Vec<&Diagnostic>,
    limit: Option<ShownLimit>,
) -> Option<Diagnostic> {
    let (cut, counted) = shown_cut(diags, limit)?;
    diags.truncate(cut);
    Some(counted)
}

/// Where [`cap_shown`] cuts sorted `diags`, and the diagnostic counting the rest.
fn shown_cut(diags: &[&Diagnostic], limit: Option<ShownLimit>) -> Option<(usize, Diagnostic)> {
    use crate::diag::Severity;
    let limit = limit?;
    let mut errors = 0;
    let mut cut = None;
    for (i, d) in diags.iter().enumerate() {
        let with_last = i > 0
            && d.severity == Severity::Note
            && diags.get(i - 1).is_some_and(|p| p.span == d.span);
        if (errors >= limit.errors || i >= limit.total) && !with_last {
            cut = Some(i);
            break;
        }
        errors += usize::from(d.is_error());
    }
    let cut = cut?;
    let rest = diags.get(cut..).unwrap_or(&[]);
    let count = |sev: Severity| rest.iter().filter(|d| d.severity == sev).count();
    let (errors, warnings) = (count(Severity::Error), count(Severity::Warning));
    let counted = NotShown {
        errors,
        warnings,
        notes: rest.len() - errors - warnings,
    };
    let severity = if errors > 0 {
        Severity::Error
    } else if warnings > 0 {
        Severity::Warning
    } else {
        Severity::Note
    };
    let span = rest.first().map_or(Span::default(), |d| d.span);
    let d = Diagnostic::new(Code::TooManyErrors, counted, span).with_severity(severity);
    Some((cut, d))
}

/// The profile of `TargetChoice::Auto` for `module` (D-6): its `pto.target_arch` when that is a
/// known string, else `cpu`. (An unknown arch is diagnosed by the parser/verifier.) Ops inside
/// nested modules are verified on [`auto_profile_in`] of their region.
pub fn auto_profile(module: &Module) -> Profile {
    module
        .target_arch()
        .and_then(Profile::from_target_arch)
        .unwrap_or(Profile::Cpu)
}

/// The profile of `TargetChoice::Auto` for the ops of `region`: the `pto.target_arch` of the
/// nearest enclosing module that has one (inner modules inherit it), when that is a known string,
/// else `cpu`.
pub fn auto_profile_in(module: &Module, region: crate::ir::RegionId) -> Profile {
    module
        .target_arch_in(region)
        .and_then(Profile::from_target_arch)
        .unwrap_or(Profile::Cpu)
}

/// The profile `choice` runs `op` on: the CLI's, else the one of `op`'s module
/// ([`auto_profile_in`]; `--target all` runs every profile, this is its primary one).
pub fn profile_of_op(choice: TargetChoice, module: &Module, op: crate::ir::OpId) -> Profile {
    match choice {
        TargetChoice::Profile(p) => p,
        TargetChoice::Auto => module
            .ops
            .get(op.0 as usize)
            .map_or(Profile::Cpu, |d| auto_profile_in(module, d.parent)),
        TargetChoice::All => auto_profile(module),
    }
}

/// D-6 (revised): an unknown `pto.target_arch` string, in any module of the chunk, is a warning
/// naming the profile used instead: the CLI target, else cpu (`--target all` verifies every
/// profile; its primary one is cpu). Non-string values are a parse error (E0201). An alias
/// (`a6`, verified as a5) gets a note (N0206).
pub fn target_arch_warnings(module: &Module, choice: TargetChoice) -> Vec<Diagnostic> {
    let using = match choice {
        TargetChoice::Profile(p) => p,
        TargetChoice::Auto | TargetChoice::All => Profile::Cpu,
    };
    module
        .target_archs()
        .into_iter()
        .filter_map(|(arch, span)| match arch {
            crate::ir::Attr::Str(arch) if Profile::from_target_arch(arch).is_none() => {
                Some(Diagnostic::new(
                    Code::UnknownTargetArch,
                    crate::front::error::ParseError::UnknownTargetArch {
                        value: arch.to_string(),
                        using: using.as_str().to_string(),
                    },
                    span,
                ))
            }
            crate::ir::Attr::Str(arch) => Profile::arch_alias_of(arch).map(|p| {
                Diagnostic::new(
                    Code::TargetArchAlias,
                    crate::front::error::ParseError::TargetArchAlias {
                        value: arch.to_string(),
                        profile: p.as_str().to_string(),
                    },
                    span,
                )
            }),
            _ => None,
        })
        .collect()
}

/// The profiles `choice` selects for `module`.
pub fn profiles_for(choice: TargetChoice, module: &Module) -> Vec<Profile> {
    match choice {
        TargetChoice::Auto => vec![auto_profile(module)],
        TargetChoice::Profile(p) => vec![p],
        TargetChoice::All => Profile::ALL.to_vec(),
    }
}

/// How many bytes from the first invalid UTF-8 byte on are kept by [`read_source`] and shown
/// (escaped) by [`display_text`].
pub const INVALID_SHOWN: usize = 16;

/// Reads a source file from `reader`, stopping at the first invalid UTF-8 sequence: the result
/// is the whole input when it is UTF-8, else its valid prefix followed by at most
/// [`INVALID_SHOWN`] bytes from the first invalid one. [`decode`] reports the same diagnostic
/// on the result as on the whole input, and the rest is never read: a large binary file costs
/// what its first bytes cost. Each byte is validated once.
pub fn read_source(reader: &mut dyn std::io::Read) -> std::io::Result<Vec<u8>> {
    read_source_sized(reader, 0)
}

/// [`read_source`] with the expected size (a regular file's length; 0 if unknown): the buffer is
/// allocated once for it, so a file is read into place without regrowing or copying.
pub fn read_source_sized(
    reader: &mut dyn std::io::Read,
    expected: usize,
) -> std::io::Result<Vec<u8>> {
    const BLOCK: usize = 64 * 1024;
    // One block more than expected: reading the end of the file needs room for a 0-byte read.
    let mut buf: Vec<u8> = Vec::with_capacity(expected.saturating_add(BLOCK));
    // Bytes before `checked` are valid UTF-8.
    let mut checked = 0;
    loop {
        let len = buf.len();
        buf.resize(len + BLOCK, 0);
        let n = match reader.read(&mut buf[len..]) {
            Ok(n) => n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => 0,
            Err(e) => return Err(e),
        };
        buf.truncate(len + n);
        match std::str::from_utf8(&buf[checked..]) {
            Ok(_) => checked = buf.len(),
            Err(e) => {
                let at = checked + e.valid_up_to();
                if e.error_len().is_some() || buf.len() - at >= INVALID_SHOWN {
                    // A definite error: keep what `decode` and `display_text` look at.
                    buf.truncate(buf.len().min(at + INVALID_SHOWN));
                    if buf.len() >= at + INVALID_SHOWN || n == 0 {
                        return Ok(buf);
                    }
                    // Fill up to INVALID_SHOWN bytes after the error, then stop.
                    let mut more = vec![0; at + INVALID_SHOWN - buf.len()];
                    let got = read_some(reader, &mut more)?;
                    buf.extend_from_slice(&more[..got]);
                    return Ok(buf);
                }
                // An incomplete sequence at the end of what was read: wait for more bytes.
                checked = at;
            }
        }
        if n == 0 {
            return Ok(buf);
        }
    }
}

/// Reads until `out` is full or the input ends; returns how many bytes were read.
fn read_some(reader: &mut dyn std::io::Read, out: &mut [u8]) -> std::io::Result<usize> {
    let mut got = 0;
    while got < out.len() {
        match reader.read(&mut out[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// The text diagnostics of `bytes` are shown against: the text itself when it is UTF-8, else
/// its valid prefix followed by the rest of that line's first [`INVALID_SHOWN`] bytes from the
/// first invalid one, each non-ASCII or control byte escaped as `\xFF` (never raw bytes or
/// replacement characters). Offsets before the first invalid byte are those of the file, so
/// the `InvalidUtf8` diagnostic keeps its line and column.
pub fn display_text(bytes: &[u8]) -> std::borrow::Cow<'_, str> {
    let at = match std::str::from_utf8(bytes) {
        Ok(text) => return std::borrow::Cow::Borrowed(text),
        Err(e) => e.valid_up_to(),
    };
    let valid = std::str::from_utf8(&bytes[..at]).unwrap_or_default();
    let mut out = String::with_capacity(at + 4 * INVALID_SHOWN);
    out.push_str(valid);
    for &b in bytes[at..].iter().take(INVALID_SHOWN) {
        if b == b'\n' {
            break;
        }
        if b.is_ascii_graphic() || b == b' ' {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("\\x{b:02X}"));
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Decodes `bytes` as UTF-8; on failure, the one `InvalidUtf8` diagnostic at the first bad byte.
pub fn decode(bytes: &[u8]) -> Result<&str, Box<Diagnostic>> {
    std::str::from_utf8(bytes).map_err(|e| {
        let at = e.valid_up_to();
        let len = e
            .error_len()
            .unwrap_or(bytes.len().saturating_sub(at))
            .max(1);
        Box::new(Diagnostic::new(
            Code::InvalidUtf8,
            LexError::InvalidUtf8,
            Span::new(at, (at + len).min(bytes.len().max(at))),
        ))
    })
}

/// Byte ranges of the chunks of `text` (§8.4): split on lines that are exactly `// -----`,
/// ignoring trailing spaces and tabs; marker lines (with their `\n`) belong to no chunk.
/// Without `split`, one chunk covering everything.
pub fn split_chunks(text: &str, split: bool) -> Vec<Range<usize>> {
    if !split {
        let whole = 0..text.len();
        return vec![whole];
    }
    let mut chunks = Vec::new();
    let mut chunk_start = 0;
    let mut line_start = 0;
    while line_start <= text.len() {
        let line_end = text[line_start..]
            .find('\n')
            .map_or(text.len(), |n| line_start + n);
        let line = &text[line_start..line_end];
        let next = (line_end + 1).min(text.len() + 1);
        if line.trim_end_matches([' ', '\t']) == "// -----" {
            chunks.push(chunk_start..line_start);
            chunk_start = next.min(text.len());
        }
        if line_end >= text.len() {
            break;
        }
        line_start = next;
    }
    chunks.push(chunk_start..text.len());
    chunks
}

/// Parses and verifies one chunk of `text`; `consumed` is told how far the parser has read
/// (absolute offsets).
fn check_chunk(
    text: &str,
    range: Range<usize>,
    opts: &Options,
    consumed: Option<&dyn Fn(usize)>,
    release: Option<&(dyn Fn(usize, usize) + Sync)>,
) -> ChunkResult {
    let chunk = text.get(range.clone()).unwrap_or("");
    let parsed = crate::front::parse_module_paged(
        chunk,
        range.start,
        opts.format,
        opts.strict_ops,
        consumed,
        release,
    );
    let mut result = ChunkResult {
        range,
        module: parsed.module,
        parse_diagnostics: parsed.diagnostics,
        verified: Vec::new(),
    };
    let warnings = result
        .module
        .as_ref()
        .map(|m| target_arch_warnings(m, opts.target))
        .unwrap_or_default();
    if !warnings.is_empty() {
        result.parse_diagnostics.extend(warnings);
        crate::diag::sort_by_position(&mut result.parse_diagnostics);
    }
    // spec: D-27 (no verification after parse errors)
    if opts.parse_only || result.parse_failed() {
        return result;
    }
    if let Some(module) = &result.module {
        result.verified = match opts.target {
            // Each op on the profile of its nearest module (D-6 with nested modules).
            TargetChoice::Auto => vec![ProfileResult {
                profile: auto_profile(module),
                diagnostics: crate::verify::verify_module_with(module, &|op| {
                    profile_of_op(TargetChoice::Auto, module, op)
                }),
            }],
            choice => profiles_for(choice, module)
                .into_iter()
                .map(|profile| ProfileResult {
                    profile,
                    diagnostics: crate::verify::verify_module(module, profile),
                })
                .collect(),
        };
        if opts.defaults.is_none() {
            for r in &mut result.verified {
                let profile = r.profile;
                let profile_of = |op| match opts.target {
                    TargetChoice::Auto => profile_of_op(TargetChoice::Auto, module, op),
                    _ => profile,
                };
                crate::verify::rules::check_toolchain_defaults(
                    module,
                    &profile_of,
                    &mut r.diagnostics,
                );
            }
        }
        if !opts.pto_level.plans_memory() {
            for r in &mut result.verified {
                let profile = r.profile;
                let profile_of = |op| match opts.target {
                    TargetChoice::Auto => profile_of_op(TargetChoice::Auto, module, op),
                    _ => profile,
                };
                crate::verify::rules::check_plan_memory_skipped(
                    module,
                    &profile_of,
                    &Default::default(),
                    &mut r.diagnostics,
                );
            }
        }
    }
    result
}

/// Runs parse (+ verify unless `parse_only`) over `bytes`. `FileResult::text` is a copy of
/// `bytes`; [`check_owned`] moves them instead.
pub fn check_file(bytes: &[u8], opts: &Options) -> FileResult {
    let text = match decode(bytes) {
        Ok(text) => text,
        Err(diag) => return undecodable(*diag),
    };
    let chunks = check_chunks(text, opts, None);
    FileResult {
        text: text.to_string().into(),
        chunks,
        file_diagnostics: Vec::new(),
    }
}

/// [`check_file`] on bytes the caller gives away: the text is validated once and moved into
/// `FileResult::text`, never copied (the CLI reads files of hundreds of MB). For input that is
/// not UTF-8, also returns the text its diagnostic is shown against ([`display_text`]).
pub fn check_owned(bytes: Vec<u8>, opts: &Options) -> (FileResult, Option<String>) {
    match String::from_utf8(bytes) {
        Ok(text) => {
            let chunks = check_chunks(&text, opts, None);
            let file = FileResult {
                text: text.into(),
                chunks,
                file_diagnostics: Vec::new(),
            };
            (file, None)
        }
        Err(e) => {
            let bytes = e.into_bytes();
            let file = match decode(&bytes) {
                Err(diag) => undecodable(*diag),
                // Unreachable (`from_utf8` failed); a clean result keeps this total.
                Ok(text) => FileResult {
                    chunks: check_chunks(text, opts, None),
                    text: text.to_string().into(),
                    file_diagnostics: Vec::new(),
                },
            };
            (file, Some(display_text(&bytes).into_owned()))
        }
    }
}

/// [`check_owned`] on an already decoded text, typically a mapped file: the parser releases
/// the pages it has read (`SourceText::release_before`).
pub fn check_source(text: SourceText, opts: &Options) -> FileResult {
    let ranges = split_chunks(&text, opts.split_input);
    if opts.split_input {
        // Looking for `// -----` lines read the whole text.
        text.release_range(0, text.len());
    }
    let chunks = {
        let consumed = |at: usize| text.release_before(at);
        let release = text.range_releaser();
        ranges
            .into_iter()
            .map(|range| check_chunk(&text, range, opts, Some(&consumed), Some(&release)))
            .collect()
    };
    FileResult {
        text,
        chunks,
        file_diagnostics: Vec::new(),
    }
}

fn undecodable(diag: Diagnostic) -> FileResult {
    FileResult {
        text: String::new().into(),
        chunks: Vec::new(),
        file_diagnostics: vec![diag],
    }
}

fn check_chunks(text: &str, opts: &Options, consumed: Option<&dyn Fn(usize)>) -> Vec<ChunkResult> {
    split_chunks(text, opts.split_input)
        .into_iter()
        .map(|range| check_chunk(text, range, opts, consumed, None))
        .collect()
}

/// `ptoc fmt`: the canonical text of every chunk, joined by `// -----` lines (§7.1), or the
/// parse result when any chunk failed to parse or is structurally broken (see [`print_file`]).
pub fn format_file(bytes: &[u8], opts: &Options) -> Result<String, FileResult> {
    let opts = Options {
        parse_only: true,
        ..*opts
    };
    let file = check_file(bytes, &opts);
    match print_file(&file) {
        Ok(text) => Ok(text),
        Err(_) => Err(file),
    }
}

/// Prints an already parsed file in canonical form, chunks joined by `// -----`. Fails with the
/// blocking diagnostics (file, parse and structural errors, sorted by position) when the text
/// could not be printed so that it parses back to the same meaning: a module with undefined
/// values, redefinitions or type mismatches is not printed. Target rules do not block.
pub fn print_file(file: &FileResult) -> Result<String, Vec<Diagnostic>> {
    let mut blocking: Vec<Diagnostic> = file.file_diagnostics.clone();
    for chunk in &file.chunks {
        blocking.extend(chunk.parse_diagnostics.iter().cloned());
        if let (false, Some(module)) = (chunk.parse_failed(), &chunk.module) {
            crate::verify::structure::check(module, &mut blocking);
        }
    }
    if blocking.iter().any(Diagnostic::is_error) {
        crate::diag::sort_by_position(&mut blocking);
        return Err(blocking);
    }
    let mut out = String::new();
    for (i, chunk) in file.chunks.iter().enumerate() {
        if i > 0 {
            out.push_str("// -----\n");
        }
        if let Some(module) = &chunk.module {
            out.push_str(&crate::ir::printer::print_module(module));
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(text: &str, split: bool) -> Vec<&str> {
        split_chunks(text, split)
            .into_iter()
            .map(|r| &text[r])
            .collect()
    }

    #[test]
    fn split_on_exact_marker_lines() {
        let t = "a\n// -----\nb\n// ----- \t\nc\n";
        assert_eq!(texts(t, true), vec!["a\n", "b\n", "c\n"]);
        assert_eq!(texts(t, false), vec![t]);
        // Not a marker: leading space, extra dash, trailing text.
        let t = "a\n // -----\n// ------\n// ----- x\n";
        assert_eq!(texts(t, true), vec![t]);
        // Marker at the very start and at the very end without newline.
        assert_eq!(texts("// -----\nx\n// -----", true), vec!["", "x\n", ""]);
    }

    /// The escaped bytes of undecodable input are what the renderer underlines.
    #[test]
    fn invalid_utf8_underlines_the_escaped_bytes() {
        let d = Diagnostic::new(Code::InvalidUtf8, LexError::InvalidUtf8, Span::new(3, 4));
        let shown = display_text(b"mod\xFF\xFEx\n");
        assert_eq!(shown, "mod\\xFF\\xFEx");
        let out = crate::diag::render::render_human(&[d], "b.bin", &shown, false);
        assert!(out.contains("1 │ mod\\xFF\\xFEx"), "{out}");
        assert!(out.contains("──┬─"), "{out}");
    }

    /// `check_owned` moves the text and agrees with `check_file`, decodable or not.
    #[test]
    fn check_owned_agrees_with_check_file() {
        let opts = Options {
            target: TargetChoice::Auto,
            split_input: true,
            format: InputFormat::Pto,
            parse_only: false,
            strict_ops: false,
            pto_level: Default::default(),
            defaults: Some(crate::target::toolchain::Toolchain::PtoIsa),
        };
        for input in [
            &b"module {}\n// -----\nmodule { %x = }\n"[..],
            b"mod\xff\xfe rest\nmore",
            b"",
        ] {
            let by_ref = check_file(input, &opts);
            let (owned, shown) = check_owned(input.to_vec(), &opts);
            assert_eq!(owned.text, by_ref.text);
            assert_eq!(
                format!("{:?}", owned.chunks),
                format!("{:?}", by_ref.chunks)
            );
            assert_eq!(owned.file_diagnostics, by_ref.file_diagnostics);
            let want = std::str::from_utf8(input)
                .is_err()
                .then(|| display_text(input).into_owned());
            assert_eq!(shown, want);
        }
        let text = String::from("module {}\n");
        let ptr = text.as_ptr();
        let (owned, _) = check_owned(text.into_bytes(), &opts);
        assert_eq!(owned.text.as_ptr(), ptr, "the text is moved, not copied");
    }

    #[test]
    fn invalid_utf8_is_one_diagnostic_at_the_first_bad_byte() {
        let r = check_file(
            b"module {}\n\xff\xfe",
            &Options {
                target: TargetChoice::Auto,
                split_input: false,
                format: InputFormat::Pto,
                parse_only: false,
                strict_ops: false,
                pto_level: Default::default(),
                defaults: Some(crate::target::toolchain::Toolchain::PtoIsa),
            },
        );
        assert!(r.chunks.is_empty());
        assert_eq!(r.file_diagnostics.len(), 1);
        assert_eq!(r.file_diagnostics[0].code, Code::InvalidUtf8);
        assert_eq!(r.file_diagnostics[0].span.start, 10);
        assert!(r.has_errors());
    }
}
