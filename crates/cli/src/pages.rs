//! Printed pages: puzzles laid out on paper, page after page, and their answers on pages of
//! their own.

use std::io::{self, Write};
use std::path::PathBuf;

use anyhow::Result;
use clap::Args;
use dlx_sudoku::{Entry, Layout, Paper, Puzzle, print_page};

use crate::choice;
use crate::output::{persist, temporary};
use crate::report::Usage;

/// Answers are drawn smaller: at least this many to a page.
const ANSWERS_PER_PAGE: usize = 12;

/// How pages are printed (`generate --format svg --paper`, and `render`).
#[derive(Debug, Args)]
pub(crate) struct PaperArgs {
    /// Lay puzzles out on pages of this paper, to print.
    ///
    /// Lay puzzles out on pages of paper of this size, numbered and captioned with their level
    /// and variant, with a legend; one page on stdout, or `page-0001.svg`, ... with --output.
    #[arg(long, value_parser = choice::parser::<Paper>())]
    pub(crate) paper: Option<Paper>,
    /// With --paper: the blank margin on each side, in millimetres.
    #[arg(long, value_name = "MM", default_value_t = 15.0, value_parser = margin)]
    pub(crate) margin: f64,
    /// With --paper and --output: answer pages too.
    ///
    /// With --paper and --output: answer pages too (`answers-0001.svg`, ...), the givens in black
    /// and the digits found in grey.
    #[arg(long)]
    pub(crate) answers: bool,
}

/// A margin between 0 and 50 mm.
fn margin(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(mm) if (0.0..=50.0).contains(&mm) => Ok(mm),
        _ => Err(format!("`{text}` is not a margin from 0 to 50 (mm)")),
    }
}

/// Pages being filled: written into a folder as each fills, or the one page on stdout.
pub(crate) struct Book {
    layout: Layout,
    dir: Option<PathBuf>,
    puzzles: Vec<Entry>,
    /// `Some` when answer pages are made.
    answers: Option<Vec<Entry>>,
    pages: usize,
    answer_pages: usize,
}

impl Book {
    /// A book of `per_page` puzzles a page, into `dir` or on stdout.
    pub(crate) fn new(args: &PaperArgs, paper: Paper, per_page: usize, dir: Option<PathBuf>) -> Result<Book> {
        if args.answers && dir.is_none() {
            return Err(Usage("--answers needs --output DIR: answers are pages of their own".into()).into());
        }
        Ok(Book {
            layout: Layout { paper, margin_mm: args.margin, per_page: per_page.max(1) },
            dir,
            puzzles: Vec::new(),
            answers: args.answers.then(Vec::new),
            pages: 0,
            answer_pages: 0,
        })
    }

    /// Whether answer pages are made (so the caller knows to find solutions).
    pub(crate) fn wants_answers(&self) -> bool {
        self.answers.is_some()
    }

    /// Places puzzle `number`, captioned, with its solution for the answer pages (captioned
    /// with the number alone).
    pub(crate) fn add(&mut self, entry: Entry, number: u64, solution: Option<Puzzle>) -> Result<()> {
        if self.dir.is_none() && self.puzzles.len() == self.layout.per_page {
            return Err(Usage(format!(
                "more puzzles than a page holds ({}): give --output DIR for several pages, or a larger \
                 --per-page",
                self.layout.per_page
            ))
            .into());
        }
        if let Some(answers) = &mut self.answers {
            answers.push(Entry { caption: number.to_string(), solution, ..entry.clone() });
        }
        self.puzzles.push(entry);
        if self.dir.is_some() && self.puzzles.len() == self.layout.per_page {
            self.flush_puzzles()?;
        }
        if let Some(answers) = &self.answers
            && answers.len() == self.answers_layout().per_page
        {
            self.flush_answers()?;
        }
        Ok(())
    }

    fn answers_layout(&self) -> Layout {
        Layout { per_page: self.layout.per_page.max(ANSWERS_PER_PAGE), ..self.layout }
    }

    fn flush_puzzles(&mut self) -> Result<()> {
        if self.puzzles.is_empty() {
            return Ok(());
        }
        self.pages += 1;
        let footer = if self.dir.is_some() { format!("page {}", self.pages) } else { String::new() };
        let svg = print_page(&self.layout, &self.puzzles, None, &footer)?;
        self.puzzles.clear();
        self.write(svg, "page", self.pages)
    }

    fn flush_answers(&mut self) -> Result<()> {
        let Some(answers) = self.answers.take() else { return Ok(()) };
        if !answers.is_empty() {
            self.answer_pages += 1;
            let footer = format!("answers, page {}", self.answer_pages);
            let svg = print_page(&self.answers_layout(), &answers, Some("Answers"), &footer)?;
            self.write(svg, "answers", self.answer_pages)?;
        }
        self.answers = Some(Vec::new());
        Ok(())
    }

    fn write(&self, svg: String, name: &str, number: usize) -> Result<()> {
        match &self.dir {
            Some(dir) => {
                let mut file = temporary(dir, ".svg.part")?;
                file.write_all(svg.as_bytes())?;
                persist(file, &dir.join(format!("{name}-{number:04}.svg")))
            }
            None => {
                let mut out = io::stdout().lock();
                out.write_all(svg.as_bytes())?;
                Ok(out.flush()?)
            }
        }
    }

    /// Writes the last pages, however full.
    pub(crate) fn finish(mut self) -> Result<()> {
        self.flush_puzzles()?;
        self.flush_answers()
    }
}
