//! The stable diagnostic codes of ptoc: one row per diagnostic, as data.
//!
//! A code never changes meaning once assigned; retired codes are not reused. The letter is the
//! default severity (E error, W warning, N note). The names of semantics.md §8 are the `name`
//! column verbatim. `ptoc explain`, the JSON output and the generated docs all read this table.
//!
//! Ranges: E00xx lexical and syntax · E01xx structure (SSA, types agreeing) · x02xx tcvt rules ·
//! x03xx vcvt rules · E04xx interpreter · E05xx `--verify-diagnostics` · E06xx assembly mode ·
//! x07xx Tensix lowering and proofs · E08xx tool runs (`sim`, `cast`, `prove`: files, listings,
//! the simulator).

use super::Severity;

macro_rules! codes {
    ($( $variant:ident = ($code:literal, $name:literal, $sev:ident, $summary:literal); )*) => {
        /// A stable diagnostic code.
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum Code { $( $variant, )* }

        impl Code {
            /// Every code, in table order.
            pub const ALL: &'static [Code] = &[ $( Code::$variant, )* ];

            /// The stable code, e.g. `E0207`.
            pub fn as_str(self) -> &'static str {
                match self { $( Code::$variant => $code, )* }
            }
            /// The stable name, e.g. `tcvt-pair-unsupported`.
            pub fn name(self) -> &'static str {
                match self { $( Code::$variant => $name, )* }
            }
            /// Severity the diagnostic has unless a phase states otherwise.
            pub fn default_severity(self) -> Severity {
                match self { $( Code::$variant => Severity::$sev, )* }
            }
            /// One-line summary of the rule.
            pub fn summary(self) -> &'static str {
                match self { $( Code::$variant => $summary, )* }
            }
        }
    };
}

codes! {
    // --- lexical and syntax (syntax.md §1, §2, §8, §9) ---
    Syntax = ("E0001", "syntax", Error, "a token is not what the grammar allows here");
    InvalidUtf8 = ("E0002", "invalid-utf8", Error, "the input is not valid UTF-8");
    UnexpectedCharacter = ("E0003", "unexpected-character", Error, "a character starts no token (including a lone '%')");
    UnterminatedString = ("E0004", "unterminated-string", Error, "a string literal has no closing quote on its line");
    InvalidEscape = ("E0005", "invalid-escape", Error, "a string literal contains an unknown escape sequence");
    IntegerOutOfRange = ("E0006", "integer-out-of-range", Error, "an integer literal does not fit its type");
    ResultNumberSpacing = ("E0007", "result-number-spacing", Error, "a '#N' result number is separated from its value name");
    UnknownOperation = ("E0008", "unknown-operation", Error, "--strict-ops: an unknown operation is written in custom form (by default it is kept as an opaque statement)");
    UnsupportedConstruct = ("E0009", "unsupported-construct", Error, "a construct ptoc does not accept (a module outside a module body, positional !pto.tile)");
    FunctionBody = ("E0010", "function-body", Error, "a function body or region is malformed ('return' placement, argument naming)");
    DuplicateAttribute = ("E0011", "duplicate-attribute", Error, "an attribute or type key is given twice");
    UnknownAttribute = ("E0012", "unknown-attribute", Error, "a known op carries an attribute key it does not define");
    InvalidType = ("E0013", "invalid-type", Error, "a type is unknown or one of its parameters is out of its domain");
    InvalidAttributeValue = ("E0014", "invalid-attribute-value", Error, "an attribute has a value of the wrong kind or an unknown enumerant");
    OpForm = ("E0015", "op-form", Error, "an operation's operands, results or attribute placement do not fit its form");
    TooManyErrors = ("E0016", "too-many-errors", Error, "parsing stopped after 50 errors in one chunk, or the rest of a chunk's verification diagnostics (after 50 errors or 100 in all) are counted, not shown (verify --error-limit)");
    UndefinedAlias = ("E0017", "undefined-alias", Error, "a type or attribute alias is used but not defined before the use (or a location alias is used as an attribute)");
    AliasDefinition = ("E0018", "alias-definition", Error, "an alias definition is misplaced (not at the top level), redefines a name, has a dotted name, or refers to itself");
    // --- structure (checked before any target rule) ---
    UndefinedValue = ("E0101", "undefined-value", Error, "a value is used that is not defined before it in the same or an enclosing region");
    Redefinition = ("E0102", "redefinition", Error, "a value name or function symbol is defined twice");
    ResultNumberOutOfRange = ("E0103", "result-number-out-of-range", Error, "'%r#N' names a result the defining op does not have");
    ResultCountMismatch = ("E0104", "result-count-mismatch", Error, "the number of names defined differs from the number of results");
    OperandTypeMismatch = ("E0105", "operand-type-mismatch", Error, "the type written for an operand differs from the type of its definition");
    ReturnTypeMismatch = ("E0106", "return-type-mismatch", Error, "'return' operands differ from the function's result types");
    // --- profiles, element types, tcvt (semantics.md §3, §8) ---
    UnknownProfile = ("E0201", "unknown-profile", Error, "pto.target_arch is not a string literal");
    UnsupportedElemType = ("E0202", "unsupported-elem-type", Error, "a tcvt/vcvt operand's element type takes part in no conversion");
    TcvtOperandNotTile = ("E0203", "tcvt-operand-not-tile", Error, "a tcvt src/dst/tmp is not a rank-2 !pto.tile_buf or !pto.tile");
    TileValidExceedsShape = ("E0204", "tile-valid-exceeds-shape", Error, "a static valid extent exceeds its shape extent");
    TcvtShapeMismatch = ("E0205", "tcvt-shape-mismatch", Error, "the logical extents of tcvt src and dst differ");
    TcvtValidShapeMismatch = ("E0206", "tcvt-valid-shape-mismatch", Error, "the static logical valid shapes of tcvt src and dst differ");
    TcvtPairUnsupported = ("E0207", "tcvt-pair-unsupported", Error, "the (src, dst) element pair is not supported on the profile");
    TcvtSatAttrConflict = ("E0208", "tcvt-sat-attr-conflict", Error, "both 'satmode' and 'sat_mode' are given");
    TcvtTmpNotVec = ("E0209", "tcvt-tmp-not-vec", Error, "the tcvt tmp operand is not a loc=vec tile");
    TcvtTmpTooSmall = ("E0210", "tcvt-tmp-too-small", Error, "the tcvt tmp tile is smaller than the conversion needs");
    TcvtTmpRequired = ("E0211", "tcvt-tmp-required", Error, "--pto-level=level3 (memory planning skipped): a non-saturating narrowing a2a3 tcvt needs an explicit tmp");
    TcvtRmodeForced = ("W0201", "tcvt-rmode-forced", Warning, "the requested rounding mode is replaced by the one the target forces");
    TcvtOddUnsupported = ("W0202", "tcvt-odd-unsupported", Warning, "ODD is not available for this pair on this profile; the per-pair default is used");
    TcvtRmodeIgnored = ("W0203", "tcvt-rmode-ignored", Warning, "a2a3 i32->f16 (deq) always rounds RINT; the explicit mode has no effect");
    TcvtSatOffIgnored = ("W0204", "tcvt-sat-off-ignored", Warning, "a2a3 ignores an explicit sat OFF on this pair; ON is used");
    TcvtTmpIgnored = ("W0205", "tcvt-tmp-ignored", Warning, "cpu: the tmp operand has no effect");
    TcvtLocNotVec = ("W0206", "tcvt-loc-not-vec", Warning, "a tcvt src or dst is not in loc=vec");
    UnknownTargetArch = ("W0207", "unknown-target-arch", Warning, "pto.target_arch names no known profile; the CLI target, else cpu, is used");
    TcvtDefaultDependent = ("W0208", "tcvt-default-dependent", Warning, "the tcvt omits satmode or uses rmode NONE, and toolchains (pto-isa, PTOAS 0.61, PTOAS 0.63) give different results for it");
    TcvtTmpUnused = ("N0201", "tcvt-tmp-unused", Note, "the tmp operand is not used by this pair, saturation and profile");
    TcvtTmpSuggested = ("N0202", "tcvt-tmp-suggested", Note, "a2a3 TORCH3 pair with sat OFF and no tmp: the native path is used");
    TcvtTmpBoundDynamic = ("N0203", "tcvt-tmp-bound-dynamic", Note, "dynamic valid shape: tmp capacity is checked against the worst case");
    NonsatTargetDefined = ("N0204", "nonsat-target-defined", Note, "float->int with sat OFF on hardware: Inf/NaN/out-of-range results are target-defined");
    Fp4NanToZero = ("N0205", "fp4-nan-to-zero", Note, "float->fp4: NaN inputs become +0");
    TargetArchAlias = ("N0206", "target-arch-alias", Note, "the arch a6 (a PTOAS fork's name) is verified with the a5 rules");
    // --- vcvt (semantics.md §6) ---
    VcvtNotVreg = ("E0301", "vcvt-not-vreg", Error, "a vcvt input or result is not a !pto.vreg");
    VregSize = ("E0302", "vreg-size", Error, "a !pto.vreg does not hold exactly 2048 bits, or source and result sizes differ");
    VcvtPairUnsupported = ("E0303", "vcvt-pair-unsupported", Error, "no vcvt contract row for the pair, or not in the profile's subset");
    VcvtMaskGranularity = ("E0304", "vcvt-mask-granularity", Error, "the mask granularity is not b{min(src bits, 32)}");
    VcvtAttrBadToken = ("E0305", "vcvt-attr-bad-token", Error, "a vcvt rnd/sat/part value is not a recognised token or not a string");
    VcvtRndAliasConflict = ("E0306", "vcvt-rnd-alias-conflict", Error, "both 'rnd' and 'round_mode' are given");
    VcvtAttrForbidden = ("E0307", "vcvt-attr-forbidden", Error, "rnd/sat/part is given on a pair whose contract does not take it");
    VcvtPartRequired = ("E0308", "vcvt-part-required", Error, "a width-changing vcvt has no part");
    VcvtPartFamily = ("E0309", "vcvt-part-family", Error, "part is from the wrong family (EVEN/ODD vs P0-P3)");
    VcvtRndNotAllowed = ("E0310", "vcvt-rnd-not-allowed", Error, "the rnd letter is not allowed for the pair");
    VcvtAsmOperand = ("E0311", "vcvt-asm-operand", Error, "assembly form: wrong positional rnd/sat/part operand");
    VcvtAttrDefaulted = ("N0301", "vcvt-attr-defaulted", Note, "rnd or sat omitted where PTOAS requires it; the default is applied");
    RoundingHybridUnsupported = ("N0302", "rounding-hybrid-unsupported", Note, "H (hybrid) rounding is accepted but cannot be executed");
    // --- pto.convert (PTOAS `verifyConvertControls`; target::convert) ---
    ConvertTypeUnsupported = ("E0320", "convert-type-unsupported", Error, "a pto.convert source or result is not i32, i64, f16, bf16, f32 or a supported packed type");
    ConvertIntToInt = ("E0321", "convert-int-to-int", Error, "pto.convert from an integer to an integer");
    ConvertSignednessRequired = ("E0322", "convert-signedness-required", Error, "a pto.convert to or from an integer has no `signed`/`unsigned`");
    ConvertSignednessForbidden = ("E0323", "convert-signedness-forbidden", Error, "a float-to-float or packed pto.convert carries `signed`/`unsigned`");
    ConvertSignednessConflict = ("E0324", "convert-signedness-conflict", Error, "a pto.convert carries both `signed` and `unsigned`");
    ConvertMixedPacked = ("E0325", "convert-mixed-packed", Error, "a pto.convert mixes a packed type with an integer or a scalar");
    ConvertPairUnsupported = ("E0326", "convert-pair-unsupported", Error, "the pto.convert (src, dst) pair is not supported (i64 only to/from f32, i32 only to f32/f16/bf16, the packed pair list)");
    ConvertSatRequired = ("E0327", "convert-sat-required", Error, "a float-to-integer pto.convert without `sat`");
    ConvertRndNotAllowed = ("E0328", "convert-rnd-not-allowed", Error, "the round(...) letter is not allowed for the pto.convert pair (o only f32->f16, h only into !pto.hif8x2)");
    // --- interpreter (semantics.md §8, runtime checks) ---
    RuntimeValidShape = ("E0401", "runtime-valid-shape", Error, "dynamic valid extents exceed the shape or differ between src and dst");
    RuntimeTmpTooSmall = ("E0402", "runtime-tmp-too-small", Error, "the actual extents need more tmp bytes than provided");
    InterpUnsupported = ("E0403", "interp-unsupported", Error, "the interpreter cannot execute this op, or this form or type of it");
    ConvertNotExecutable = ("E0404", "convert-not-executable", Error, "the exact conversion core has no implementation of this pto.convert (u64, packed pairs, round(h)); nothing is guessed");
    // --- --verify-diagnostics (syntax.md §8.3) ---
    ExpectedNotProduced = ("E0501", "expected-not-produced", Error, "an expected-* directive matched no diagnostic");
    UnexpectedDiagnostic = ("E0502", "unexpected-diagnostic", Error, "a diagnostic was produced that no directive expected");
    DirectiveOutsideChunk = ("E0503", "directive-outside-chunk", Error, "a directive targets a line outside its split chunk");
    // --- assembly mode (syntax.md §6.2) ---
    AsmUnsupportedInstruction = ("E0601", "asm-unsupported-instruction", Error, "only PTO.vcvt is supported in assembly mode");
    AsmMissingTypes = ("E0602", "asm-missing-types", Error, "an assembly vcvt line has no type signature");
    AsmRegisterTypeConflict = ("E0603", "asm-register-type-conflict", Error, "a register is used with two different types");
    // --- Tensix lowering and proofs (tensix.md §9) ---
    TensixUnsupported = ("E0701", "tensix-unsupported", Error, "no proven Tensix SFPU sequence implements this conversion exactly");
    TensixTypeNotCarried = ("E0702", "tensix-type-not-carried", Error, "the element type has no Tensix datum form");
    TensixProofFailed = ("E0703", "tensix-proof-failed", Error, "the lowered kernel does not match the reference semantics on some input");
    TensixNothingToLower = ("N0704", "tensix-nothing-to-lower", Note, "the input holds no pto.tcvt or pto.vcvt: nothing is lowered or proven");
    TensixCpuSemantics = ("N0705", "tensix-cpu-semantics", Note, "the module names another pto.target_arch; Tensix kernels reproduce the cpu profile's semantics");
    // --- tool runs: `ptoc sim`, `cast`, `prove` (runtime errors, no source span in a .pto) ---
    ListingInvalid = ("E0801", "listing-invalid", Error, "a kernel listing does not assemble, or its `; @io` header is malformed, missing where needed, or repeated");
    InputSize = ("E0802", "input-size", Error, "an input file's length is not a whole number of the words, elements or registers it holds");
    SimulationFailed = ("E0803", "simulation-failed", Error, "the Tensix simulator stopped on a machine error: the run or proof did not complete");
    InputFileFormat = ("E0804", "input-file-format", Error, "an input file is not in the format its name or use says (.npy header, dtype or data size; a vcvt mask's predicate storage)");
}

impl Code {
    /// Looks a code up by its code (`E0207`, case-insensitive) or its name (`tcvt-pair-unsupported`).
    pub fn lookup(text: &str) -> Option<Code> {
        Code::ALL
            .iter()
            .copied()
            .find(|c| c.as_str().eq_ignore_ascii_case(text) || c.name() == text)
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_and_names_are_unique_and_letters_match_severity() {
        let mut codes: Vec<_> = Code::ALL.iter().map(|c| c.as_str()).collect();
        let mut names: Vec<_> = Code::ALL.iter().map(|c| c.name()).collect();
        codes.sort_unstable();
        names.sort_unstable();
        codes.dedup();
        names.dedup();
        assert_eq!(codes.len(), Code::ALL.len());
        assert_eq!(names.len(), Code::ALL.len());
        for c in Code::ALL {
            let letter = match c.default_severity() {
                Severity::Error => 'E',
                Severity::Warning => 'W',
                Severity::Note => 'N',
                Severity::Remark => 'R',
            };
            assert!(c.as_str().starts_with(letter), "{c:?}");
        }
    }

    #[test]
    fn lookup_by_code_or_name() {
        assert_eq!(Code::lookup("e0207"), Some(Code::TcvtPairUnsupported));
        assert_eq!(Code::lookup("vcvt-part-family"), Some(Code::VcvtPartFamily));
        assert_eq!(Code::lookup("nope"), None);
    }
}
