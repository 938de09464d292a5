//! `ptoc cast`: elementwise conversion of a whole data file with the reference semantics
//! (issue 3).
//!
//! ```text
//! ptoc cast --from T --to T [--rmode M] [--sat on|off] [--target cpu|a2a3|a2|a3|a5|all] IN OUT
//! ```
//! - The effective rounding, saturation and float→int path come from `target::resolve` (§3.7)
//!   on the chosen profile (default cpu), exactly as for a `pto.tcvt` without tmp whose
//!   `rmode`/`satmode` attributes are the flags (omitted flag = omitted attribute). Resolution
//!   warnings are printed on stderr as `warning[Wxxxx]: ...`.
//! - IN/OUT formats by extension (`exec::dataio`): `.npy`, else raw little-endian `.bin`. An
//!   `.npy` OUT keeps IN's shape when IN is `.npy` (packing changes halve/double the fastest
//!   axis, see `dataio::result_layout`; packing an array of two or more axes whose fastest axis
//!   is odd is a usage error, as its shape could not be kept), else is 1-D.
//! - `--target all`: converts on every profile that accepts the pair, writes OUT from the **cpu**
//!   result (cpu is the reference profile and accepts every pair), and prints on stdout one line
//!   per profile with its effective parameters, then the number of elements whose results differ
//!   and the first few (index, input, each profile's output; hex and decimal).
//! - The file is streamed (`exec::stream`): chunks of [`CHUNK`] elements are read, converted
//!   with `Converter::convert_slice_par` and written, so memory stays small whatever the size;
//!   consequently OUT must not be IN (refused before anything is written). A progress bar is
//!   drawn on stderr only when it is a terminal and the file is large.
//! - Exit status: 0 done (warnings allowed); 1 an error about the conversion or the data, with
//!   its code (`ptoc: error[E0207]: ...`: pair not accepted by the profile, the message naming
//!   the profiles that accept it; H rounding N0302; a file whose size is not whole elements
//!   E0802; a `.npy` header, dtype or data size that does not fit E0804); 2 usage or I/O error
//!   (`ptoc: error: ...`: unknown type or mode name, unreadable/unwritable file, OUT = IN).
//!
//! Invariants: never panics on any input; nothing but the `--target all` report goes to stdout.

use std::path::PathBuf;

use pto_runtime::convert::storage_len;
use pto_runtime::{ConvSpec, Converter, ElemType};

use super::args::TargetArg;
use super::{Io, EXIT_ERRORS, EXIT_OK, EXIT_USAGE};
use crate::exec::dataio;
use crate::exec::diff::{compare, DiffReport};
use crate::exec::progress::Progress;
use crate::exec::spec::{parse_elem, parse_rmode, render_resolve_diag};
use crate::exec::stream::{ElemReader, ElemWriter};
use crate::exec::ExecError;
use crate::target::tcvt::{pair_class, PairClass, Sat};
use crate::target::Profile;

/// How many differing elements `--target all` lists.
const DIFF_EXAMPLES: usize = 8;
/// Elements per chunk: even (packed chunks start on a byte), small enough that the buffers stay
/// in cache-friendly sizes, large enough to amortise the rayon split.
const CHUNK: usize = 1 << 20;

#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum SatArg {
    On,
    Off,
}

#[derive(Debug, clap::Args)]
pub struct CastArgs {
    /// Source element type (f32 f16 bf16 f8E4M3FN f8E5M2 hif8 f4E2M1x2 f4E1M2x2 s4x2 i8 ui8 i16 ui16 i32 ui32 i64).
    #[arg(long = "from", value_name = "TYPE")]
    pub from: String,
    /// Destination element type.
    #[arg(long = "to", value_name = "TYPE")]
    pub to: String,
    /// Rounding mode (NONE RINT ROUND FLOOR CEIL TRUNC ODD CAST_RINT); default: the profile's (RINT unless forced).
    #[arg(long, value_name = "MODE")]
    pub rmode: Option<String>,
    /// Saturation; default: the profile's default for the pair.
    #[arg(long, value_enum, ignore_case = true)]
    pub sat: Option<SatArg>,
    /// Profile; `all` converts on every profile accepting the pair and reports differences.
    #[arg(long, value_enum, default_value_t = TargetArg::Cpu)]
    pub target: TargetArg,
    /// Toolchain whose defaults an omitted --sat and --rmode NONE take (default pto-isa).
    #[arg(long, value_enum)]
    pub defaults: Option<super::args::DefaultsArg>,
    /// Input file (.npy, else raw little-endian).
    pub input: PathBuf,
    /// Output file (.npy, else raw little-endian).
    pub output: PathBuf,
}

fn fail(io: &mut Io<'_>, e: &ExecError) -> u8 {
    io.err(&super::error_line(e.code(), &e.to_string()));
    if e.is_usage() {
        EXIT_USAGE
    } else {
        EXIT_ERRORS
    }
}

pub fn run(args: &CastArgs, io: &mut Io<'_>) -> u8 {
    match cast(args, io) {
        Ok(()) => EXIT_OK,
        Err(e) => fail(io, &e),
    }
}

/// One profile's prepared conversion.
struct Job {
    profile: Profile,
    spec: ConvSpec,
    conv: Converter,
}

fn cast(args: &CastArgs, io: &mut Io<'_>) -> Result<(), ExecError> {
    let src = parse_elem(&args.from)?;
    let dst = parse_elem(&args.to)?;
    let rmode = args.rmode.as_deref().map(parse_rmode).transpose()?;
    let sat = args.sat.map(|s| match s {
        SatArg::On => Sat::On,
        SatArg::Off => Sat::Off,
    });
    if let Some(note) = args.target.alias_note() {
        io.err(&note);
    }
    let all = args.target == TargetArg::All;
    let profiles: Vec<Profile> = match args.target {
        TargetArg::All => crate::target::tcvt::profiles_supporting(src, dst),
        TargetArg::Cpu => vec![Profile::Cpu],
        TargetArg::A2a3 | TargetArg::A2 | TargetArg::A3 => vec![Profile::A2a3],
        TargetArg::A5 | TargetArg::A6 => vec![Profile::A5],
    };

    // Resolve first: a rejected pair fails before any large file is read.
    let mut jobs = Vec::new();
    for &profile in &profiles {
        // Messages name the types as given (`s4x2`, `!pto.s4x2`); parse_elem accepted them, so
        // they are short known spellings.
        let (from, to) = (args.from.as_str(), args.to.as_str());
        let (spec, diags) = crate::exec::defaults::conv_spec_for(
            args.defaults.map(|d| d.toolchain()).unwrap_or_default(),
            profile,
            src,
            dst,
            rmode,
            sat,
            false,
        )
        .map_err(|e| e.spelled(from, to))?;
        for d in &diags {
            io.err(&format!("{}\n", render_resolve_diag(d, profile, from, to)));
        }
        let conv = Converter::new(spec)?;
        jobs.push(Job {
            profile,
            spec,
            conv,
        });
    }

    let mut reader = ElemReader::open(&args.input, src)?;
    // Streaming: OUT is truncated before IN is read, so they must differ.
    if let (Ok(a), Ok(b)) = (args.input.canonicalize(), args.output.canonicalize()) {
        if a == b {
            return Err(ExecError::SameFile { path: b });
        }
    }
    let count = reader.count;
    let layout = dataio::result_layout(reader.layout.as_ref(), src, dst, count)
        .map_err(|e| e.spelled(&args.from, &args.to))?;
    // OUT holds the only result, or the cpu one for --target all (cpu accepts every pair).
    let out_job = jobs
        .iter()
        .position(|j| !all || j.profile == Profile::Cpu)
        .unwrap_or(0);
    let writer = ElemWriter::create(&args.output, dst, count, Some(&layout))?;
    let mut report = DiffReport::empty(
        src,
        dst,
        jobs.iter().map(|j| j.profile.as_str()).collect(),
        count,
    );
    let compare_all = all && jobs.len() > 1;
    if let Err(e) = stream(
        &mut reader,
        writer,
        &jobs,
        out_job,
        compare_all.then_some(&mut report),
    ) {
        // Leave no truncated OUT behind.
        let _ = std::fs::remove_file(&args.output);
        return Err(e);
    }
    if all {
        report_all(io, src, dst, &jobs, &report);
    }
    Ok(())
}

/// Reads, converts (every job) and writes chunk by chunk; with `report`, compares the jobs'
/// results of every chunk into it.
fn stream(
    reader: &mut ElemReader,
    mut writer: ElemWriter,
    jobs: &[Job],
    out_job: usize,
    mut report: Option<&mut DiffReport>,
) -> Result<(), ExecError> {
    let (src, dst) = (
        reader.elem,
        jobs.first().map_or(reader.elem, |j| j.spec.dst),
    );
    let progress = Progress::for_elements(reader.count as u64, "converting");
    let mut inbuf = Vec::new();
    let mut outs: Vec<Vec<u8>> = vec![Vec::new(); jobs.len()];
    let mut start = 0;
    while reader.remaining() > 0 {
        let n = CHUNK.min(reader.remaining());
        reader.read_next(n, &mut inbuf)?;
        for (job, out) in jobs.iter().zip(outs.iter_mut()) {
            out.clear();
            out.resize(storage_len(dst, n), 0);
            job.conv.convert_slice_par(&inbuf, out, n)?;
        }
        if let Some(out) = outs.get(out_job) {
            writer.write_next(out)?;
        }
        if let Some(report) = report.as_deref_mut() {
            let labelled: Vec<(&str, &[u8])> = jobs
                .iter()
                .zip(&outs)
                .map(|(j, o)| (j.profile.as_str(), o.as_slice()))
                .collect();
            let chunk = compare(src, &inbuf, dst, &labelled, n, DIFF_EXAMPLES)?;
            report.merge(chunk, start, DIFF_EXAMPLES);
        }
        progress.inc(n as u64);
        start += n;
    }
    progress.finish();
    writer.finish()
}

/// The `--target all` report on stdout.
fn report_all(io: &mut Io<'_>, src: ElemType, dst: ElemType, jobs: &[Job], report: &DiffReport) {
    let fi = pair_class(src, dst) == PairClass::FloatToInt;
    let mut text = String::new();
    for job in jobs {
        let s = job.spec;
        text.push_str(&format!(
            "{}: rmode {}, sat {}{}\n",
            job.profile,
            s.rounding.name(),
            if s.sat { "ON" } else { "OFF" },
            if fi && !s.sat {
                format!(", path {}", path_name(s.path))
            } else {
                String::new()
            }
        ));
    }
    let rejecting: Vec<&str> = Profile::ALL
        .iter()
        .filter(|p| !jobs.iter().any(|j| j.profile == **p))
        .map(|p| p.as_str())
        .collect();
    if !rejecting.is_empty() {
        text.push_str(&format!(
            "not supported on {} ({} -> {})\n",
            rejecting.join(", "),
            src,
            dst
        ));
    }
    if jobs.len() < 2 {
        text.push_str("only one profile accepts the pair: nothing to compare\n");
    } else {
        text.push_str(&report.render());
    }
    text.push_str("output written from the cpu result\n");
    io.out(&text);
}

fn path_name(p: pto_runtime::NonSatPath) -> &'static str {
    match p {
        pto_runtime::NonSatPath::X86 => "X86",
        pto_runtime::NonSatPath::Native => "NATIVE",
        pto_runtime::NonSatPath::Torch => "TORCH",
    }
}
