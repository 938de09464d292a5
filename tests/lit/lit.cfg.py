# lit configuration for the ptoc test suite (LLVM lit + the PyPI `filecheck` port).
#
# Required environment: PTOC_BIN = path of the ptoc binary under test. `compiler/tests/lit.rs`
# (run by `cargo test`) sets it to the freshly built binary; by hand:
#   cargo build -p ptoc && PTOC_BIN=target/debug/ptoc .venv/bin/lit -sv tests/lit
# Output (the %t files) goes under $PTOC_LIT_OUT, else next to the binary (target/<profile>/lit-out),
# so no Output/ directory litters the source tree.

import os
import shutil
import sys
import tempfile

import lit.formats

config.name = "ptoc"
config.suffixes = [".pto", ".ptoasm"]
config.excludes = ["lit.cfg.py", "README.md", "requirements.txt", "tools", "Inputs"]
# The internal shell: portable, and it has `not`, pipes, redirections and `diff` built in.
config.test_format = lit.formats.ShTest(execute_external=False)
config.test_source_root = os.path.dirname(os.path.abspath(__file__))

ptoc_bin = os.environ.get("PTOC_BIN")
if not ptoc_bin:
    lit_config.fatal(
        "PTOC_BIN is not set: point it at the ptoc binary, e.g. "
        "`cargo build -p ptoc && PTOC_BIN=target/debug/ptoc lit -sv tests/lit` "
        "(cargo test sets it automatically)"
    )
ptoc_bin = os.path.abspath(ptoc_bin)
if not os.path.isfile(ptoc_bin) or not os.access(ptoc_bin, os.X_OK):
    lit_config.fatal(f"PTOC_BIN={ptoc_bin} is not an executable file")

out_root = os.environ.get("PTOC_LIT_OUT")
if not out_root:
    candidate = os.path.join(os.path.dirname(ptoc_bin), "lit-out")
    try:
        os.makedirs(candidate, exist_ok=True)
        out_root = candidate
    except OSError:
        out_root = os.path.join(tempfile.gettempdir(), "ptoc-lit-out")
config.test_exec_root = out_root


def find_tool(name):
    """A tool installed next to the Python running lit (the .venv), else on PATH."""
    here = os.path.join(os.path.dirname(sys.executable), name)
    if os.path.isfile(here) and os.access(here, os.X_OK):
        return here
    found = shutil.which(name)
    if not found:
        lit_config.fatal(f"{name} not found: pip install -r tests/lit/requirements.txt")
    return found


filecheck = find_tool("filecheck")
not_py = os.path.join(config.test_source_root, "tools", "not.py")

# Substitution patterns are regexes; the look-arounds keep `ptoc`/`not` from matching inside
# paths (%s, %t) or longer words.
word = r"(?<![\w./-]){}(?![\w./-])"
config.substitutions.append((word.format("ptoc"), f'"{ptoc_bin}"'))
config.substitutions.append((word.format("FileCheck"), f'"{filecheck}"'))
config.substitutions.append((word.format("filecheck"), f'"{filecheck}"'))
config.substitutions.append((word.format("not"), f'"{sys.executable}" "{not_py}"'))
config.substitutions.append(("%python", f'"{sys.executable}"'))
repo_root = os.path.dirname(os.path.dirname(config.test_source_root))
config.substitutions.append(("%examples", os.path.join(repo_root, "examples")))

# The January-2026 benchmark generator lives in shared/ beside the repository (D-7b); tests that use it
# are skipped when it is absent.
january = os.path.join(os.path.dirname(repo_root), "shared", "bench", "gen_tcvt_january.py")
if os.path.isfile(january):
    config.available_features.add("january-bench")
    config.substitutions.append(("%january_gen", f'"{sys.executable}" "{january}"'))

# Plain, reproducible diagnostics: no colour, no terminal-dependent rendering.
config.environment["NO_COLOR"] = "1"
config.environment.pop("CLICOLOR_FORCE", None)
config.environment["RUST_BACKTRACE"] = "0"
