//! `dlx man`: manual pages in roff, from the command-line definition (`clap_mangen`), one for
//! `dlx` and one per command (`dlx-solve.1` ...), each with its options, its examples (those of
//! `--help`, from `examples`) and, for `dlx`, the exit statuses. Text written `like this` in the
//! help is set in bold, as manual pages show literal words, not with its backquotes.

use std::fs;
use std::io::{self, Write};
use std::path::Path;

use anyhow::{Context, Result};
use clap_mangen::Man;

use crate::examples::{self, Examples};
use crate::output::{persist, temporary};

/// Prints the page of `dlx` on stdout, or writes it and one page per command into `dir`.
pub(crate) fn run(cli: clap::Command, dir: Option<&Path>) -> Result<()> {
    let mut cli = cli.disable_help_subcommand(true);
    cli.build();
    let Some(dir) = dir else {
        let mut out = io::stdout().lock();
        out.write_all(&page(&cli, None)?)?;
        return Ok(out.flush()?);
    };
    fs::create_dir_all(dir).with_context(|| format!("cannot create {}", dir.display()))?;
    let mut pages = vec![(String::from("dlx"), page(&cli, None)?)];
    for command in cli.get_subcommands().filter(|c| !c.is_hide_set()) {
        let name = command.get_name();
        pages.push((format!("dlx-{name}"), page(command, examples_of(name))?));
    }
    for (name, text) in pages {
        let mut file = temporary(dir, ".1.part")?;
        file.write_all(&text).with_context(|| format!("cannot write in {}", dir.display()))?;
        persist(file, &dir.join(format!("{name}.1")))?;
    }
    Ok(())
}

/// The examples of the command `name`.
fn examples_of(name: &str) -> Option<Examples> {
    Some(match name {
        "solve" => examples::SOLVE,
        "count" => examples::COUNT,
        "generate" => examples::GENERATE,
        "rate" => examples::RATE,
        "render" => examples::RENDER,
        "xc" => examples::XC,
        "merge" => examples::MERGE,
        "completions" => examples::COMPLETIONS,
        "man" => examples::MAN,
        _ => return None,
    })
}

/// The page of `command`: name, synopsis, description, options, commands, examples, version.
fn page(command: &clap::Command, examples: Option<Examples>) -> Result<Vec<u8>> {
    // (The examples get a section of their own, where `--help` has them at its end.)
    let man = Man::new(command.clone());
    let mut roff = Vec::new();
    man.render_title(&mut roff)?;
    man.render_name_section(&mut roff)?;
    roff.extend_from_slice(synopsis(command).as_bytes());
    man.render_description_section(&mut roff)?;
    man.render_options_section(&mut roff)?;
    if command.has_subcommands() {
        man.render_subcommands_section(&mut roff)?;
    }
    if let Some(examples) = examples {
        // (Left-adjusted: a long example is not spread over the line.)
        roff.extend_from_slice(b".SH EXAMPLES\n.ad l\n");
        for (line, what) in examples {
            // A roff line that starts with a dot or a quote is a request: none of these does.
            roff.extend_from_slice(
                format!(".TP\n\\fBdlx {}\\fR\n{}\n", escape(line), escape(what)).as_bytes(),
            );
        }
    }
    if command.get_version().is_some() {
        // The top-level page: its exit statuses, which every command shares.
        roff.extend_from_slice(
            format!(".SH \"EXIT STATUS\"\n{}\n", escape(crate::report::EXIT_STATUS)).as_bytes(),
        );
        man.render_version_section(&mut roff)?;
    }
    let text = String::from_utf8(roff).context("the page is text")?;
    Ok(text.lines().map(|line| bold_quotes(line) + "\n").collect::<String>().into_bytes())
}

/// The synopsis of `command`: its name, then each option with the value it takes (`[--rules
/// NAME]`, bracketed unless required), the positional arguments (`[FILE]...`) and the command.
fn synopsis(command: &clap::Command) -> String {
    let name = command.get_bin_name().unwrap_or(command.get_name());
    let mut line = format!(".SH SYNOPSIS\n\\fB{}\\fR", escape(name));
    for arg in command.get_arguments().filter(|a| !a.is_hide_set()) {
        let values: Vec<String> = match arg.get_value_names() {
            Some(names) => names.iter().map(|n| format!("\\fI{}\\fR", escape(n))).collect(),
            None => vec![format!("\\fI{}\\fR", escape(&arg.get_id().as_str().to_uppercase()))],
        };
        let takes_value = arg.get_action().takes_values();
        let mut text = if arg.is_positional() {
            values.join(" ")
        } else {
            let short = arg.get_short().map(|s| format!("\\fB\\-{s}\\fR"));
            let long = arg.get_long().map(|l| format!("\\fB\\-\\-{}\\fR", escape(l)));
            let mut text = short.into_iter().chain(long).collect::<Vec<_>>().join("|");
            if takes_value {
                text = format!("{text} {}", values.join(" "));
            }
            text
        };
        if !arg.is_required_set() {
            text = format!("[{text}]");
        }
        let many = arg.get_num_args().is_some_and(|n| n.max_values() > 1)
            || matches!(arg.get_action(), clap::ArgAction::Append);
        if many {
            text.push_str("...");
        }
        line.push(' ');
        line.push_str(&text);
    }
    if command.has_subcommands() {
        line.push_str(" \\fICOMMAND\\fR");
    }
    line.push('\n');
    line
}

/// Text for roff: backslashes and hyphens escaped.
fn escape(text: &str) -> String {
    text.replace('\\', "\\e").replace('-', "\\-")
}

/// A line of the page with each `word` in backquotes set in bold instead (requests, the lines
/// starting with a dot, are left as they are).
fn bold_quotes(line: &str) -> String {
    if line.starts_with('.') || !line.contains('`') {
        return line.to_owned();
    }
    if line.matches('`').count() % 2 == 1 {
        // A backquote without a partner: all are shown as grave accents, none as bold.
        return line.replace('`', "\\(ga");
    }
    // Between the 1st and 2nd backquote, the 3rd and 4th, ...: bold.
    let mut out = String::with_capacity(line.len() + 16);
    for (k, part) in line.split('`').enumerate() {
        if k % 2 == 1 {
            out.push_str("\\fB");
            out.push_str(part);
            out.push_str("\\fR");
        } else {
            out.push_str(part);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::bold_quotes;

    #[test]
    fn backquoted_words_are_bold() {
        assert_eq!(bold_quotes("read `x.dlx` or `-`"), "read \\fBx.dlx\\fR or \\fB-\\fR");
        assert_eq!(bold_quotes(".TP `x`"), ".TP `x`");
        assert_eq!(bold_quotes("a lone ` quote"), "a lone \\(ga quote");
    }
}
