//! Print-ready pages: paper sizes, places, captions, legends, answer pages, and `dlx render`.

mod common;

use common::{dlx, fixture};

fn text(bytes: &[u8]) -> String {
    String::from_utf8(bytes.to_vec()).unwrap()
}

/// The captions of a page, in order.
fn captions(svg: &str) -> Vec<String> {
    svg.lines()
        .filter(|l| l.contains(r#"font-size="4.2""#))
        .map(|l| l[l.find('>').unwrap() + 1..l.rfind("</text>").unwrap()].to_owned())
        .collect()
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
    let mut names: Vec<String> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["answers-0001.svg", "page-0001.svg", "page-0002.svg"]);
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
    assert!(second.contains(">page 2</text>"));
    // Classic puzzles need no legend.
    assert!(!first.contains("even digits") && !first.contains("diagonal holds"));
    // The answers: every given in black and every other digit in grey, once per cell.
    let answers = page("answers-0001.svg");
    check_page(&answers, r#"width="215.9mm""#);
    assert!(answers.contains(">Answers</text>"));
    let clues: usize = rows.iter().map(|r| usize::try_from(r["clues"].as_u64().unwrap()).unwrap()).sum();
    assert_eq!(answers.matches(r##"fill="#707070">"##).count(), 8 * 81 - clues);
    assert_eq!(answers.matches(r#"font-size="25" text-anchor="middle">"#).count(), clues);
    // Each digit drawn on the answer page is the solution's, in order.
    let digits: String = answers
        .lines()
        .filter(|l| l.contains("font-size=\"25\""))
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
        (&["generate", "-f", "svg", "--paper", "a4", "--answers"][..], "--answers needs --output DIR"),
        (&["generate", "-f", "line", "--paper", "a4"], "--paper is for --format svg"),
        (&["generate", "--answers"], "--answers is for --paper pages"),
        (&["render", "--answers"], "--answers needs --output DIR"),
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
    let variants = ["classic", "classic", "diagonal", "diagonal", "even", "even"];
    let expected: Vec<String> = rows
        .iter()
        .zip(variants)
        .enumerate()
        .map(|(k, (r, v))| format!("{} · {} · {v}", k + 1, r["level"].as_str().unwrap()))
        .collect();
    assert_eq!(captions(&svg), expected);
    assert!(svg.contains("shaded cells hold even digits") && svg.contains("each diagonal holds 1-9 too"));
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
    assert_eq!(svg.matches(r##"width="108" height="108" fill="#e4e4e4""##).count(), 8);
    assert!(svg.contains("each shaded window holds 1-9 too"));
    assert_eq!(captions(&svg).iter().filter(|c| c.ends_with(" · windoku")).count(), 2);
}
