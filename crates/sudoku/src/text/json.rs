//! JSON records: one object per line, read as the line it stands for (see the
//! [module docs](super)), and written: the fields that say what a puzzle is, and a generated
//! puzzle's record.

use super::{Cells, Format, ParseError, ParseErrorKind, Raw, grid_record, parse_cells, sized_line};
use crate::generate::{Numbered, Plan, Rated};
use crate::model::Puzzle;
use crate::model::variant::Variant;
use crate::text::{Defaults, parse_puzzle, parse_puzzle_record};

/// The fields of a JSON record that say what the puzzle is: each applies to it.
const JSON_FIELDS: [&str; 5] = ["puzzle", "solution", "variant", "size", "rules"];

/// The fields `dlx` writes beside those of [`JSON_FIELDS`] (answers, counts, ratings, how a
/// puzzle was made): read back, they are passed over, as what was said of the puzzle.
const JSON_INFO_FIELDS: [&str; 26] = [
    "attempts",
    "clues",
    "complete",
    "count",
    "effort",
    "error",
    "error_column",
    "error_line",
    "file",
    "given_solution",
    "guesses",
    "index",
    "level",
    "line",
    "minimal",
    "nodes",
    "rating",
    "run_seed",
    "seed",
    "solutions",
    "status",
    "steps",
    "symmetry",
    "technique",
    "techniques",
    "unique_as",
];

impl Puzzle {
    /// The puzzle as a record writes it: a 9x9 variant's puzzle in 81 characters (its variant
    /// goes beside it, in a `# variant:` line or a JSON field), any other, and one with even or
    /// odd marks, with its rules' fields ([`Puzzle::to_text`]). [`Records`](crate::Records) reads
    /// either back to the same puzzle.
    pub fn to_record_line(&self) -> String {
        if !self.in_nine_form() {
            return self.to_text();
        }
        let cell = |&d: &u8| match d {
            0 => '.',
            d => char::from(b'0' + d),
        };
        self.cells().iter().map(cell).collect()
    }

    /// Whether a record writes the puzzle in the 9x9 form, its rules a 9x9 variant's name: a 9x9
    /// variant's puzzle without even or odd marks (an `e` stands only in an empty cell, and a
    /// solution has none: marks go in a `marks=` field, for a puzzle and its solution alike).
    fn in_nine_form(&self) -> bool {
        self.rules().variant().is_some() && !self.rules().has_parity()
    }

    /// The puzzle as a block of rows, the way [`Puzzle::to_record_line`] writes its line: a 9x9
    /// variant's as the 9x9 block (box rules between bands), any other as [`Puzzle::to_block`].
    /// Each row ends a line; [`Puzzle::record_block_header`] is the line to write above it.
    pub fn to_record_block(&self) -> String {
        match self.to_nine().filter(|_| self.in_nine_form()) {
            Some(nine) => nine.to_grid(),
            None => self.to_block(),
        }
    }

    /// The header line above [`Puzzle::to_record_block`]'s block, which says the rules its rows
    /// cannot hold: the `# variant:` line of a 9x9 variant's puzzle, the `# size:` line with the
    /// rules' fields ([`Puzzle::block_header`]) of any other.
    pub fn record_block_header(&self) -> String {
        match self.rules().variant().filter(|_| self.in_nine_form()) {
            Some(variant) => variant.header_line(),
            None => self.block_header(),
        }
    }

    /// The fields of a JSON record that say what the puzzle is, the same for every puzzle and
    /// what the reader of JSON records reads back: `puzzle` ([`Puzzle::to_record_line`]),
    /// `size` (the box shape, `3x3`), `rules` (`9x9 diagonal`, `6x6 jigsaw killer`) and
    /// `variant`: for a 9x9 variant's puzzle the variant's name (`named` when given, for the
    /// even-cell variant named for a puzzle without marks), which the reader keeps as the
    /// record's; null for any other puzzle.
    pub fn json_fields(&self, named: Option<Variant>) -> serde_json::Map<String, serde_json::Value> {
        let size = self.size();
        let mut fields = serde_json::Map::new();
        fields.insert("puzzle".into(), self.to_record_line().into());
        fields.insert("size".into(), format!("{}x{}", size.box_rows(), size.box_cols()).into());
        fields.insert("rules".into(), self.rules().describe().into());
        // The same keys for every puzzle: `variant` is null for rules that are no 9x9 variant's.
        let variant = self.rules().variant_named(named).map(Variant::name);
        fields.insert("variant".into(), variant.into());
        fields
    }
}

impl Plan {
    /// The JSON record of puzzle `made` of the run, as `dlx generate -f json` writes it and
    /// Python's `generate()` returns it: its index and seeds, symmetry, solution, clues, level
    /// and technique (`null` without `rated`), attempts, whether it is minimal, and what the
    /// puzzle is as every record says it (`puzzle`, `size`, `rules`, `variant` and the rules'
    /// fields).
    pub fn record(
        &self,
        made: &Numbered,
        rated: Option<Rated>,
    ) -> serde_json::Map<String, serde_json::Value> {
        let g = &made.generated;
        let mut record = serde_json::Map::new();
        record.insert("index".into(), made.index.into());
        record.insert("run_seed".into(), self.run.seed.into());
        record.insert("seed".into(), made.seed.into());
        record.insert("symmetry".into(), self.run.symmetry.name().into());
        record.insert("solution".into(), g.solution.to_line().into());
        record.insert("clues".into(), g.puzzle.givens().into());
        record.insert("level".into(), rated.map(|r| r.level.name()).into());
        record.insert("technique".into(), rated.map(|r| r.technique).into());
        record.insert("attempts".into(), made.attempts.into());
        record.insert("minimal".into(), (made.added == 0).into());
        record.extend(g.puzzle.json_fields(self.variant));
        record
    }
}

/// A JSON record: an object with a `"puzzle"` string, and maybe `"solution"`, `"variant"`,
/// `"size"` and `"rules"` (see [`JSON_FIELDS`]), which apply to it whatever its size, and the
/// fields `dlx` writes ([`JSON_INFO_FIELDS`]). Any other field is an error: a field misspelled
/// would otherwise be a rule silently dropped.
///
/// It is read as the line `PUZZLE SOLUTION size=SIZE variant=VARIANT` would be (so the same
/// puzzle gets the same answer in both forms), but that a plain 81-cell puzzle keeps a 9x9
/// variant's name (`classic`, `diagonal`, `even`, `windoku`, `anti-king`) as its variant.
pub(super) fn read_json(text: &str, line: usize, defaults: &Defaults) -> Raw {
    match serde_json::from_str(text) {
        Ok(value) => read_json_value(&value, line, defaults),
        Err(e) => {
            let kind = ParseErrorKind::Json(e.to_string());
            Raw::new(line, Format::Json, Err(ParseError { line, column: None, kind }))
        }
    }
}

/// A JSON record already parsed, as [`read_json`] reads its text.
pub(super) fn read_json_value(value: &serde_json::Value, line: usize, defaults: &Defaults) -> Raw {
    let error = |kind| Raw::new(line, Format::Json, Err(ParseError { line, column: None, kind }));
    let json = |why: String| error(ParseErrorKind::Json(why));
    let Some(object) = value.as_object() else { return json("not an object".to_owned()) };
    if let Some(key) =
        object.keys().find(|k| !JSON_FIELDS.contains(&k.as_str()) && !JSON_INFO_FIELDS.contains(&k.as_str()))
    {
        return json(format!(
            "unknown field \"{key}\" (the fields read: {}; and those dlx writes)",
            JSON_FIELDS.join(", ")
        ));
    }
    // A string field, or none (`null` is none).
    let text_of = |key: &str| -> Result<Option<String>, String> {
        match object.get(key) {
            None | Some(serde_json::Value::Null) => Ok(None),
            Some(serde_json::Value::String(s)) => Ok(Some(s.clone())),
            // A side may be a number: `"size": 16`.
            Some(serde_json::Value::Number(n)) if key == "size" => Ok(Some(n.to_string())),
            Some(v) => Err(format!("\"{key}\" is {v}, not a string")),
        }
    };
    let [puzzle, solution, variant, size, rules] = match JSON_FIELDS.map(text_of) {
        [Ok(a), Ok(b), Ok(c), Ok(d), Ok(e)] => [a, b, c, d, e],
        fields => return json(fields.into_iter().find_map(Result::err).expect("one is an error")),
    };
    let Some(puzzle) = puzzle else { return json("no \"puzzle\" string".to_owned()) };
    for (key, value) in [("variant", &variant), ("size", &size), ("solution", &solution)] {
        if value
            .as_deref()
            .is_some_and(|v| v.trim().is_empty() || v.contains(char::is_whitespace) && key != "solution")
        {
            return json(format!("\"{key}\" is {:?}: give one word", value.as_deref().unwrap_or("")));
        }
    }
    let (first, has_fields, other) = sized_line(&puzzle);
    let forced = defaults.size.is_some() || !defaults.constraints.is_empty();
    let nine = variant.as_deref().map(str::parse::<Variant>);
    // Read as a line would be: as a grid of the general forms when its length, its fields, the
    // caller or the record's own size, rules or variant say so.
    let general = has_fields
        || other
        || forced
        || size.is_some()
        || rules.is_some()
        || nine.as_ref().is_some_and(Result::is_err);
    if general {
        // The line the record stands for: the solution's cells beside the puzzle's (a solution
        // written with its rules' fields gives them again: they must be the puzzle's), then the
        // fields.
        let (cells, own) = puzzle.split_once(char::is_whitespace).unwrap_or((&puzzle, ""));
        let mut text = cells.to_owned();
        if let Some(solution) = &solution {
            let (solution_cells, solution_fields) =
                solution.split_once(char::is_whitespace).unwrap_or((solution, ""));
            let found = solution_cells.chars().count();
            if found != first {
                return error(ParseErrorKind::SolutionLength { found, expected: first });
            }
            if !solution_fields.trim().is_empty()
                && solution_fields.split_whitespace().ne(own.split_whitespace())
            {
                return error(ParseErrorKind::SolutionFields {
                    solution: solution_fields.trim().to_owned(),
                    puzzle: own.trim().to_owned(),
                });
            }
            text.push(' ');
            text.push_str(solution_cells);
        }
        text.push(' ');
        text.push_str(own);
        if let Some(size) = &size {
            text.push_str(&format!(" size={size}"));
        }
        // An 81-cell puzzle without fields of its own (what `dlx` writes of a 9x9 variant's
        // puzzle, with its `size` and `rules`) keeps a 9x9 variant's name as its variant, as in
        // the plain case below (the command line's --rules wins over it); with fields, the
        // name is one of its rules, as in the line form.
        let named = nine
            .as_ref()
            .and_then(|v| v.as_ref().ok())
            .copied()
            .filter(|_| first == 81 && own.trim().is_empty());
        if let Some(variant) = &variant
            && named.is_none()
        {
            text.push_str(&format!(" variant={variant}"));
        }
        let mut record = grid_record(parse_puzzle_record(&text, defaults), line, Format::Json, None);
        if record.puzzle.is_ok() {
            record.variant = named;
        }
        if let (Some(rules), Ok(Cells::Puzzle(grid))) = (&rules, &record.puzzle) {
            // The rules the record names are those its fields give (the caller's additions
            // aside).
            let own = Defaults { size: defaults.size, ..Defaults::default() };
            let with_named = |mut g: crate::model::Puzzle| {
                for c in named
                    .map(crate::model::Rules::from)
                    .iter()
                    .flat_map(|r| r.constraints().collect::<Vec<_>>())
                {
                    g.rules_mut().add(c);
                }
                g.rules().describe()
            };
            let described = parse_puzzle(&text, &own).map(with_named).unwrap_or_default();
            if rules.split_whitespace().ne(described.split_whitespace()) {
                return json(format!(
                    "\"rules\" says `{rules}`, but the puzzle and its fields give `{described}`{}",
                    if grid.rules().describe() == described { "" } else { " (before the command line's)" }
                ));
            }
        }
        return record;
    }
    let mut record = Raw::new(line, Format::Json, parse_cells(&puzzle, line, 0));
    if let Err(e) = &mut record.puzzle {
        // A column inside a JSON string would not be the line's.
        e.column = None;
    }
    if let Some(Ok(variant)) = nine {
        record.variant = Some(variant);
    }
    if let Some(solution) = &solution {
        match parse_cells(solution, line, 0) {
            Ok(solution) => record.solution = Some(Cells::Nine(solution)),
            Err(e) if record.puzzle.is_ok() => return error(ParseErrorKind::Solution(Box::new(e.kind))),
            Err(_) => {}
        }
    }
    record
}
