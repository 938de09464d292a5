//! The SFPI C++ emitter (tensix.md §10.3). SFPI's `dst_reg[]` loads and stores use the default
//! Mod0; ptoc's kernels move every datum with the raw `INT32` mode (the I/O contract of
//! `tensix::io`, which keeps denormals, NaN payloads and two's complement integers intact), which
//! `dst_reg` cannot express. So every kernel is emitted in its llk form with a comment that says
//! so, as the "otherwise say why in a comment and emit llk" asks.

use super::super::TensixKernel;

/// The SFPI file: the reason, then the llk form.
pub fn emit(k: &TensixKernel) -> String {
    format!(
        "// SFPI: not expressible. The kernel loads and stores raw INT32 datums (Mod0 4), which\n\
         // sfpi::dst_reg (default Mod0) cannot do without TTI_SFPLOAD/TTI_SFPSTORE; the llk form\n\
         // follows.\n{}",
        super::llk::emit(k)
    )
}
