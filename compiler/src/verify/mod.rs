//! Verifier: structure first, then the rules of one target profile.
//!
//! [`verify_module`] runs [`structure::check_tainted`] on the whole module, then the target
//! rules ([`rules::check_except`]) on every tcvt/vcvt the structure pass did not taint (each op
//! on one profile, or with [`verify_module_with`] on the profile of its nearest module), so a
//! structural error in one function does not hide rule errors elsewhere. The rules read operand
//! types through def-use links, so a tainted op (one with a structural error itself, or an
//! operand that is undefined, has a bad result number, is mistyped or bound to an invisible
//! redefinition) is skipped. Both passes collect every diagnostic (they never stop at the first)
//! and never panic on any IR. The verifier runs only on chunks that parsed without
//! errors (D-27, the driver's job). Modules of [`PARALLEL_MIN_OPS`] ops or more are verified on
//! two threads ([`verify_two_threads`]: the rules run on every op beside the structure pass and
//! then on both threads, and the rule diagnostics of tainted ops are dropped afterwards), with
//! the same diagnostics in the same order.
//!
//! ## Structure (`structure`, codes E01xx; syntax.md §2, D-4)
//! One walk over the regions with a scope stack (`structure::scopes`); the def-use graph over
//! values and ops ([`structure::DefUseGraph`]) is built for tools and tests that want it.
//! - A use must see its definition: defined textually before, in the same or an enclosing region;
//!   function bodies are isolated; an op's results are invisible in its own regions; values of a
//!   region are invisible after it — `undefined-value` (E0101) `use of undefined value '%x'`,
//!   with a label at an existing but invisible definition (after the use, or in a region that
//!   does not enclose it).
//! - A name defined while a value of that name is visible (per function; sibling regions may
//!   reuse names), and two functions with one symbol — `redefinition` (E0102)
//!   `redefinition of value '%x'` / `redefinition of symbol '@f'`, label `defined here`. Symbols
//!   (`func.func @f`, `module @m`) are per symbol table: the top level and each nested module.
//!   A nested module's body is isolated like a function body.
//!   Two blocks of one region with one label — the same code, `redefinition of block '^bb1'`.
//!   A block's arguments are visible from its label on (textual order stands for dominance).
//! - `%r#N` past the defining op's results — `result-number-out-of-range` (E0103)
//!   `'%r' has only 2 results`, label `defined here`.
//! - Known ops' result counts (tcvt SSA 1 / DPS 0, plt 2, vlds 1-2, vsts 0-1, others fixed) —
//!   `result-count-mismatch` (E0104) `'pto.plt_b16' defines 2 results but 1 name was given`.
//! - Every written operand type equals its value's defined type — `operand-type-mismatch` (E0105)
//!   `type mismatch for '%t': defined as T, used as U` (canonical spellings), label at the
//!   definition.
//! - `return` operands against the enclosing function's result types, count then each type —
//!   `return-type-mismatch` (E0106), label at the declared result type.
//!
//! ## Target rules (`rules`, codes x02xx tcvt, x030x-x031x vcvt, E032x convert; semantics.md §3, §6, §8)
//! `pto.tcvt`:
//! 1. src/dst/tmp rank-2 `!pto.tile_buf`/`!pto.tile` — `tcvt-operand-not-tile` (E0203).
//! 2. element types in semantics.md §2.1 — `unsupported-elem-type` (E0202; help `!pto.s4x2` for i4).
//! 3. static valid dims within the shape — `tile-valid-exceeds-shape` (E0204).
//! 4. equal logical extents of src and dst (except `subview` alloc_tiles) — `tcvt-shape-mismatch` (E0205).
//! 5. equal static logical valid shapes — `tcvt-valid-shape-mismatch` (E0206); not raised when
//!    E0205 fired and both valid shapes equal their shapes (it would only repeat E0205).
//! 6. src/dst in `loc=vec` — `tcvt-loc-not-vec` (W0206); tmp in `loc=vec` — `tcvt-tmp-not-vec` (E0209).
//! 7. pair supported on the profile — `tcvt-pair-unsupported` (E0207, help lists the profiles
//!    that accept it); 8-11 only for supported pairs.
//! 8. effective rounding/saturation (§3.7) — `tcvt-rmode-forced` (W0201), `tcvt-odd-unsupported`
//!    (W0202), `tcvt-rmode-ignored` (W0203), `tcvt-sat-off-ignored` (W0204).
//! 9. tmp role (§3.5) — `tcvt-tmp-ignored` (W0205, cpu), `tcvt-tmp-unused` (N0201),
//!    `tcvt-tmp-suggested` (N0202), `tcvt-tmp-too-small` (E0210), `tcvt-tmp-bound-dynamic` (N0203).
//! 10. float→int with effective sat OFF on a2a3/a5 — `nonsat-target-defined` (N0204).
//! 11. float→fp4 — `fp4-nan-to-zero` (N0205).
//! 12. only with `--pto-level=level3` (the driver runs it after the rest: PTOAS skips memory
//!     planning): a non-saturating narrowing a2a3 tcvt without tmp — `tcvt-tmp-required` (E0211,
//!     `rules::check_plan_memory_skipped`; its N0202 note is dropped).
//!
//! `pto.vcvt`:
//! 1. input and result are `!pto.vreg` — `vcvt-not-vreg` (E0301).
//! 2. element types in §2.1 — `unsupported-elem-type` (E0202).
//! 3. 2048-bit vregs, equal source/result totals — `vreg-size` (E0302).
//! 4. mask `b{min(src bits, 32)}` — `vcvt-mask-granularity` (E0304).
//! 5. contract row exists and the profile offers it — `vcvt-pair-unsupported` (E0303); 6-9 only
//!    for available pairs.
//! 6. rnd/sat/part on a pair that does not take it — `vcvt-attr-forbidden` (E0307).
//! 7. part missing — `vcvt-part-required` (E0308); wrong family — `vcvt-part-family` (E0309).
//! 8. rnd letter outside the pair's set — `vcvt-rnd-not-allowed` (E0310); accepted H —
//!    `rounding-hybrid-unsupported` (N0302).
//! 9. rnd or sat omitted where PTOAS requires it — `vcvt-attr-defaulted` (N0301).
//!
//! `pto.convert` (`target::convert`, PTOAS `verifyConvertControls`; one error per op, the first
//! broken rule, PTOAS's words):
//! 1. i32, i64, f16, bf16, f32 or a packed type of the table — `convert-type-unsupported` (E0320).
//! 2. not both `signed` and `unsigned` — `convert-signedness-conflict` (E0324).
//! 3. packed: no integer or scalar on the other side — `convert-mixed-packed` (E0325); no
//!    signedness — `convert-signedness-forbidden` (E0323).
//! 4. scalar: not integer to integer — `convert-int-to-int` (E0321); to/from an integer needs
//!    signedness — `convert-signedness-required` (E0322); float to float none — E0323.
//! 5. the pair is in the table — `convert-pair-unsupported` (E0326).
//! 6. float → integer has `sat` — `convert-sat-required` (E0327).
//! 7. the `round(...)` letter is the row's — `convert-rnd-not-allowed` (E0328); accepted `h` —
//!    `rounding-hybrid-unsupported` (N0302).
//!
//! Not here: parse-time checks (syntax, types' own domains, `sat_mode`+`satmode`,
//! `rnd`+`round_mode`, vcvt tokens, `pto.target_arch`) belong to the front end, runtime checks
//! (E04xx) to the interpreter.

pub mod error;
pub mod rules;
pub mod structure;

use crate::diag::Diagnostic;
use crate::ir::{Module, OpId};
use crate::target::Profile;

/// Verifies `module` against `profile`, returning every diagnostic (errors, warnings, notes):
/// structural ones first, then the target rules of every op without a structural error.
pub fn verify_module(module: &Module, profile: Profile) -> Vec<Diagnostic> {
    verify_module_with(module, &|_| profile)
}

/// [`verify_module`] with the profile of each tcvt/vcvt chosen by `profile_of` (with nested
/// modules, the `pto.target_arch` of the op's module: `driver::profile_of_op`).
pub fn verify_module_with(
    module: &Module,
    profile_of: &(dyn Fn(OpId) -> Profile + Sync),
) -> Vec<Diagnostic> {
    if module.ops.len() >= PARALLEL_MIN_OPS
        && std::thread::available_parallelism().is_ok_and(|n| n.get() > 1)
    {
        return verify_two_threads(module, profile_of);
    }
    verify_one_thread(module, profile_of)
}

/// [`verify_module_with`] on the calling thread only (whatever the module's size).
pub fn verify_one_thread(module: &Module, profile_of: &dyn Fn(OpId) -> Profile) -> Vec<Diagnostic> {
    let mut diags = Vec::new();
    let tainted = structure::check_tainted(module, &mut diags);
    rules::check_except_with(module, profile_of, &tainted, &mut diags);
    diags
}

/// Modules with at least this many ops are verified on two threads ([`verify_two_threads`]);
/// below it a thread costs more than it saves.
pub const PARALLEL_MIN_OPS: usize = 20_000;

/// [`verify_module_with`] on two threads, same diagnostics in the same order: the rules run on
/// every op on a scoped helper thread while the structure pass runs here, and this thread
/// takes its share of the rules once the structure pass is done (runs of ops claimed from a
/// shared counter, put back in walk order); the rule diagnostics of the ops the structure pass
/// tainted are then dropped. Running the rules on a tainted op is safe (they are total on any
/// IR, `rules` module doc), only wasted.
pub fn verify_two_threads(
    module: &Module,
    profile_of: &(dyn Fn(OpId) -> Profile + Sync),
) -> Vec<Diagnostic> {
    let ops = module.walk();
    let next = std::sync::atomic::AtomicUsize::new(0);
    let (mut diags, tainted, mut runs) = std::thread::scope(|scope| {
        let rules = scope.spawn(|| rules::check_shared(module, &ops, profile_of, &next));
        let mut diags = Vec::new();
        let tainted = structure::check_tainted(module, &mut diags);
        let mut runs = rules::check_shared(module, &ops, profile_of, &next);
        // A panic in the rules is a bug either way; surface it as the sequential run would.
        match rules.join() {
            Ok(theirs) => runs.extend(theirs),
            Err(panic) => std::panic::resume_unwind(panic),
        }
        (diags, tainted, runs)
    });
    runs.sort_unstable_by_key(|(k, _)| *k);
    for (op, found) in runs.into_iter().flat_map(|(_, run)| run) {
        if !tainted.contains(&op) {
            diags.extend(found);
        }
    }
    diags
}
