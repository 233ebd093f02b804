//! Print-ready pages: paper sizes, places, captions, legends, answer pages, and `dlx render`.

use crate::common::{dlx, fixture};
use dlx_sudoku::{Image, Printer};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The texts of a class (`caption`, `given`, `found`, `legend`, `footer`) on a page, in order.
fn texts(svg: &str, class: &str) -> Vec<String> {
    let tag = format!(r#"<text class="{class}""#);
    svg.lines()
        .filter(|l| l.contains(&tag))
        .map(|l| {
            let at = l.find(&tag).unwrap();
            let start = at + l[at..].find('>').unwrap() + 1;
            l[start..start + l[start..].find("</text>").unwrap()].to_owned()
        })
        .collect()
}

/// The names of the files in a folder, sorted.
fn files(dir: &std::path::Path) -> Vec<String> {
    let mut names: Vec<String> =
        std::fs::read_dir(dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
    names.sort();
    names
}

/// The captions of a page, in order.
fn captions(svg: &str) -> Vec<String> {
    texts(svg, "caption")
}

/// A page is a whole SVG document on paper of the asked size, its groups closed.
fn check_page(svg: &str, paper: &str) {
    assert!(
        svg.starts_with(&format!("<svg xmlns=\"http://www.w3.org/2000/svg\" {paper}")),
        "{}",
        &svg[..120]
    );
    assert!(svg.ends_with("</svg>\n"));
    assert_eq!(svg.matches("<g ").count(), svg.matches("</g>").count());
}

#[test]
fn generated_pages_with_answers() {
    let dir = tempfile::tempdir().unwrap();
    let args = [
        "generate",
        "-n",
        "8",
        "--seed",
        "3",
        "-f",
        "svg",
        "--paper",
        "letter",
        "--answers",
        "--margin",
        "10",
    ];
    let out = dlx(&[&args[..], &["-o", dir.path().to_str().unwrap()]].concat(), "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(files(dir.path()), ["answers-0001.svg", "page-0001.svg", "page-0002.svg"]);
    let page = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    let json = dlx(&["generate", "-n", "8", "--seed", "3", "-f", "json"], "");
    let rows: Vec<serde_json::Value> =
        text(&json.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let expected: Vec<String> = rows
        .iter()
        .enumerate()
        .map(|(k, r)| format!("{} · {} · classic", k + 1, r["level"].as_str().unwrap()))
        .collect();
    let (first, second) = (page("page-0001.svg"), page("page-0002.svg"));
    for svg in [&first, &second] {
        check_page(svg, r#"width="215.9mm" height="279.4mm""#);
    }
    assert_eq!([captions(&first), captions(&second)].concat(), expected);
    assert_eq!(texts(&first, "footer"), ["page 1"]);
    assert_eq!(texts(&second, "footer"), ["page 2"]);
    // Classic puzzles need no legend.
    assert!(texts(&first, "legend").is_empty());
    // The answers: every given in black and every other digit in grey, once per cell.
    let answers = page("answers-0001.svg");
    check_page(&answers, r#"width="215.9mm""#);
    assert_eq!(texts(&answers, "title"), ["Answers"]);
    assert_eq!(texts(&answers, "footer"), ["answers, page 1"]);
    let clues: usize = rows.iter().map(|r| usize::try_from(r["clues"].as_u64().unwrap()).unwrap()).sum();
    assert_eq!(texts(&answers, "found").len(), 8 * 81 - clues);
    assert_eq!(texts(&answers, "given").len(), clues);
    // Each digit drawn on the answer page is the solution's, in order.
    let digits: String = answers
        .lines()
        .filter(|l| l.contains(r#"class="given""#) || l.contains(r#"class="found""#))
        .map(|l| l[l.rfind("</text>").unwrap() - 1..l.rfind("</text>").unwrap()].to_owned())
        .collect();
    let solutions: String = rows.iter().map(|r| r["solution"].as_str().unwrap()).collect();
    assert_eq!(digits, solutions);
}

#[test]
fn a_page_on_stdout_holds_what_it_can() {
    let out = dlx(&["generate", "-n", "7", "--seed", "3", "-f", "svg", "--paper", "a4"], "");
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        text(&out.stderr),
        "dlx: 7 puzzles make several pages of 6: give --output DIR, or a larger --per-page\n"
    );
    let out =
        dlx(&["generate", "-n", "7", "--seed", "3", "-f", "svg", "--paper", "a4", "--per-page", "9"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    check_page(&text(&out.stdout), r#"width="210mm" height="297mm""#);
    assert_eq!(captions(&text(&out.stdout)).len(), 7);
    // --paper implies --format svg.
    let implied = dlx(&["generate", "-n", "7", "--seed", "3", "--paper", "a4", "--per-page", "9"], "");
    assert_eq!(implied.stdout, out.stdout, "{}", text(&implied.stderr));
    for (args, error) in [
        (
            &["generate", "-f", "svg", "--paper", "a4", "--answers"][..],
            "--answers on stdout is for --format pdf",
        ),
        (&["generate", "-f", "line", "--paper", "a4"], "--paper are for pictures"),
        (&["generate", "--answers"], "--answers is for pages of paper"),
        (&["render", "--answers"], "SVG and PNG answer pages need --output DIR"),
        (
            &["generate", "-f", "svg", "--paper", "a4", "--per-page", "101"],
            "a page of paper holds at most 100",
        ),
    ] {
        let out = dlx(args, "");
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(error), "{args:?}: {}", text(&out.stderr));
    }
    let out = dlx(&["generate", "-f", "svg", "--paper", "a4", "--margin", "80"], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(text(&out.stderr).contains("`80` is not a margin from 0 to 50 (mm)"), "{}", text(&out.stderr));
}

/// `dlx render` draws puzzles one has, captioned with their levels as `dlx rate` gives them, the
/// legend naming the marks present; malformed records are reported and left out.
#[test]
fn render_puzzles_one_has() {
    let mix = std::fs::read_to_string(fixture("../docs/page-a4.txt")).unwrap();
    let rated = dlx(&["rate", "-f", "json"], &mix);
    let rows: Vec<serde_json::Value> =
        text(&rated.stdout).lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    let out = dlx(&["render"], &mix);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    check_page(&svg, r#"width="210mm""#);
    let variants = ["classic", "diagonal", "windoku", "9x9 jigsaw even odd", "9x9 killer", "even"];
    let expected: Vec<String> = rows
        .iter()
        .zip(variants)
        .enumerate()
        .map(|(k, (r, v))| format!("{} · {} · {v}", k + 1, r["level"].as_str().unwrap()))
        .collect();
    assert_eq!(captions(&svg), expected);
    // Each mark named once, in one legend.
    assert_eq!(
        texts(&svg, "legend"),
        [
            "a grey square holds an even digit",
            "a grey circle holds an odd digit",
            "each shaded window holds 1-9 too",
            "each diagonal holds 1-9 too",
            "a dashed cage adds up to its sum, no digit twice",
        ]
    );
    assert_eq!(svg.matches(r#"<g class="swatch""#).count(), 5);
    assert_eq!(texts(&svg, "footer"), ["page 1"]);
    let bad = dlx(&["render", &fixture("sudoku-bad.txt")], "");
    assert_eq!(bad.status.code(), Some(2));
    assert!(
        text(&bad.stderr)
            .contains("sudoku-bad.txt:3: digit 5 appears twice in row 1 (r1c2, r1c8); puzzle 2 left out"),
        "{}",
        text(&bad.stderr)
    );
    let drawn = captions(&text(&bad.stdout));
    assert_eq!(drawn.iter().map(|c| c.split(' ').next().unwrap()).collect::<Vec<_>>(), ["1", "4"]);
    let open = dlx(&["render"], &".".repeat(81));
    assert_eq!(captions(&text(&open.stdout)), ["1 · several solutions · classic"]);
}

/// Windoku pages shade the four windows of each grid and say so in the legend.
#[test]
fn windoku_windows_are_shaded() {
    let out = dlx(
        &["generate", "--variant", "windoku", "-n", "2", "--seed", "4", "-f", "svg", "--paper", "a4"],
        "",
    );
    assert!(out.status.success(), "{}", text(&out.stderr));
    let svg = text(&out.stdout);
    check_page(&svg, r#"width="210mm""#);
    // Each window's nine cells shaded, in two grids, and one swatch in the legend.
    assert_eq!(svg.matches(r##"fill="#e6e6e6""##).count(), 2 * 4 * 9 + 1);
    assert_eq!(texts(&svg, "legend"), ["each shaded window holds 1-9 too"]);
    assert_eq!(captions(&svg).iter().filter(|c| c.ends_with(" · windoku")).count(), 2);
}

/// Pixels a millimetre the pages are drawn at in these tests.
const DOTS: f32 = 4.0;

/// The box of a page's inked (not white) pixels, in millimetres: left, top, right, bottom.
fn inked(image: &Image) -> Option<[f64; 4]> {
    let mut found: Option<[u32; 4]> = None;
    for y in 0..image.height {
        for x in 0..image.width {
            let [r, g, b, _] = image.pixel(x, y);
            if r.min(g).min(b) < 250 {
                let f = found.get_or_insert([x, y, x, y]);
                *f = [f[0].min(x), f[1].min(y), f[2].max(x + 1), f[3].max(y + 1)];
            }
        }
    }
    found.map(|f| f.map(|v| f64::from(v) / f64::from(DOTS)))
}

/// A page split in two documents: its grids and captions, and its footer (the legend and the
/// page number).
fn layers(svg: &str) -> (String, String) {
    let (foot, grids) = only(svg, &["legend", "footer", "swatch"]);
    (grids, foot)
}

/// A page split in two documents: the elements of these classes, and the rest.
fn only(svg: &str, classes: &[&str]) -> (String, String) {
    let footer = |l: &str| classes.iter().any(|c| l.contains(&format!("class=\"{c}\"")));
    let frame = |l: &str| l.starts_with("<svg") || l.starts_with("</svg") || l.contains(r#"fill="white"/>"#);
    let (mut grids, mut foot) = (String::new(), String::new());
    for line in svg.lines() {
        if frame(line) && !line.contains("<text") {
            grids.push_str(line);
            foot.push_str(line);
        } else if footer(line) {
            foot.push_str(line);
        } else {
            grids.push_str(line);
        }
        grids.push('\n');
        foot.push('\n');
    }
    (foot, grids)
}

/// Draws `svg` (a page of `paper` mm with `margin` mm margins) with a real rasteriser and checks
/// that nothing is drawn in the margins, that the footer holds the page number, and that the
/// grids stay above it. Returns the box of the grids.
fn check_pixels(svg: &str, paper: (f64, f64), margin: f64, what: &str) -> [f64; 4] {
    let printer = Printer::new();
    let page = printer.image(svg, DOTS).unwrap();
    assert_eq!(
        (f64::from(page.width), f64::from(page.height)),
        ((paper.0 * 4.0).ceil(), (paper.1 * 4.0).ceil()),
        "{what}"
    );
    // Half a millimetre for the thick lines' ends and the anti-aliasing.
    let [left, top, right, bottom] = inked(&page).unwrap();
    assert!(
        left >= margin - 0.5
            && top >= margin - 0.5
            && right <= paper.0 - margin + 0.5
            && bottom <= paper.1 - margin + 0.5,
        "{what}: ink at {left:.1}..{right:.1} x {top:.1}..{bottom:.1} mm, past the {margin} mm margins"
    );
    let (grids, foot) = layers(svg);
    let grids = inked(&printer.image(&grids, DOTS).unwrap()).unwrap();
    let foot = inked(&printer.image(&foot, DOTS).unwrap()).expect("a page number");
    assert!(
        grids[3] + 0.5 <= foot[1],
        "{what}: the grids reach {:.1} mm, the footer starts at {:.1} mm",
        grids[3],
        foot[1]
    );
    // The page number clear of the legend.
    let (legend, _) = only(svg, &["legend", "swatch"]);
    let (number, _) = only(svg, &["footer"]);
    if let Some(legend) = inked(&printer.image(&legend, DOTS).unwrap()) {
        let number = inked(&printer.image(&number, DOTS).unwrap()).unwrap();
        let apart = legend[2] <= number[0]
            || number[2] <= legend[0]
            || legend[3] <= number[1]
            || number[3] <= legend[1];
        assert!(apart, "{what}: the legend {legend:?} runs into the page number {number:?}");
    }
    grids
}

/// Pages drawn into pixels: nothing outside the margins, nothing over the footer, whatever the
/// paper, the margins, the sizes and the marks (a legend of five marks and a move that takes
/// three lines beside the page number, or a line of its own on narrow paper).
#[test]
fn pages_keep_inside_the_paper_in_pixels() {
    let mix = std::fs::read_to_string(fixture("../docs/page-a4.txt")).unwrap();
    let knight = "..2......4..1...........9....89......3.....8......46....7...........1..7......1.. variant=anti-knight";
    let all = format!("{mix}{knight}\n");
    for (paper, size, margin) in
        [("a4", (210.0, 297.0), "15"), ("letter", (215.9, 279.4), "0"), ("a4", (210.0, 297.0), "50")]
    {
        let dir = tempfile::tempdir().unwrap();
        let args =
            ["render", "--paper", paper, "--margin", margin, "--answers", "-o", dir.path().to_str().unwrap()];
        let out = dlx(&args, &all);
        assert!(out.status.success(), "{}", text(&out.stderr));
        let names = files(dir.path());
        assert!(names.len() >= 2, "{names:?}");
        for name in names {
            let svg = std::fs::read_to_string(dir.path().join(&name)).unwrap();
            let what = format!("{paper}, {margin} mm, {name}");
            check_pixels(&svg, size, margin.parse().unwrap(), &what);
        }
    }
}

/// Each size fills the paper: its page holds as many puzzles as keep cells of 7 mm, and their
/// grids reach over most of the height between the margins and the footer.
#[test]
fn each_size_fills_the_paper() {
    for (size, per_page) in [("4", 12), ("6", 12), ("9", 6), ("12", 2), ("16", 2)] {
        let n = (per_page + 1).to_string();
        let made = dlx(&["generate", "--size", size, "-n", &n, "--seed", "5"], "");
        assert!(made.status.success(), "{}", text(&made.stderr));
        let dir = tempfile::tempdir().unwrap();
        let out = dlx(&["render", "-o", dir.path().to_str().unwrap()], &text(&made.stdout));
        assert!(out.status.success(), "{}", text(&out.stderr));
        let first = std::fs::read_to_string(dir.path().join("page-0001.svg")).unwrap();
        let second = std::fs::read_to_string(dir.path().join("page-0002.svg")).unwrap();
        assert_eq!((captions(&first).len(), captions(&second).len()), (per_page, 1), "{size}");
        let [left, top, right, bottom] = check_pixels(&first, (210.0, 297.0), 15.0, size);
        assert!(bottom - top > 0.85 * (297.0 - 30.0), "{size}: the grids take {top:.0}..{bottom:.0} mm");
        assert!(right - left > 0.6 * 180.0, "{size}: the grids take {left:.0}..{right:.0} mm");
    }
}

/// `--format pdf`: one document of every page, A4 pages, the text in an embedded font; answers in a
/// document of their own, or after the puzzles' pages on stdout. `--format png`: an image a page,
/// at the asked resolution.
#[test]
fn pdf_and_png_pages() {
    let mix = std::fs::read_to_string(fixture("../docs/page-a4.txt")).unwrap();
    let twice = format!("{mix}{mix}");
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().to_str().unwrap();
    let out = dlx(&["render", "-f", "pdf", "--answers", "-o", path], &twice);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let pages = |name: &str| count_pages(name, &std::fs::read(dir.path().join(name)).unwrap());
    // Twelve 9x9 puzzles: two pages of six, and one page of twelve answers.
    assert_eq!((pages("pages.pdf"), pages("answers.pdf")), (2, 1));
    // On stdout, every page; with --answers, the answers after them in the one document (issue
    // 52), the same pages as in the folder.
    let out = dlx(&["render", "-f", "pdf"], &twice);
    assert!(out.status.success() && out.stdout.starts_with(b"%PDF-"), "{}", text(&out.stderr));
    assert_eq!(count_pages("stdout", &out.stdout), 2);
    let out = dlx(&["render", "-f", "pdf", "--answers"], &twice);
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(count_pages("stdout", &out.stdout), 3);
    let out = dlx(&["generate", "-n", "3", "--seed", "2", "-f", "pdf", "--answers"], "");
    assert!(out.status.success(), "{}", text(&out.stderr));
    assert_eq!(count_pages("generated", &out.stdout), 2);
    let out = dlx(&["render", "-f", "png", "--dpi", "100", "-o", path], &mix);
    assert!(out.status.success(), "{}", text(&out.stderr));
    let png = std::fs::read(dir.path().join("page-0001.png")).unwrap();
    assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"));
    // The header's width and height: A4 at 100 dpi.
    let be = |at: usize| u32::from_be_bytes(png[at..at + 4].try_into().unwrap());
    assert_eq!((be(16), be(20)), (827, 1170));
    let generated = dlx(&["generate", "-n", "2", "--seed", "1", "-f", "png"], "");
    assert!(
        generated.status.success() && generated.stdout.starts_with(b"\x89PNG"),
        "{}",
        text(&generated.stderr)
    );
    for (args, error) in [
        (&["render", "--dpi", "100"][..], "--dpi is for --format png"),
        (&["render", "-f", "png", "--dpi", "20"], "20 is not in 50..=1200"),
    ] {
        let out = dlx(args, &mix);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(text(&out.stderr).contains(error), "{args:?}: {}", text(&out.stderr));
    }
}

/// The pages of a PDF document, each checked to be A4, the text in an embedded font.
fn count_pages(name: &str, pdf: &[u8]) -> usize {
    assert!(pdf.starts_with(b"%PDF-") && pdf.trim_ascii_end().ends_with(b"%%EOF"), "{name}");
    let pdf = String::from_utf8_lossy(pdf).into_owned();
    assert!(pdf.contains("DejaVuSans") && pdf.contains("/FontFile2"), "{name}: the font is embedded");
    let boxes = pdf.matches("/MediaBox [0 0 595.27563 841.8898]").count();
    assert_eq!(boxes, pdf.matches("/Type /Page").count() - pdf.matches("/Type /Pages").count());
    boxes
}

/// The picture in `docs/` is what `dlx render` draws of its puzzles today.
#[test]
fn the_docs_picture_is_current() {
    let drawn = dlx(&["render", "-f", "png", "--dpi", "100", &fixture("../docs/page-a4.txt")], "");
    assert!(drawn.status.success(), "{}", text(&drawn.stderr));
    let kept = std::fs::read(fixture("../docs/page-a4.png")).unwrap();
    assert!(
        drawn.stdout == kept,
        "docs/page-a4.png is out of date: dlx render -f png --dpi 100 docs/page-a4.txt > docs/page-a4.png"
    );
}

/// A PDF or PNG is not written to a terminal: the command says where to put it instead. The
/// terminal is made by `script` (util-linux); without it the test says so and passes.
#[test]
fn binary_pages_are_not_written_to_a_terminal() {
    use std::process::{Command, Stdio};
    for format in ["pdf", "png"] {
        let command =
            format!("{} render -f {format} {}", env!("CARGO_BIN_EXE_dlx"), fixture("../docs/page-a4.txt"));
        let Ok(out) =
            Command::new("script").args(["-qfec", &command, "/dev/null"]).stdin(Stdio::null()).output()
        else {
            println!("no `script` here: not checked");
            return;
        };
        let seen = String::from_utf8_lossy(&out.stdout);
        let file = if format == "pdf" { "pages.pdf" } else { "page.png" };
        assert!(
            seen.contains(&format!("is not text: redirect stdout (> {file}) or give --output DIR")),
            "{format}: {seen}"
        );
        assert!(!seen.contains("%PDF") && !seen.contains("\u{fffd}PNG"), "{format}: {seen}");
    }
}
