//! Known answers, formats and errors.

use std::io::Read;

use dlx_sudoku::{
    At, Defaults, Format, MAX_LINE, Matrix, Parity, ParseErrorKind, Puzzle, Records, RuleError, Rules,
    SolveError, Uniqueness, Unit, Variant, parse_all, parse_block,
};

const KNOWN: [(&str, &str); 3] = [
    (
        "5176...34289..4...3462.5.9.6.2....1..38..6.47..........9.....787.34..56..........",
        "517698234289134756346275891672849315138526947954713682495362178723481569861957423",
    ),
    (
        "....6..8..2.........1.......7....1.25...3..........4....42.1...3..7..6.........5.",
        "947165283823974516651328947478596132516432879239817465764251398385749621192683754",
    ),
    (
        "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..",
        "145327698839654127672918543496185372218473956753296481367542819984761235521839764",
    ),
];

const EVEN_LIST: &str = "[[8,4,0,0,5,0,-2,0,0],[3,0,0,6,0,8,0,4,0],[0,0,-2,4,0,9,0,0,-2],[0,2,3,0,-2,0,9,8,0],[1,0,0,-2,0,-2,0,0,4],[0,9,8,0,-2,0,1,6,0],[-2,0,0,5,0,3,-2,0,0],[0,3,0,1,0,6,0,0,7],[0,0,-2,0,2,0,0,1,3]]";
const EVEN_SOLUTION: &str =
    "849257631357618249612439758423761985165892374798345162281573496934186527576924813";

/// The line of a 9x9 puzzle as the 81-character form writes it: digits, `.` for an empty
/// cell, `e` for an empty cell marked even.
fn line_with_marks(p: &Puzzle) -> String {
    p.cells()
        .iter()
        .enumerate()
        .map(|(c, &d)| match d {
            0 if p.rules().parity(c) == Parity::Even => 'e',
            0 => '.',
            d => char::from(b'0' + d),
        })
        .collect()
}

/// The empty grid of a variant.
fn empty(variant: Variant) -> Puzzle {
    Puzzle::new(Rules::from(variant))
}

#[test]
fn known_classic_puzzles_are_unique() {
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    assert_eq!(matrix.problem().option_count(), 729);
    assert_eq!(matrix.problem().primary_count(), 324);
    let mut solver = matrix.solver();
    for (puzzle, solution) in KNOWN {
        let p: Puzzle = puzzle.parse().unwrap();
        match solver.check_unique(&p).unwrap() {
            Uniqueness::Unique(s) => {
                assert_eq!(s.to_line(), solution);
                assert!(p.is_solved_by(&s));
            }
            other => panic!("{puzzle}: {other:?}"),
        }
        assert_eq!(solver.first(&p).unwrap().unwrap().to_line(), solution);
        assert_eq!(solver.count(&p, None).unwrap(), 1);
        let effort = solver.effort();
        assert!(effort.guesses <= effort.nodes);
    }
}

#[test]
fn even_cell_puzzle_from_the_list_form() {
    let records = parse_all(EVEN_LIST);
    assert_eq!(records.len(), 1);
    assert_eq!(records[0].format, Format::List);
    let p = records[0].puzzle.clone().unwrap();
    assert_eq!(p.rules().variant(), Some(Variant::Even));
    let even = Matrix::new(p.rules());
    let mut solver = even.solver();
    match solver.check_unique(&p).unwrap() {
        Uniqueness::Unique(s) => {
            assert_eq!(s.to_line(), EVEN_SOLUTION);
            assert!(p.is_solved_by(&s));
        }
        other => panic!("{other:?}"),
    }
    // The same givens without the marks (a classic puzzle) have more than ten solutions.
    let plain = Puzzle::with_cells(Rules::from(Variant::Classic), p.cells().to_vec()).unwrap();
    let classic = Matrix::new(plain.rules());
    assert_eq!(classic.solver().count(&plain, Some(11)).unwrap(), 11);
    // The marks are the puzzle's rules: the classic matrix takes them too, and they decide.
    assert_eq!(classic.solver().count(&p, Some(11)).unwrap(), 1);
    // The line form keeps the marks.
    let text = p.to_text();
    assert_eq!(text.parse::<Puzzle>().unwrap(), p);
    assert_eq!(&line_with_marks(&p)[..9], "84..5.e..");
}

#[test]
fn diagonal_variant_restricts_the_diagonals() {
    let matrix = Matrix::new(&Rules::from(Variant::Diagonal));
    assert_eq!(matrix.problem().primary_count(), 342);
    let mut solver = matrix.solver();
    let grid = solver.first(&empty(Variant::Diagonal)).unwrap().unwrap();
    assert!(empty(Variant::Diagonal).is_solved_by(&grid));
    let mut bad = empty(Variant::Diagonal);
    bad.set(0, 4);
    bad.set(80, 4);
    assert_eq!(
        solver.first(&bad).unwrap_err(),
        SolveError::Rules(RuleError::Repeated {
            digit: '4',
            unit: Unit::Diagonal,
            first: At { cell: 0, side: 9 },
            second: At { cell: 80, side: 9 }
        })
    );
    assert_eq!(
        solver.first(&bad).unwrap_err().to_string(),
        "digit 4 appears twice in the main diagonal (r1c1, r9c9)"
    );
    let classic = Puzzle::with_cells(Rules::from(Variant::Classic), bad.cells().to_vec()).unwrap();
    assert!(Matrix::new(classic.rules()).solver().first(&classic).unwrap().is_some());
}

#[test]
fn rule_errors_name_the_unit_and_cells() {
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut solver = matrix.solver();
    let mut p = empty(Variant::Classic);
    p.set(2 * 9 + 1, 5);
    p.set(2 * 9 + 6, 5);
    assert_eq!(solver.first(&p).unwrap_err().to_string(), "digit 5 appears twice in row 3 (r3c2, r3c7)");
    let mut p = empty(Variant::Classic);
    p.set(3, 7);
    p.set(8 * 9 + 3, 7);
    assert_eq!(solver.first(&p).unwrap_err().to_string(), "digit 7 appears twice in column 4 (r1c4, r9c4)");
    let mut p = empty(Variant::Classic);
    p.set(4 * 9 + 4, 2);
    p.set(5 * 9 + 5, 2);
    assert_eq!(solver.first(&p).unwrap_err().to_string(), "digit 2 appears twice in box 5 (r5c5, r6c6)");
    let mut p = empty(Variant::Even);
    p.rules_mut().set_parity(10, Parity::Even);
    p.set(10, 3);
    assert_eq!(solver.first(&p).unwrap_err().to_string(), "odd digit 3 given in even cell r2c2");
    // After errors the solver still works.
    assert!(solver.first(&empty(Variant::Classic)).unwrap().is_some());
}

#[test]
fn no_solution_and_multiple_solutions() {
    let matrix = Matrix::new(&Rules::from(Variant::Classic));
    let mut solver = matrix.solver();
    // r1c9 can hold nothing: 1-8 in its row, 9 in its column.
    let none: Puzzle = format!("12345678.{}9{}", ".".repeat(8), ".".repeat(63)).parse().unwrap();
    assert_eq!(solver.check_unique(&none).unwrap(), Uniqueness::None);
    assert_eq!(solver.count(&none, None).unwrap(), 0);
    let empty = empty(Variant::Classic);
    match solver.check_unique(&empty).unwrap() {
        Uniqueness::Multiple(a, b) => {
            assert_ne!(a, b);
            assert!(empty.is_solved_by(&a) && empty.is_solved_by(&b));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(solver.count(&empty, Some(1000)).unwrap(), 1000);
    let sols: Vec<Puzzle> = solver.solutions(&empty).unwrap().take(5).map(Result::unwrap).collect();
    assert_eq!(sols.len(), 5);
    assert!(sols.iter().all(|s| empty.is_solved_by(s)));
}

#[test]
fn mixed_input_with_errors_keeps_going() {
    let text = format!(
        "# a comment\n\n{}\r\n\
         4 . . |. . . |8 . 5\n. 3 . |. . . |. . .\n. . . |7 . . |. . .\n------+------+------\n\
         . 2 . |. . . |. 6 .\n. . . |. 8 . |4 . .\n. . . |. 1 . |. . .\n------+------+------\n\
         . . . |6 . 3 |. 7 .\n5 . . |2 . . |. . .\n1 . 4 |. . . |. . .\n\n\
         12345x\n\
         {}\n\
         1234\n5678\n\n\
         [[1, 2, 3]]\n{}",
        KNOWN[0].0,
        ".".repeat(80),
        EVEN_LIST,
    );
    let records = parse_all(&text);
    assert_eq!(records.len(), 7);
    let summary: Vec<(usize, Format, Result<String, String>)> = records
        .iter()
        .map(|r| (r.line, r.format, r.puzzle.as_ref().map(line_with_marks).map_err(|e| e.to_string())))
        .collect();
    let grid_puzzle = "4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......";
    assert_eq!(
        summary,
        vec![
            (3, Format::Line, Ok(KNOWN[0].0.to_owned())),
            (4, Format::Grid, Ok(grid_puzzle.to_owned())),
            // A line that cannot be a row is a record alone (issue 52: answered when typed).
            (16, Format::Line, Err("line 16, column 6: unexpected character 'x'".to_owned())),
            (17, Format::Line, Err("line 17: 80 cells, expected 81".to_owned())),
            (18, Format::Grid, Err("line 18: 8 cells, expected 81".to_owned())),
            (21, Format::List, Err("line 21: 3 cells, expected 81".to_owned())),
            (22, Format::List, Ok(even_line())),
        ]
    );
    assert_eq!(records[6].puzzle.as_ref().unwrap().rules().variant(), Some(Variant::Even));
}

/// The line form of [`EVEN_LIST`], worked out from the list's text alone: each value in order,
/// 0 as `.`, -2 as `e`, a digit as itself.
fn even_line() -> String {
    let values = EVEN_LIST.replace(['[', ']'], "");
    let line: String = values
        .split(',')
        .map(|v| match v {
            "0" => '.',
            "-2" => 'e',
            digit => digit.chars().next().unwrap(),
        })
        .collect();
    assert_eq!(line.len(), 81);
    line
}

#[test]
fn list_errors() {
    let bad = parse_all("[[1, 12, 0]]\n");
    assert_eq!(bad[0].puzzle.as_ref().unwrap_err().kind, ParseErrorKind::BadValue("12".into()));
    let open = parse_all("[[1, 2,\n3,\n");
    assert_eq!(open[0].puzzle.as_ref().unwrap_err().kind, ParseErrorKind::Unclosed);
}

/// An unclosed list ends where the next well-formed record begins (an 81-cell line, or a list
/// on one line); everything after it is still read. Lines of a list that go on stay in it.
#[test]
fn an_unclosed_list_does_not_swallow_the_batch() {
    let text = format!("[[0,0\n{}\n{}\n[[1, 2,\n{EVEN_LIST}\n[[0,\n0]]\n", KNOWN[0].0, KNOWN[1].0);
    let records = parse_all(&text);
    let summary: Vec<(usize, Result<String, ParseErrorKind>)> = records
        .iter()
        .map(|r| (r.line, r.puzzle.as_ref().map(line_with_marks).map_err(|e| e.kind.clone())))
        .collect();
    assert_eq!(
        summary,
        vec![
            (1, Err(ParseErrorKind::Unclosed)),
            (2, Ok(KNOWN[0].0.to_owned())),
            (3, Ok(KNOWN[1].0.to_owned())),
            (4, Err(ParseErrorKind::Unclosed)),
            (5, Ok(even_line())),
            (6, Err(ParseErrorKind::CellCount { found: 2 })),
        ]
    );
}

/// A byte-order mark at the start is skipped; anywhere else it is an unexpected character.
#[test]
fn a_byte_order_mark_is_skipped() {
    let records = parse_all(&format!("\u{feff}{}\n\u{feff}{}\n", KNOWN[0].0, KNOWN[1].0));
    assert_eq!(records[0].puzzle.as_ref().unwrap().to_line(), KNOWN[0].0);
    let e = records[1].puzzle.as_ref().unwrap_err();
    assert_eq!((e.line, e.column, &e.kind), (2, Some(1), &ParseErrorKind::BadChar('\u{feff}')));
    let grid = format!(
        "\u{feff}{}",
        KNOWN[2]
            .0
            .as_bytes()
            .chunks(9)
            .map(|r| format!("{}\n", String::from_utf8_lossy(r)))
            .collect::<String>()
    );
    assert_eq!(parse_all(&grid)[0].puzzle.as_ref().unwrap().to_line(), KNOWN[2].0);
}

/// A byte that is not UTF-8 is named as a byte, at its column; a replacement character that was
/// in the text is an unexpected character. Comments may hold any bytes.
#[test]
fn bytes_that_are_not_utf8() {
    let mut text = format!("# caf\u{e9}\n{}", &KNOWN[0].0[..40]).into_bytes();
    text.extend_from_slice(b"\xff");
    text.extend_from_slice(format!("{}\n{}\u{fffd}\n", &KNOWN[0].0[41..], &KNOWN[1].0[..80]).as_bytes());
    text.extend_from_slice(b"# \xe9\n");
    let records: Vec<_> = Records::new(text.as_slice()).map(Result::unwrap).collect();
    let errors: Vec<_> = records.iter().map(|r| r.puzzle.clone().unwrap_err()).collect();
    assert_eq!(
        (errors[0].line, errors[0].column, &errors[0].kind),
        (2, Some(41), &ParseErrorKind::NotUtf8(0xff))
    );
    assert_eq!(errors[1].kind, ParseErrorKind::BadChar('\u{fffd}'));
    assert_eq!(records.len(), 2);
}

/// An error in a multi-line record is reported at the offending character's own line and column
/// (the record keeps the line it starts on).
#[test]
fn errors_in_grids_and_lists_say_their_own_line() {
    let mut rows: Vec<String> =
        KNOWN[0].0.as_bytes().chunks(9).map(|r| String::from_utf8_lossy(r).into()).collect();
    rows[8].replace_range(4..5, "x");
    let grid = format!("# grid\n{}\n", rows.join("\n"));
    let record = &parse_all(&grid)[0];
    let e = record.puzzle.as_ref().unwrap_err();
    assert_eq!((record.line, e.line, e.column, &e.kind), (2, 10, Some(5), &ParseErrorKind::BadChar('x')));
    let list = "[[1,2,3],\n [4, 5, 99]]\n";
    let record = &parse_all(list)[0];
    let e = record.puzzle.as_ref().unwrap_err();
    assert_eq!(
        (record.line, e.line, e.column, &e.kind),
        (1, 2, Some(9), &ParseErrorKind::BadValue("99".into()))
    );
}

/// A line longer than the limit is one malformed record (a comment is skipped), read in bounded
/// memory, and the records after it are still read.
#[test]
fn over_long_lines_are_refused_and_reading_goes_on() {
    let long = "1".repeat(MAX_LINE + 1);
    let comment = format!("# {}", "c".repeat(3 * MAX_LINE));
    let text = format!("{long}\n{comment}\n{}\n{}\r\n", KNOWN[0].0, "2".repeat(5 * MAX_LINE));
    let records = parse_all(&text);
    assert_eq!(records.len(), 3);
    let e = records[0].puzzle.as_ref().unwrap_err();
    assert_eq!((e.line, e.column, &e.kind), (1, Some(MAX_LINE + 1), &ParseErrorKind::LineTooLong));
    assert_eq!((records[1].line, records[1].puzzle.as_ref().unwrap().to_line()), (3, KNOWN[0].0.to_owned()));
    assert_eq!(records[2].puzzle.as_ref().unwrap_err().kind, ParseErrorKind::LineTooLong);
    // A 100 MB line from a stream that never holds it: read past, and the next record is read.
    let tail = format!("\n{}\n", KNOWN[1].0).into_bytes();
    let huge = std::io::repeat(b'1').take(100_000_000).chain(tail.as_slice());
    let records: Vec<_> = Records::new(std::io::BufReader::new(huge)).map(Result::unwrap).collect();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0].puzzle.as_ref().unwrap_err().kind, ParseErrorKind::LineTooLong);
    assert_eq!(records[1].puzzle.as_ref().unwrap().to_line(), KNOWN[1].0);
    // A line exactly at the limit is read (and is simply too many cells).
    let exact = parse_all(&format!("{}\r\n", "3".repeat(MAX_LINE)));
    assert_eq!(exact[0].puzzle.as_ref().unwrap_err().kind, ParseErrorKind::CellCount { found: MAX_LINE });
}

#[test]
fn printing_round_trips() {
    let p: Puzzle = KNOWN[2].0.parse().unwrap();
    let block = p.to_block();
    assert_eq!(block.lines().count(), 11);
    assert_eq!(block.lines().next().unwrap(), ". . 5 | 3 . . | . . .");
    assert_eq!(parse_block(block.lines(), &Defaults::default()).unwrap(), p);
    let records = parse_all(&format!("{block}\n{}", p.to_text()));
    assert_eq!(records.len(), 2);
    assert!(records.iter().all(|r| r.puzzle.as_ref() == Ok(&p)));
}

#[test]
fn dlx_output_counts_the_same() {
    let p: Puzzle = KNOWN[1].0.parse().unwrap();
    let text = Matrix::new(p.rules()).puzzle_to_dlx(&p);
    let problem = dlx_engine::Problem::parse_dlx(&text).unwrap();
    assert_eq!(dlx_engine::Solver::new(&problem).count().unwrap(), 1);
}
