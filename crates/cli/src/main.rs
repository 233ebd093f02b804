//! The `dlx` command: exact cover from the command line.

use std::io::{self, Write};
use std::process::ExitCode;

use anyhow::{Context, Result};
use clap::{CommandFactory, FromArgMatches, Parser, Subcommand};

mod checkpoint;
mod choice;
mod examples;
mod generate;
mod input;
mod man;
mod merge;
mod ordered;
mod output;
mod pages;
mod part;
mod pre;
mod progress;
mod render;
mod report;
mod sudoku;
mod timely;
mod xc;

/// Exact cover with Knuth's dancing links: sudoku batches, and any `.dlx` problem.
#[derive(Debug, Parser)]
#[command(name = "dlx", version, after_long_help = report::EXIT_STATUS)]
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
    #[command(after_long_help = examples::help(examples::PRE))]
    Pre(pre::PreArgs),
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
    shell: Shell,
}

/// The shells completion scripts are made for: `clap_complete`'s, and nushell's.
#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum Shell {
    Bash,
    Elvish,
    Fish,
    Nushell,
    Powershell,
    Zsh,
}

/// Print the manual page of `dlx` in roff (`dlx man > dlx.1; man ./dlx.1`), or write it and one
/// page per command into a folder (`dlx-solve.1` ...).
#[derive(Debug, clap::Args)]
struct ManArgs {
    /// Write `dlx.1` and a page per command into this folder (made if missing).
    #[arg(short, long, value_name = "DIR")]
    output: Option<std::path::PathBuf>,
}

/// The command line as clap reads it, with each option's `--help` saying its long form alone:
/// the doc comments' first paragraph is the `-h` summary, which the long form goes on to say
/// again in full.
fn command() -> clap::Command {
    fn own_long_help(cmd: clap::Command) -> clap::Command {
        cmd.mut_args(|arg| {
            let (Some(short), Some(long)) = (arg.get_help(), arg.get_long_help()) else { return arg };
            let (short, long) = (short.to_string(), long.to_string());
            match long.split_once("\n\n") {
                Some((first, rest)) if first.trim_end_matches('.') == short => arg.long_help(rest.to_owned()),
                _ => arg,
            }
        })
        // A flag given twice is taken once, the last value winning, as ripgrep and fd take it
        // (`xc -n --count`); a list (`--rules a --rules b`) still gathers every value.
        .args_override_self(true)
        .mut_subcommands(own_long_help)
    }
    own_long_help(Cli::command())
}

fn main() -> ExitCode {
    let parsed = command().try_get_matches().and_then(|matches| Cli::from_arg_matches(&matches));
    let cli = match parsed {
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
        Command::Pre(args) => pre::run(&args),
        Command::Merge(args) => merge::run(&args),
        Command::Completions(args) => {
            // Made in memory first: clap_complete panics on a failed write, and a full disk is
            // an error (exit 1), a closed pipe none.
            fn script(shell: impl clap_complete::Generator) -> Vec<u8> {
                let mut script = Vec::new();
                clap_complete::generate(shell, &mut command(), "dlx", &mut script);
                script
            }
            let script = match args.shell {
                Shell::Bash => script(clap_complete::Shell::Bash),
                Shell::Elvish => script(clap_complete::Shell::Elvish),
                Shell::Fish => script(clap_complete::Shell::Fish),
                Shell::Nushell => script(clap_complete_nushell::Nushell),
                Shell::Powershell => script(clap_complete::Shell::PowerShell),
                Shell::Zsh => script(clap_complete::Shell::Zsh),
            };
            let mut out = io::stdout().lock();
            out.write_all(&script).context("cannot write the completion script")?;
            out.flush().context("cannot write the completion script")?;
            Ok(ExitCode::SUCCESS)
        }
        Command::Man(ManArgs { output }) => {
            man::run(command(), output.as_deref())?;
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

    /// `--help` says each option's long form without its `-h` summary before it: no option of
    /// any command has a long help whose first paragraph is its short one.
    #[test]
    fn long_help_does_not_repeat_the_summary() {
        let cmd = super::command();
        let mut longs = 0;
        for sub in cmd.get_subcommands() {
            for arg in sub.get_arguments() {
                if let (Some(short), Some(long)) = (arg.get_help(), arg.get_long_help()) {
                    let (short, long) = (short.to_string(), long.to_string());
                    let first = long.split("\n\n").next().unwrap_or_default();
                    assert_ne!(first.trim_end_matches('.'), short, "{}: {long}", sub.get_name());
                    longs += 1;
                }
            }
        }
        assert!(longs > 20, "options with a long form: {longs}");
    }
}
