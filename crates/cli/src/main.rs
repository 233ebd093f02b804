//! The `dlx` command: exact cover from the command line.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::Result;
use clap::{CommandFactory, Parser, Subcommand};

mod checkpoint;
mod choice;
mod examples;
mod generate;
mod input;
mod man;
mod merge;
mod output;
mod pages;
mod progress;
mod render;
mod report;
mod sudoku;
mod xc;

/// Exact cover with Knuth's dancing links: sudoku batches, and any `.dlx` problem.
///
/// Exit status: 0 on success (and when a pipe closes: `dlx ... | head`); 1 when an input could
/// not be read (the others are still answered) or an output could not be written; 2 for bad
/// arguments or a malformed input (in a batch: some record was malformed, the rest answered); 3
/// with `--strict` when some puzzle has no solution or several; 130 after Ctrl-C and 143 after
/// SIGTERM (whole records written, and stderr says so).
#[derive(Debug, Parser)]
#[command(name = "dlx", version, about, long_about)]
pub(crate) struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    #[command(after_long_help = examples::help(examples::SOLVE))]
    Solve(sudoku::SolveArgs),
    #[command(after_long_help = examples::help(examples::COUNT))]
    Count(sudoku::CountArgs),
    #[command(after_long_help = examples::help(examples::GENERATE))]
    Generate(generate::GenerateArgs),
    #[command(after_long_help = examples::help(examples::RATE))]
    Rate(sudoku::RateArgs),
    #[command(after_long_help = examples::help(examples::RENDER))]
    Render(render::RenderArgs),
    #[command(after_long_help = examples::help(examples::XC))]
    Xc(xc::XcArgs),
    #[command(after_long_help = examples::help(examples::MERGE))]
    Merge(merge::MergeArgs),
    #[command(after_long_help = examples::help(examples::COMPLETIONS))]
    Completions(CompletionsArgs),
    #[command(after_long_help = examples::help(examples::MAN))]
    Man(ManArgs),
}

/// Print a completion script for a shell, to load in its start-up file (for bash:
/// `source <(dlx completions bash)`).
#[derive(Debug, clap::Args)]
struct CompletionsArgs {
    /// The shell.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

/// Print the manual page of `dlx` in roff (`dlx man > dlx.1; man ./dlx.1`), or write it and one
/// page per command into a folder (`dlx-solve.1` ...).
#[derive(Debug, clap::Args)]
struct ManArgs {
    /// Write `dlx.1` and a page per command into this folder (made if missing).
    #[arg(short, long, value_name = "DIR")]
    output: Option<std::path::PathBuf>,
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => return clap_exit(&e),
    };
    report::catch_signals();
    match run(cli) {
        Ok(code) => code,
        Err(err) if report::is_broken_pipe(&err) => ExitCode::SUCCESS,
        Err(err) => {
            // Nothing more can be done when stderr itself fails.
            let _ = report::stderr!("dlx: {err:#}");
            ExitCode::from(if err.downcast_ref::<report::Usage>().is_some() {
                report::EXIT_INVALID
            } else if err.downcast_ref::<report::Stopped>().is_some() {
                report::stopped_status()
            } else {
                report::EXIT_FAILURE
            })
        }
    }
}

/// Prints what clap has to say: help and version on stdout (a failed write is an output error,
/// a closed pipe is not), usage errors on stderr with status 2.
fn clap_exit(e: &clap::Error) -> ExitCode {
    let code = u8::try_from(e.exit_code()).unwrap_or(report::EXIT_INVALID);
    if e.use_stderr() {
        let _ = e.print();
        return ExitCode::from(code);
    }
    match e.print().and_then(|()| io::stdout().flush()) {
        Ok(()) => ExitCode::from(code),
        Err(err) if err.kind() == io::ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            let _ = report::stderr!("dlx: cannot write the help: {err}");
            ExitCode::from(report::EXIT_FAILURE)
        }
    }
}

fn run(cli: Cli) -> Result<ExitCode> {
    match cli.command {
        Command::Solve(args) => sudoku::run_solve(&args),
        Command::Count(args) => sudoku::run_count(&args),
        Command::Generate(args) => generate::run(&args),
        Command::Rate(args) => sudoku::run_rate(&args),
        Command::Render(args) => render::run(&args),
        Command::Xc(args) => xc::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Completions(args) => {
            let mut out = io::stdout().lock();
            clap_complete::generate(args.shell, &mut Cli::command(), "dlx", &mut out);
            out.flush()?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man(ManArgs { output }) => {
            man::run(Cli::command(), output.as_deref())?;
            Ok(ExitCode::SUCCESS)
        }
    }
}

#[cfg(test)]
mod tests {
    use clap::CommandFactory;

    #[test]
    fn cli_definition_is_valid() {
        super::Cli::command().debug_assert();
    }
}
