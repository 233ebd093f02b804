//! Printed pages: puzzles laid out on paper, page after page, and their answers on pages of
//! their own; as SVG documents, PNG images, or one PDF document.

use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::{Context, Result};
use clap::{Args, ValueEnum};
use dlx_sudoku::{Entry, Layout, Paper, Pdf, Printer, Puzzle, print_page};

use crate::choice;
use crate::output::{persist, temporary};
use crate::report::Usage;

/// The form of printed pages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum PageFormat {
    /// An SVG document a page: `page-0001.svg`, ...
    Svg,
    /// One PDF document of every page: `pages.pdf` (and `answers.pdf`).
    Pdf,
    /// A PNG image a page (200 dpi, or --dpi): `page-0001.png`, ...
    Png,
}

impl PageFormat {
    fn extension(self) -> &'static str {
        match self {
            PageFormat::Svg => "svg",
            PageFormat::Pdf => "pdf",
            PageFormat::Png => "png",
        }
    }
}

/// How pages are printed (`generate --paper`, and `render`).
#[derive(Debug, Args)]
pub(crate) struct PaperArgs {
    /// Lay puzzles out on pages of this paper, to print [default: a4].
    ///
    /// Lay puzzles out on pages of paper of this size, numbered and captioned with their level
    /// and rules, with a legend of the marks they show [default: a4 for pages]. One page on
    /// stdout (or every page, for PDF), or files with --output.
    #[arg(long, value_parser = choice::parser::<Paper>())]
    pub(crate) paper: Option<Paper>,
    /// With pages: the blank margin on each side, in millimetres.
    #[arg(long, value_name = "MM", default_value_t = 15.0, value_parser = margin)]
    pub(crate) margin: f64,
    /// With pages: answer pages too (on stdout, for PDF only).
    ///
    /// With pages: answer pages too, the givens in black and the digits found in grey: with
    /// --output, `answers-0001.svg`, ... (or `.png`), or `answers.pdf`; a PDF on stdout holds the
    /// puzzles, then the answers.
    #[arg(long)]
    pub(crate) answers: bool,
    /// With --format png: pixels an inch (25.4 mm) of paper [default: 200].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(50..=1200))]
    pub(crate) dpi: Option<u16>,
}

/// A margin between 0 and 50 mm.
fn margin(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(mm) if (0.0..=50.0).contains(&mm) => Ok(mm),
        _ => Err(format!("`{text}` is not a margin from 0 to 50 (mm)")),
    }
}

/// Where finished pages go.
enum Sink {
    Svg,
    /// The printer, and pixels a millimetre.
    Png(Printer, f32),
    /// The pages of puzzles and of answers, written when the book is finished.
    Pdf {
        pages: Pdf,
        answers: Pdf,
        /// On stdout, the answer pages, added after the puzzles' when the book is finished.
        held: Vec<String>,
    },
}

/// Pages being filled: written into a folder as each fills (a PDF when the book is finished), or
/// on stdout.
pub(crate) struct Book {
    paper: Paper,
    margin_mm: f64,
    /// Puzzles a page, when given; else as many as [`Layout::fitting`] allows for their sizes.
    per_page: Option<usize>,
    dir: Option<PathBuf>,
    format: PageFormat,
    sink: Sink,
    puzzles: Vec<Entry>,
    /// `Some` when answer pages are made.
    answers: Option<Vec<Entry>>,
    pages: usize,
    answer_pages: usize,
}

impl Book {
    /// A book of `per_page` puzzles a page (or as many as fill the paper), into `dir` or on
    /// stdout.
    pub(crate) fn new(
        args: &PaperArgs,
        format: PageFormat,
        per_page: Option<usize>,
        dir: Option<PathBuf>,
    ) -> Result<Book> {
        if args.answers && dir.is_none() && format != PageFormat::Pdf {
            return Err(Usage(
                "--answers on stdout is for --format pdf (one document: the puzzles, then the answers); \
                 SVG and PNG answer pages need --output DIR"
                    .into(),
            )
            .into());
        }
        if format != PageFormat::Png && args.dpi.is_some() {
            return Err(Usage("--dpi is for --format png".into()).into());
        }
        if dir.is_none() && format != PageFormat::Svg && io::stdout().is_terminal() {
            let ext = format.extension();
            let file = if format == PageFormat::Pdf { "pages" } else { "page" };
            return Err(Usage(format!(
                "a {} page is not text: redirect stdout (> {file}.{ext}) or give --output DIR",
                ext.to_uppercase()
            ))
            .into());
        }
        let sink = match format {
            PageFormat::Svg => Sink::Svg,
            PageFormat::Png => Sink::Png(Printer::new(), f32::from(args.dpi.unwrap_or(200)) / 25.4),
            PageFormat::Pdf => {
                let printer = Printer::new();
                Sink::Pdf { pages: printer.pdf(), answers: printer.pdf(), held: Vec::new() }
            }
        };
        Ok(Book {
            paper: args.paper.unwrap_or(Paper::A4),
            margin_mm: args.margin,
            per_page: per_page.map(|n| n.max(1)),
            dir,
            format,
            sink,
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

    /// The layout of a page of `entries`: the puzzles a page given, or as many as fill the paper
    /// with cells at least `cell_mm` wide for the largest of them.
    fn layout(&self, entries: &[Entry], cell_mm: f64) -> Layout {
        let side = entries.iter().map(|e| e.puzzle.size().side()).max().unwrap_or(9);
        let fitting = Layout::fitting(self.paper, self.margin_mm, side, cell_mm);
        Layout { per_page: self.per_page.unwrap_or(fitting.per_page), ..fitting }
    }

    /// Whether one page holds `entries` and one more.
    fn holds(&self, entries: &[Entry], more: &Entry, cell_mm: f64) -> bool {
        let mut side = more.puzzle.size().side();
        side = entries.iter().map(|e| e.puzzle.size().side()).max().unwrap_or(side).max(side);
        let fitting = Layout::fitting(self.paper, self.margin_mm, side, cell_mm).per_page;
        entries.len() < self.per_page.unwrap_or(fitting)
    }

    /// Whether a page of `entries` is full.
    fn is_full(&self, entries: &[Entry], cell_mm: f64) -> bool {
        entries.len() >= self.layout(entries, cell_mm).per_page
    }

    /// Whether all pages go into one stream (PDF) rather than one page alone on stdout.
    fn one_page(&self) -> bool {
        self.dir.is_none() && self.format != PageFormat::Pdf
    }

    /// Places puzzle `number`, captioned, with its solution for the answer pages (captioned
    /// with the number alone).
    pub(crate) fn add(&mut self, entry: Entry, number: u64, solution: Option<Puzzle>) -> Result<()> {
        if !self.holds(&self.puzzles, &entry, Layout::PUZZLE_CELL_MM) {
            if self.one_page() {
                let held = self.layout(&self.puzzles, Layout::PUZZLE_CELL_MM).per_page;
                return Err(Usage(format!(
                    "more puzzles than a page holds ({held}): give --output DIR for several pages, or \
                     a larger --per-page"
                ))
                .into());
            }
            self.flush_puzzles()?;
        }
        if let Some(answers) = &self.answers {
            let answer = Entry { caption: number.to_string(), solution, ..entry.clone() };
            if !self.holds(answers, &answer, Layout::ANSWER_CELL_MM) {
                self.flush_answers()?;
            }
            self.answers.as_mut().expect("answers are made").push(answer);
        }
        self.puzzles.push(entry);
        // A full page is written at once: a long run shows its pages as they fill.
        if !self.one_page() && self.is_full(&self.puzzles, Layout::PUZZLE_CELL_MM) {
            self.flush_puzzles()?;
        }
        if let Some(answers) = &self.answers
            && self.is_full(answers, Layout::ANSWER_CELL_MM)
        {
            self.flush_answers()?;
        }
        Ok(())
    }

    fn flush_puzzles(&mut self) -> Result<()> {
        if self.puzzles.is_empty() {
            return Ok(());
        }
        self.pages += 1;
        let layout = self.layout(&self.puzzles, Layout::PUZZLE_CELL_MM);
        let svg = print_page(&layout, &self.puzzles, None, &format!("page {}", self.pages))?;
        self.puzzles.clear();
        self.write(&svg, "page", self.pages)
    }

    fn flush_answers(&mut self) -> Result<()> {
        let Some(answers) = self.answers.take() else { return Ok(()) };
        if !answers.is_empty() {
            self.answer_pages += 1;
            let layout = self.layout(&answers, Layout::ANSWER_CELL_MM);
            let footer = format!("answers, page {}", self.answer_pages);
            let svg = print_page(&layout, &answers, Some("Answers"), &footer)?;
            self.write(&svg, "answers", self.answer_pages)?;
        }
        self.answers = Some(Vec::new());
        Ok(())
    }

    /// Writes page `number` of `name` (`page` or `answers`): into its file, on stdout, or into
    /// the PDF.
    fn write(&mut self, svg: &str, name: &str, number: usize) -> Result<()> {
        let bytes = match &mut self.sink {
            Sink::Pdf { held, .. } if name == "answers" && self.dir.is_none() => {
                held.push(svg.to_owned());
                return Ok(());
            }
            Sink::Pdf { pages, answers, .. } => {
                let pdf = if name == "answers" { answers } else { pages };
                pdf.add(svg).with_context(|| format!("{name} {number}"))?;
                return Ok(());
            }
            Sink::Png(printer, dots) => {
                printer.png(svg, *dots).with_context(|| format!("{name} {number}"))?
            }
            Sink::Svg => svg.as_bytes().to_vec(),
        };
        let ext = self.format.extension();
        self.put(&bytes, &format!("{name}-{number:04}.{ext}"))
    }

    /// Writes `bytes` into the file `name` of the folder, whole or not at all, or on stdout.
    fn put(&self, bytes: &[u8], name: &str) -> Result<()> {
        match &self.dir {
            Some(dir) => {
                let mut file = temporary(dir, ".part")?;
                file.write_all(bytes)?;
                persist(file, &dir.join(name))
            }
            None => {
                let mut out = io::stdout().lock();
                out.write_all(bytes)?;
                Ok(out.flush()?)
            }
        }
    }

    /// Writes the last pages, however full, and the PDF documents.
    pub(crate) fn finish(mut self) -> Result<()> {
        self.flush_puzzles()?;
        self.flush_answers()?;
        if let Sink::Pdf { mut pages, answers, held } = std::mem::replace(&mut self.sink, Sink::Svg) {
            // On stdout, one document: the puzzles, then their answers.
            for (k, svg) in held.iter().enumerate() {
                pages.add(svg).with_context(|| format!("answers {}", k + 1))?;
            }
            if pages.pages() > 0 || self.dir.is_none() {
                self.put(&pages.finish(), "pages.pdf")?;
            }
            if answers.pages() > 0 {
                self.put(&answers.finish(), "answers.pdf")?;
            }
        }
        Ok(())
    }
}
