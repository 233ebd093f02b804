//! Reading puzzle collections as people keep them: fields after the puzzle, header rows, JSON
//! records, comma-separated cells, and the `# variant:` line.

use dlx_sudoku::{Format, ParseErrorKind, Puzzle, Record, Variant, parse_all};

const PUZZLE: &str = "5176...34289..4...3462.5.9.6.2....1..38..6.47..........9.....787.34..56..........";
const SOLUTION: &str = "517698234289134756346275891672849315138526947954713682495362178723481569861957423";

fn puzzle() -> Puzzle {
    PUZZLE.parse().unwrap()
}

/// Line, puzzle (or error text), given solution and variant of a record.
type Summary = (usize, Result<String, String>, Option<String>, Option<Variant>);

fn summary(records: &[Record]) -> Vec<Summary> {
    records
        .iter()
        .map(|r| {
            let puzzle = r.puzzle.as_ref().map(Puzzle::to_line).map_err(|e| e.to_string());
            (r.line, puzzle, r.solution.as_ref().map(Puzzle::to_line), r.variant)
        })
        .collect()
}

#[test]
fn fields_after_the_puzzle_are_a_solution_or_ignored() {
    let text = format!(
        "{PUZZLE},{SOLUTION}\n{PUZZLE};3.4\n{PUZZLE} # from the forum\n{PUZZLE}\t{SOLUTION}\t7\n\
         {PUZZLE} {SOLUTION}\n{PUZZLE},{}\n",
        &SOLUTION[..80]
    );
    let records = parse_all(&text);
    let ok = |line, solution: Option<&str>| (line, Ok(PUZZLE.to_owned()), solution.map(str::to_owned), None);
    assert_eq!(
        summary(&records),
        vec![
            ok(1, Some(SOLUTION)),
            ok(2, None),
            ok(3, None),
            ok(4, Some(SOLUTION)),
            ok(5, Some(SOLUTION)),
            // 80 digits are not a solution: an ignored field.
            ok(6, None),
        ]
    );
    assert!(records.iter().all(|r| r.format == Format::Line));
}

#[test]
fn comma_separated_cells() {
    let cells: Vec<String> =
        PUZZLE.chars().map(|c| if c == '.' { "0".into() } else { c.to_string() }).collect();
    let records = parse_all(&format!("{}\n{}\n", cells.join(","), cells[..80].join(", ")));
    assert_eq!(records[0].puzzle, Ok(puzzle()));
    // 80 comma-separated cells are not a puzzle, and say so where the first comma is.
    let e = records[1].puzzle.as_ref().unwrap_err();
    assert_eq!((e.line, e.column, &e.kind), (2, Some(2), &ParseErrorKind::BadChar(',')));
}

#[test]
fn header_rows_name_the_columns() {
    // A byte-order mark, a header, and the puzzle in the second column (Kaggle's 3 million set).
    let text = format!(
        "\u{feff}id,puzzle,solution,clues,difficulty\n1,{PUZZLE},{SOLUTION},30,2.2\n\
         # a comment counts as a line\n2,\"{PUZZLE}\",,30,2.2\n3,{}x,,30,1\n4\n",
        &PUZZLE[..80]
    );
    let records = parse_all(&text);
    assert_eq!(
        summary(&records),
        vec![
            (2, Ok(PUZZLE.to_owned()), Some(SOLUTION.to_owned()), None),
            (4, Ok(PUZZLE.to_owned()), None, None),
            (5, Err("line 5, column 83: unexpected character 'x'".to_owned()), None, None),
            (6, Err("line 6: no field in column 2, the header's puzzle column".to_owned()), None, None),
        ]
    );
    let records =
        parse_all(&format!("quizzes;solutions\n{PUZZLE};{SOLUTION}\n{PUZZLE};{}\n", &SOLUTION[1..]));
    assert_eq!(records[0].solution, Some(SOLUTION.parse().unwrap()));
    assert_eq!(
        records[1].puzzle.as_ref().unwrap_err().to_string(),
        "line 3: the given solution: 80 cells, expected 81"
    );
    // A header is only looked for before the first record; later, it is a malformed record.
    let records = parse_all(&format!("{PUZZLE}\npuzzle,solution\n"));
    assert!(records[1].puzzle.is_err());
}

#[test]
fn the_variant_line_applies_until_the_next() {
    let text = format!(
        "{PUZZLE}\n# Variant: diagonal\n{PUZZLE}\n\n{PUZZLE}\n#variant:classic\n{PUZZLE}\n# variant: killer\n{PUZZLE}\n"
    );
    let records = parse_all(&text);
    let variants: Vec<(usize, Option<Variant>)> = records.iter().map(|r| (r.line, r.variant)).collect();
    assert_eq!(
        variants,
        [
            (1, None),
            (3, Some(Variant::Diagonal)),
            (5, Some(Variant::Diagonal)),
            (7, Some(Variant::Classic)),
            (8, Some(Variant::Classic)),
            (9, Some(Variant::Classic)),
        ]
    );
    let e = records[4].puzzle.as_ref().unwrap_err();
    assert_eq!(
        e.to_string(),
        "line 8, column 12: unknown variant `killer` (known: classic, diagonal, even, windoku, anti-king)"
    );
}

#[test]
fn json_records() {
    let text = format!(
        "{{\"index\":0,\"variant\":\"diagonal\",\"puzzle\":\"{PUZZLE}\",\"solution\":\"{SOLUTION}\"}}\n\
         {{\"puzzle\":\"{PUZZLE}\",\"solution\":null}}\n{{\"puzzle\":3}}\n{{\"puzzle\":\"{PUZZLE}\",\"variant\":\"x\"}}\n\
         {{\"puzzle\":\"12\"}}\n{{not json\n"
    );
    let records = parse_all(&text);
    assert_eq!(records.len(), 6);
    assert!(records.iter().all(|r| r.format == Format::Json));
    assert_eq!(records[0].puzzle, Ok(puzzle()));
    assert_eq!(records[0].variant, Some(Variant::Diagonal));
    assert_eq!(records[0].solution, Some(SOLUTION.parse().unwrap()));
    assert_eq!((&records[1].puzzle, records[1].solution.clone()), (&Ok(puzzle()), None));
    let errors: Vec<String> =
        records[2..].iter().map(|r| r.puzzle.as_ref().unwrap_err().to_string()).collect();
    assert_eq!(errors[0], "line 3: not a JSON record: \"puzzle\" is 3, not a string");
    assert_eq!(
        errors[1],
        "line 4: unknown constraint `x` (known: classic, diagonal, windoku, anti-king, anti-knight, jigsaw, even, odd, \
         killer)"
    );
    assert_eq!(errors[2], "line 5: 2 cells, expected 81");
    assert!(errors[3].starts_with("line 6: not a JSON record: key must be a string"), "{}", errors[3]);
}
