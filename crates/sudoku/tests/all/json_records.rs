//! A JSON record against the line it stands for: the same puzzle written both ways is read the
//! same way (the same grid and rules once the variant it names is applied, the same given
//! solution, the same error), whatever its size, fields and rules; and what the command line
//! writes of a record reads back to it.

use dlx_sudoku::{Defaults, Record, parse_all};
use proptest::prelude::*;

/// What a record reads to, without where it was read from (the line and the form).
fn essence(record: &Record) -> String {
    // The puzzle as a reader answers it: its own rules with the variant the record names.
    match record.puzzle_with(None) {
        Ok(grid) => format!(
            "{} | {} | {:?}",
            grid.to_text(),
            grid.rules().describe(),
            record.solution.as_ref().map(|g| g.to_line()),
        ),
        Err(e) => format!("error {}", e.kind),
    }
}

/// One record of a string.
fn read(text: &str) -> Record {
    let mut records = parse_all(text);
    assert_eq!(records.len(), 1, "{text}");
    records.remove(0)
}

/// The parts of a record: cells, a solution beside them, and the fields.
#[derive(Clone, Debug)]
struct Parts {
    cells: String,
    solution: Option<String>,
    size: Option<&'static str>,
    variant: Option<&'static str>,
    fields: Vec<String>,
}

fn parts() -> impl Strategy<Value = Parts> {
    // Sides 4, 6 and 9; the cells sometimes of another length, or with a symbol too large.
    let side = prop_oneof![Just(4u32), Just(6), Just(9)];
    side.prop_flat_map(|side| {
        let cells = usize::try_from(side * side).unwrap();
        let symbol = prop_oneof![
            6 => Just('.'),
            3 => (1..=side).prop_map(|d| char::from_digit(d, 10).unwrap()),
            1 => Just('e'),
            1 => Just('7'),
        ];
        (
            proptest::collection::vec(symbol, cells - 1..=cells + 1),
            proptest::option::of(proptest::collection::vec(
                (1..=side).prop_map(|d| char::from_digit(d, 10).unwrap()),
                cells - 1..=cells,
            )),
            proptest::option::of(prop_oneof![
                Just("2x2"),
                Just("2x3"),
                Just("3x2"),
                Just("3x3"),
                Just("9"),
                Just("6")
            ]),
            proptest::option::of(prop_oneof![
                Just("diagonal"),
                Just("windoku"),
                Just("anti-knight"),
                Just("anti-king"),
                Just("classic"),
                Just("even"),
                Just("bogus"),
                Just("diagonal,anti-knight"),
            ]),
            proptest::collection::vec(
                prop_oneof![
                    Just("cage=3:r1c1,r1c2".to_owned()),
                    Just("cage=40:r2c1,r2c2".to_owned()),
                    Just("cage=5:r1c3,r9c9".to_owned()),
                    Just("variant=diagonal".to_owned()),
                    Just("size=2x3".to_owned()),
                ],
                0..2,
            ),
        )
            .prop_map(|(cells, solution, size, variant, fields)| Parts {
                cells: cells.into_iter().collect(),
                solution: solution.map(|s| s.into_iter().collect()),
                size,
                variant,
                fields,
            })
    })
}

impl Parts {
    /// The line the record stands for.
    fn line(&self) -> String {
        let mut words = vec![self.cells.clone()];
        words.extend(self.solution.clone());
        words.extend(self.fields.iter().cloned());
        words.extend(self.size.map(|s| format!("size={s}")));
        words.extend(self.variant.map(|v| format!("variant={v}")));
        words.join(" ")
    }

    /// The same record in JSON: the fields in the puzzle's string, the size, variant and
    /// solution as JSON fields.
    fn json(&self) -> String {
        let puzzle = std::iter::once(self.cells.clone())
            .chain(self.fields.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ");
        let mut value = serde_json::json!({ "puzzle": puzzle });
        if let Some(s) = &self.solution {
            value["solution"] = s.clone().into();
        }
        if let Some(s) = self.size {
            value["size"] = s.into();
        }
        if let Some(v) = self.variant {
            value["variant"] = v.into();
        }
        value.to_string()
    }

    /// Whether the line form would be read as a 9x9 puzzle with its variant named apart (a JSON
    /// record keeps a 9x9 variant's name as the record's variant, where a line can only add it
    /// as constraints of the general forms).
    fn nine_with_variant(&self) -> bool {
        self.cells.chars().count() == 81
            && self.fields.is_empty()
            && self.size.is_none_or(|s| s == "3x3" || s == "9")
            && self
                .variant
                .is_some_and(|v| ["diagonal", "windoku", "anti-king", "classic", "even"].contains(&v))
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(512))]

    /// The same puzzle as a line and as a JSON record reads to the same record (or fails alike).
    #[test]
    fn json_reads_as_its_line(parts in parts()) {
        let json = read(&parts.json());
        // Given as a value rather than as text (as the Python module gives a dict), the same.
        let value: serde_json::Value = serde_json::from_str(&parts.json()).unwrap();
        let given = Record::from_json(&value, &Defaults::default());
        prop_assert_eq!(
            (&given.puzzle, given.variant, &given.solution, given.format),
            (&json.puzzle, json.variant, &json.solution, json.format)
        );
        if parts.solution.as_ref().is_some_and(|s| s.len() != parts.cells.chars().count()) {
            // A JSON solution is one by its name: of the wrong length, it is an error, where the
            // line form of a 9x9 puzzle takes a second field of another length for a remark.
            prop_assert!(json.puzzle.is_err(), "{}", essence(&json));
            return Ok(());
        }
        if parts.nine_with_variant() {
            // A 9x9 variant's name: the record's variant, over the 81 cells as a line reads them.
            let plain = Parts { variant: None, size: None, ..parts.clone() };
            let line = read(&plain.line());
            let named = parts.variant.unwrap().parse().ok();
            match (&json.puzzle, &line.puzzle) {
                (Ok(a), Ok(b)) => {
                    prop_assert_eq!(a, b);
                    prop_assert_eq!(json.variant, named);
                }
                (a, b) => prop_assert_eq!(a.is_ok(), b.is_ok(), "{:?} {:?}", a, b),
            }
            return Ok(());
        }
        let line = read(&parts.line());
        let (a, b) = (essence(&json), essence(&line));
        if a.starts_with("error") && b.starts_with("error") {
            // Both refused: the JSON's message may name its field rather than a column.
            return Ok(());
        }
        prop_assert_eq!(a, b, "json {} line {}", parts.json(), parts.line());
    }
}

/// The probe's records: a JSON record's variant and size apply to grids of any size, and bad
/// values are errors, as in the line form.
#[test]
fn json_fields_apply_to_every_size() {
    let diagonal = read(r#"{"puzzle":"................","variant":"diagonal"}"#);
    assert_eq!(diagonal.puzzle.unwrap().rules().describe(), "4x4 diagonal");
    let shaped = read(r#"{"puzzle":"....................................","size":"3x2"}"#);
    let size = shaped.puzzle.unwrap().size();
    assert_eq!((size.box_rows(), size.box_cols()), (3, 2));
    for bad in [
        r#"{"puzzle":"................","variant":"bogus"}"#,
        r#"{"puzzle":"................","variant":7}"#,
        r#"{"puzzle":"................","size":"5x5"}"#,
        r#"{"puzzle":"................","varient":"diagonal"}"#,
        r#"{"puzzle":"................","rules":"4x4 diagonal"}"#,
        r#"{"puzzle":"................","solution":"123"}"#,
    ] {
        let record = read(bad);
        assert!(record.puzzle.is_err(), "{bad} was read: {}", essence(&record));
    }
    let e = read(r#"{"puzzle":"................","solution":"123"}"#).puzzle.unwrap_err();
    assert_eq!(e.kind.to_string(), "the given solution has 3 cells, the puzzle 16");
    let e = read(r#"{"puzzle":"................","varient":"diagonal"}"#).puzzle.unwrap_err();
    assert!(e.kind.to_string().contains("unknown field \"varient\""), "{e}");
    // A record written back with its rules named reads back.
    let named = read(r#"{"puzzle":"................ variant=diagonal","rules":"4x4 diagonal","size":"2x2"}"#);
    assert_eq!(named.puzzle.unwrap().rules().describe(), "4x4 diagonal");
}

/// What the library writes of a puzzle in a JSON record reads back to the same puzzle, with
/// the variant named kept as the record's: every size and rule set, a 9x9 variant's puzzle
/// in its 81-character form.
#[test]
fn json_fields_read_back_to_their_puzzle() {
    use dlx_sudoku::{Puzzle, Variant};
    let classic = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
    let cases: [(String, Option<Variant>); 5] = [
        (classic.to_owned(), None),
        (classic.replacen('.', "e", 3), None),
        (format!("{classic} variant=diagonal"), None),
        (classic.to_owned(), Some(Variant::Even)),
        (".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1 marks=o...................................".to_owned(), None),
    ];
    for (line, named) in cases {
        let puzzle: Puzzle = line.parse().unwrap();
        let fields = puzzle.json_fields(named);
        let text = serde_json::Value::Object(fields.clone()).to_string();
        let record = read(&text);
        assert_eq!(record.puzzle_with(None), Ok(puzzle.clone()), "{text}");
        let expected = named.or(puzzle.rules().variant());
        assert_eq!(fields.get("variant").and_then(|v| v.as_str()), expected.map(Variant::name), "{text}");
        // Marks go in a `marks=` field (a solution has no empty cell to hold an `e`).
        if puzzle.rules().variant().is_some() && !puzzle.rules().has_parity() {
            assert_eq!(fields["puzzle"].as_str().map(str::len), Some(81), "{text}");
            assert_eq!(record.variant, expected, "{text}");
        }
    }
}

/// A record's block form reads back to its puzzle: a 9x9 variant's 9x9 block under its
/// `# variant:` line, any other (even cells' marks too) under its `# size:` line.
#[test]
fn record_blocks_read_back_to_their_puzzle() {
    use dlx_sudoku::Puzzle;
    let classic = "..53.....8......2..7..1.5..4....53...1..7...6..32...8..6.5....9..4....3......97..";
    for line in [
        classic.to_owned(),
        classic.replacen('.', "e", 3),
        format!("{classic} variant=windoku"),
        ".6..4.3.4.....1.3..4.5.....6.4.1..2. cage=4:r1c1,r2c1 marks=o..................................."
            .to_owned(),
    ] {
        let puzzle: Puzzle = line.parse().unwrap();
        let text = format!("{}\n{}", puzzle.record_block_header(), puzzle.to_record_block());
        let record = read(&text);
        assert_eq!(record.puzzle_with(None), Ok(puzzle.clone()), "{text}");
    }
}
