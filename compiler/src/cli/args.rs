//! The command-line grammar (clap derive), exactly the interface of the CLI contract:
//! `verify`, `fmt`, `explain`; `cast`, `run` and `sim` keep their argument structs beside their
//! implementations (`cli/cast.rs`, `cli/run.rs`, `cli/sim.rs`). Parsing only; `cli::run` acts on the result.

use std::path::PathBuf;

use clap::{Parser, Subcommand, ValueEnum};

use crate::driver::TargetChoice;
use crate::front::InputFormat;
use crate::target::Profile;

#[derive(Debug, Parser)]
#[command(
    name = "ptoc",
    version,
    about = "Front end and verifier for the PTO dialect's conversion ops (pto.tcvt, pto.vcvt)"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Parse and verify FILE; diagnostics on stderr (human) or stdout (json).
    Verify(VerifyArgs),
    /// Print FILE in canonical form on stdout (chunks joined by `// -----`).
    Fmt(FmtArgs),
    /// Explain a diagnostic code (E0207) or name (tcvt-pair-unsupported).
    Explain {
        /// The code or its name.
        code: String,
    },
    /// Convert a whole file elementwise with the reference semantics (.bin or .npy).
    Cast(super::cast::CastArgs),
    /// Run a function of a PTO file on data with the reference interpreter.
    Run(super::run::RunArgs),
    /// Run a Tensix SFPU program on the simulator over a Dest image.
    Sim(super::sim::SimArgs),
    /// Lower every pto.tcvt of FILE to a proven Tensix SFPU kernel (asm, llk or sfpi).
    Lower(super::lower::LowerArgs),
    /// Prove the Tensix kernels of FILE (or a lowered listing) bit-exact on the simulator.
    Prove(super::lower::ProveArgs),
}

/// `--defaults`: the toolchain whose defaults an omitted `satmode` and `rmode = NONE` take
/// (`target::toolchain`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum DefaultsArg {
    /// pto-isa's C++ API: the per-pair defaults of semantics.md (ptoc's behaviour without the flag).
    #[value(name = "pto-isa")]
    PtoIsa,
    /// PTOAS up to v0.61: omitted satmode is OFF, NONE is RINT.
    #[value(name = "ptoas-0.61")]
    Ptoas061,
    /// PTOAS v0.63: omitted satmode is ON, NONE is RINT.
    #[value(name = "ptoas-0.63")]
    Ptoas063,
}

impl DefaultsArg {
    pub fn toolchain(self) -> crate::target::toolchain::Toolchain {
        use crate::target::toolchain::Toolchain;
        match self {
            DefaultsArg::PtoIsa => Toolchain::PtoIsa,
            DefaultsArg::Ptoas061 => Toolchain::Ptoas061,
            DefaultsArg::Ptoas063 => Toolchain::Ptoas063,
        }
    }
}

#[derive(Debug, clap::Args)]
pub struct VerifyArgs {
    /// Profile to verify against; default: the module's pto.target_arch, else cpu.
    /// `--pto-arch` is PTOAS's spelling of the same flag.
    #[arg(long, value_enum, alias = "pto-arch")]
    pub target: Option<TargetArg>,
    /// PTOAS's build level (default level2). At level3 PTOAS skips memory planning, so a
    /// non-saturating narrowing a2a3 tcvt must carry its tmp (E0211).
    #[arg(long, value_enum, ignore_case = true)]
    pub pto_level: Option<PtoLevelArg>,
    /// Toolchain whose defaults an omitted satmode / rmode NONE take; without it, a tcvt whose
    /// result depends on that choice is warned about (W0208).
    #[arg(long, value_enum)]
    pub defaults: Option<DefaultsArg>,
    /// How diagnostics are written.
    #[arg(long, value_enum, default_value_t = ErrorFormat::Human)]
    pub error_format: ErrorFormat,
    /// Show at most N verification errors per chunk (and 2N diagnostics in all), then one E0016
    /// counting the rest; 0: no limit (for tools reading the JSON).
    #[arg(long, value_name = "N", default_value_t = 50)]
    pub error_limit: usize,
    /// A custom form of an op ptoc does not know is an error (E0008) instead of an opaque
    /// statement kept as written.
    #[arg(long)]
    pub strict_ops: bool,
    /// Check MLIR-style expected-* directives instead of reporting diagnostics.
    #[arg(long)]
    pub verify_diagnostics: bool,
    /// Split the input on `// -----` lines; each chunk is an independent module.
    #[arg(long)]
    pub split_input_file: bool,
    /// Input syntax; default: by extension (.ptoasm → ptoasm), else pto.
    #[arg(long, value_enum)]
    pub input_format: Option<FormatArg>,
    /// Also check that every conversion can be lowered to this backend (E07xx diagnostics;
    /// no code is emitted).
    #[arg(long, value_enum)]
    pub lower_check: Option<LowerCheck>,
    /// Input file, or '-' for stdin.
    pub file: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum LowerCheck {
    /// Tenstorrent Tensix SFPU (`ptoc lower --target tensix`).
    Tensix,
}

#[derive(Debug, clap::Args)]
pub struct FmtArgs {
    /// A custom form of an op ptoc does not know is an error (E0008) instead of an opaque
    /// statement kept as written.
    #[arg(long)]
    pub strict_ops: bool,
    /// Split the input on `// -----` lines; chunks are printed joined by `// -----`.
    #[arg(long)]
    pub split_input_file: bool,
    /// Input syntax; default: by extension (.ptoasm → ptoasm), else pto.
    #[arg(long, value_enum)]
    pub input_format: Option<FormatArg>,
    /// Input file, or '-' for stdin.
    pub file: PathBuf,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum TargetArg {
    Cpu,
    A2a3,
    /// Alias of a2a3.
    A2,
    /// Alias of a2a3.
    A3,
    A5,
    /// The name PTOAS forks give an a5 variant: the a5 rules, with a note saying so.
    A6,
    /// Every profile: print which accept the input.
    All,
}

/// `--pto-level`, spelled as PTOAS spells it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum PtoLevelArg {
    Level1,
    Level2,
    Level3,
}

impl PtoLevelArg {
    pub fn level(self) -> crate::target::PtoLevel {
        match self {
            PtoLevelArg::Level1 => crate::target::PtoLevel::Level1,
            PtoLevelArg::Level2 => crate::target::PtoLevel::Level2,
            PtoLevelArg::Level3 => crate::target::PtoLevel::Level3,
        }
    }
}

impl TargetArg {
    pub fn choice(self) -> TargetChoice {
        match self {
            TargetArg::Cpu => TargetChoice::Profile(Profile::Cpu),
            TargetArg::A2a3 | TargetArg::A2 | TargetArg::A3 => TargetChoice::Profile(Profile::A2a3),
            TargetArg::A5 | TargetArg::A6 => TargetChoice::Profile(Profile::A5),
            TargetArg::All => TargetChoice::All,
        }
    }

    /// The note a flag value that stands for another arch's rules gets (`a6` → a5; N0206),
    /// printed on stderr by the commands that take it.
    pub fn alias_note(self) -> Option<String> {
        match self {
            TargetArg::A6 => Some(format!(
                "note[{}]: --target/--pto-arch a6 is verified with the a5 rules (PTOAS forks name an a5 variant a6)\n",
                crate::diag::Code::TargetArchAlias.as_str()
            )),
            _ => None,
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum ErrorFormat {
    Human,
    Json,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, ValueEnum)]
pub enum FormatArg {
    Pto,
    Ptoasm,
}

impl FormatArg {
    pub fn format(self) -> InputFormat {
        match self {
            FormatArg::Pto => InputFormat::Pto,
            FormatArg::Ptoasm => InputFormat::PtoAsm,
        }
    }
}

/// The input format: the flag, else by extension (`.ptoasm`), else pto.
pub fn input_format(flag: Option<FormatArg>, file: &std::path::Path) -> InputFormat {
    match flag {
        Some(f) => f.format(),
        None if file.extension().is_some_and(|e| e == "ptoasm") => InputFormat::PtoAsm,
        None => InputFormat::Pto,
    }
}
