//! The `dlx` command: exact cover from the command line.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::{Parser, Subcommand};

mod choice;
mod generate;
mod input;
mod sudoku;
mod xc;

/// Exact cover with Knuth's dancing links: sudoku batches, and any `.dlx` problem.
///
/// Exit status: 0 on success; 1 when an input could not be read or output could not be
/// written; 2 for a malformed input (in a batch: some record was malformed) or bad arguments.
#[derive(Debug, Parser)]
#[command(name = "dlx", version, about, long_about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    Solve(sudoku::SolveArgs),
    Count(sudoku::CountArgs),
    Generate(generate::GenerateArgs),
    Rate(sudoku::RateArgs),
    Xc(xc::XcArgs),
}

/// Exit status for a malformed input.
pub(crate) const EXIT_INVALID: u8 = 2;

fn main() -> ExitCode {
    match run() {
        Ok(code) => code,
        Err(err) if is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            let _ = writeln!(io::stderr(), "dlx: {err:#}");
            ExitCode::FAILURE
        }
    }
}

fn run() -> Result<ExitCode> {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => sudoku::run_solve(&args),
        Command::Count(args) => sudoku::run_count(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Rate(args) => sudoku::run_rate(&args),
        Command::Xc(args) => xc::run(&args),
    }
}

/// A write to a closed pipe (`dlx ... | head`) ends the program quietly.
fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|e| e.downcast_ref::<io::Error>().is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe))
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_valid() {
        super::Cli::command().debug_assert();
    }
}
