//! Pages as a PDF document (`svg2pdf`, pages put together with `pdf-writer`) and as PNG images
//! (`resvg`), drawn in the DejaVu Sans font this module carries: no font of the machine is
//! looked for, so a page comes out the same everywhere.

use std::collections::HashMap;
use std::sync::Arc;

use pdf_writer::{Chunk, Content, Finish, Name, Rect, Ref};
use resvg::tiny_skia;
use svg2pdf::usvg::{self, fontdb};

/// Why a page could not be printed.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum PrintError {
    /// The document is not SVG the printer reads.
    #[error("the page is not SVG that can be printed: {0}")]
    Svg(String),
    /// A text of the page has a character the fonts lack; it would be left out.
    #[error("the page has text the fonts cannot draw: {0:?}")]
    MissingGlyphs(String),
    /// The PDF conversion failed.
    #[error("the page cannot be made PDF: {0}")]
    Pdf(String),
    /// The page is too large for an image, or the PNG encoder failed.
    #[error("the page cannot be made an image: {0}")]
    Image(String),
}

/// Prints pages (SVG documents, such as [`print_page`](crate::print_page) writes) as PDF or PNG.
/// Made once and reused: it holds the fonts.
///
/// ```
/// use dlx_sudoku::{Entry, Layout, Printer, Puzzle, print_page};
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let puzzle: Puzzle = format!("5{}", ".".repeat(80)).parse()?;
/// let entry = Entry { puzzle, caption: "1".into(), solution: None };
/// let page = print_page(&Layout::DEFAULT, &[entry], None, "page 1")?;
/// let printer = Printer::new();
/// let mut pdf = printer.pdf();
/// pdf.add(&page)?;
/// assert!(pdf.finish().starts_with(b"%PDF-"));
/// // An A4 page at 4 dots a millimetre (about 100 dpi).
/// let image = printer.image(&page, 4.0)?;
/// assert_eq!((image.width, image.height), (840, 1188));
/// assert!(printer.png(&page, 4.0)?.starts_with(b"\x89PNG"));
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Printer {
    fonts: Arc<fontdb::Database>,
}

impl Default for Printer {
    fn default() -> Self {
        Self::new()
    }
}

/// Pixels per millimetre in SVG units (96 a inch).
const PX_PER_MM: f32 = 96.0 / 25.4;
/// PDF points per SVG pixel.
const PT_PER_PX: f32 = 72.0 / 96.0;

impl Printer {
    /// A printer with its font, DejaVu Sans, for every family the pages name (a bold title is
    /// drawn in its regular face: the bold face would double the fonts carried).
    pub fn new() -> Printer {
        let mut fonts = fontdb::Database::new();
        fonts.load_font_data(dejavu::sans::regular().to_vec());
        for family in ["sans-serif", "serif", "monospace", "cursive", "fantasy"] {
            let set: fn(&mut fontdb::Database, String) = match family {
                "sans-serif" => fontdb::Database::set_sans_serif_family,
                "serif" => fontdb::Database::set_serif_family,
                "monospace" => fontdb::Database::set_monospace_family,
                "cursive" => fontdb::Database::set_cursive_family,
                _ => fontdb::Database::set_fantasy_family,
            };
            set(&mut fonts, "DejaVu Sans".to_owned());
        }
        Printer { fonts: Arc::new(fonts) }
    }

    /// The page read, its text laid out in the printer's fonts; an error for text they lack.
    fn tree(&self, svg: &str) -> Result<usvg::Tree, PrintError> {
        let options = usvg::Options {
            font_family: "DejaVu Sans".to_owned(),
            fontdb: Arc::clone(&self.fonts),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(svg, &options).map_err(|e| PrintError::Svg(e.to_string()))?;
        if let Some(text) = missing_glyphs(tree.root()) {
            return Err(PrintError::MissingGlyphs(text));
        }
        Ok(tree)
    }

    /// A PDF document to add pages to.
    pub fn pdf(&self) -> Pdf {
        Pdf { printer: self.clone(), pages: Vec::new() }
    }

    /// The page drawn at `dots_per_mm` pixels a millimetre, on white.
    pub fn image(&self, svg: &str, dots_per_mm: f32) -> Result<Image, PrintError> {
        let pixmap = self.pixmap(svg, dots_per_mm)?;
        let (width, height) = (pixmap.width(), pixmap.height());
        // Every pixel is opaque (the page is drawn on white), so premultiplied is plain RGBA.
        Ok(Image { width, height, rgba: pixmap.take() })
    }

    /// The page as a PNG image at `dots_per_mm` pixels a millimetre (4 is about 100 dpi, 12 about
    /// 300), on white.
    pub fn png(&self, svg: &str, dots_per_mm: f32) -> Result<Vec<u8>, PrintError> {
        let pixmap = self.pixmap(svg, dots_per_mm)?;
        pixmap.encode_png().map_err(|e| PrintError::Image(e.to_string()))
    }

    fn pixmap(&self, svg: &str, dots_per_mm: f32) -> Result<tiny_skia::Pixmap, PrintError> {
        let tree = self.tree(svg)?;
        let scale = dots_per_mm / PX_PER_MM;
        let size = tree.size();
        let (width, height) = ((size.width() * scale).ceil(), (size.height() * scale).ceil());
        let too_large = || PrintError::Image(format!("{width} x {height} pixels is too many"));
        if !(1.0..=20_000.0).contains(&width) || !(1.0..=20_000.0).contains(&height) {
            return Err(too_large());
        }
        #[allow(clippy::cast_possible_truncation)]
        let mut pixmap = tiny_skia::Pixmap::new(width as u32, height as u32).ok_or_else(too_large)?;
        pixmap.fill(tiny_skia::Color::WHITE);
        resvg::render(&tree, tiny_skia::Transform::from_scale(scale, scale), &mut pixmap.as_mut());
        Ok(pixmap)
    }
}

/// The first text under `group` with a character the font lacks.
fn missing_glyphs(group: &usvg::Group) -> Option<String> {
    for node in group.children() {
        let found = match node {
            usvg::Node::Group(g) => missing_glyphs(g),
            usvg::Node::Text(text) => text
                .chunks()
                .iter()
                .find(|chunk| chunk.text().chars().any(|c| !c.is_whitespace() && !has_glyph(c)))
                .map(|chunk| chunk.text().to_owned()),
            _ => None,
        };
        if found.is_some() {
            return found;
        }
    }
    None
}

/// Whether DejaVu Sans draws `c`.
fn has_glyph(c: char) -> bool {
    static FACE: std::sync::OnceLock<Option<ttf_parser::Face<'static>>> = std::sync::OnceLock::new();
    FACE.get_or_init(|| ttf_parser::Face::parse(dejavu::sans::regular(), 0).ok())
        .as_ref()
        .is_some_and(|face| face.glyph_index(c).is_some())
}

/// An image of a page: `width` x `height` pixels, each four bytes (red, green, blue, alpha), row
/// after row from the top.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Pixels a row.
    pub width: u32,
    /// Rows.
    pub height: u32,
    /// The pixels.
    pub rgba: Vec<u8>,
}

impl Image {
    /// The colour of the pixel at column `x` and row `y` (red, green, blue, alpha).
    pub fn pixel(&self, x: u32, y: u32) -> [u8; 4] {
        let at = (y as usize * self.width as usize + x as usize) * 4;
        [self.rgba[at], self.rgba[at + 1], self.rgba[at + 2], self.rgba[at + 3]]
    }
}

/// A PDF document being made, a page at a time; [`finish`](Self::finish) gives its bytes.
#[derive(Debug)]
pub struct Pdf {
    printer: Printer,
    /// Each page's drawing as a form, the form's reference, and the page's size in points.
    pages: Vec<(Chunk, Ref, (f32, f32))>,
}

impl Pdf {
    /// Adds `svg` as a page the size it says (an A4 page is an A4 page of the PDF).
    pub fn add(&mut self, svg: &str) -> Result<(), PrintError> {
        let tree = self.printer.tree(svg)?;
        let size = tree.size();
        let (chunk, form) = svg2pdf::to_chunk(&tree, svg2pdf::ConversionOptions::default())
            .map_err(|e| PrintError::Pdf(e.to_string()))?;
        self.pages.push((chunk, form, (size.width() * PT_PER_PX, size.height() * PT_PER_PX)));
        Ok(())
    }

    /// Pages added so far.
    pub fn pages(&self) -> usize {
        self.pages.len()
    }

    /// The document's bytes.
    pub fn finish(self) -> Vec<u8> {
        let mut next = Ref::new(1);
        let catalog = next.bump();
        let tree = next.bump();
        let mut pdf = pdf_writer::Pdf::new();
        let mut kids = Vec::with_capacity(self.pages.len());
        let mut chunks = Vec::with_capacity(self.pages.len());
        for (chunk, form, (width, height)) in &self.pages {
            // Each page's objects numbered after those before it.
            let mut numbers = HashMap::new();
            let chunk = chunk.renumber(|old| *numbers.entry(old).or_insert_with(|| next.bump()));
            let form = numbers[form];
            let (page, content) = (next.bump(), next.bump());
            let mut writer = pdf.page(page);
            writer.media_box(Rect::new(0.0, 0.0, *width, *height));
            writer.parent(tree);
            writer.contents(content);
            writer.resources().x_objects().pair(Name(b"P"), form);
            writer.finish();
            let mut stream = Content::new();
            stream.transform([*width, 0.0, 0.0, *height, 0.0, 0.0]).x_object(Name(b"P"));
            pdf.stream(content, &stream.finish());
            kids.push(page);
            chunks.push(chunk);
        }
        pdf.catalog(catalog).pages(tree);
        let count = i32::try_from(kids.len()).unwrap_or(i32::MAX);
        pdf.pages(tree).kids(kids).count(count);
        for chunk in &chunks {
            pdf.extend(chunk);
        }
        pdf.finish()
    }
}
