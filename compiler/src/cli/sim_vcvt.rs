//! `ptoc sim` of a `pto.vcvt` program listing (`; @io ... op=vcvt`, made by `ptoc lower`): the
//! input file holds whole source registers, the result file whole result registers, both in the
//! `.bin` encoding `ptoc run` and `ptoc cast` use (little-endian storage of each element), so
//! `cmp` against `ptoc run`'s result is the check. `--mask FILE` gives each register's mask as the
//! raw 32-byte predicate storage `ptoc run` reads for a `!pto.mask` argument (one block per
//! register); without it every lane is active. The work is `lower::tensix::vprove::run_registers`;
//! this file only reads and writes files.

use std::path::Path;

use pto_runtime::tensix::isa::Arch;
use pto_runtime::value::{Granularity, Mask, MASK_BYTES};

use super::sim::{error, usage, Fail};
use crate::diag::Code;
use crate::lower::tensix::header::{kernel_of_listing, IoHeader};
use crate::lower::tensix::vprove::run_registers;

/// Runs the listing `program`; `Ok` is the report (`registers: N`, `cycles_per_register: C`).
pub(super) fn simulate_vcvt(
    program: &Path,
    text: &str,
    header: &IoHeader,
    arch: Arch,
    input: &Path,
    output: &Path,
    mask: Option<&Path>,
) -> Result<String, Fail> {
    let shown = program.display().to_string();
    let k = kernel_of_listing(text, Some(arch))
        .map_err(|e| error(Code::ListingInvalid, e.located(&shown)))?;
    let shape = header.vreg_shape().ok_or_else(|| {
        error(
            Code::ListingInvalid,
            format!("{shown}: the listing's header does not declare op=vcvt"),
        )
    })?;
    let src = header.src;
    let width = src.storage_bytes() as usize;
    let bytes =
        std::fs::read(input).map_err(|e| usage(format!("cannot read {}: {e}", input.display())))?;
    if bytes.len() % (width * shape.src_lanes) != 0 || bytes.is_empty() {
        return Err(error(
            Code::InputSize,
            format!(
                "{} holds {} bytes, not a whole number of {}-lane {} registers ({} bytes each)",
                input.display(),
                bytes.len(),
                shape.src_lanes,
                src.ir_name(),
                width * shape.src_lanes
            ),
        ));
    }
    let elems: Vec<u64> = bytes
        .chunks_exact(width)
        .map(|c| {
            let mut le = [0u8; 8];
            le[..width].copy_from_slice(c);
            u64::from_le_bytes(le)
        })
        .collect();
    let registers = elems.len() / shape.src_lanes;
    let masks: Option<Vec<Mask>> = match mask {
        None => None,
        Some(p) => {
            let mb =
                std::fs::read(p).map_err(|e| usage(format!("cannot read {}: {e}", p.display())))?;
            if mb.len() != registers * MASK_BYTES {
                return Err(error(Code::InputSize, format!(
                    "{} holds {} bytes; {registers} register(s) need {} (32 bytes of predicate storage each)",
                    p.display(),
                    mb.len(),
                    registers * MASK_BYTES
                )));
            }
            let g = Granularity::from_bits(src.storage_bits().min(32)).unwrap_or(Granularity::B8);
            Some(
                mb.chunks_exact(MASK_BYTES)
                    .map(|c| {
                        Mask::from_storage(g, c).map_err(|e| {
                            error(Code::InputFileFormat, format!("{}: {e}", p.display()))
                        })
                    })
                    .collect::<Result<_, _>>()?,
            )
        }
    };
    let lanes = shape.src_lanes;
    let active = |e: usize| {
        masks
            .as_ref()
            .is_none_or(|m| m.get(e / lanes).is_some_and(|m| m.lane(e % lanes)))
    };
    let run = run_registers(&k, shape, &elems, &active)
        .map_err(|e| error(Code::SimulationFailed, format!("{shown}: {e}")))?;
    let dw = header.dst.storage_bytes() as usize;
    let mut out = Vec::with_capacity(run.out.len() * dw);
    for b in &run.out {
        out.extend_from_slice(&b.to_le_bytes()[..dw]);
    }
    std::fs::write(output, out)
        .map_err(|e| usage(format!("cannot write {}: {e}", output.display())))?;
    Ok(format!(
        "registers: {}\ncycles_per_register: {}\n",
        run.registers, run.cycles_per_register
    ))
}
