//! The `ptoc` command-line tool; all logic lives in the library (`ptoc::cli`).

fn main() -> std::process::ExitCode {
    ptoc::cli::main()
}
