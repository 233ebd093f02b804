//! The `.dlx` format and the builder's errors, case by case.

use dlx_engine::{BuildError, ParseErrorKind, Problem, ProblemBuilder, Solver};

fn parse_err(text: &str) -> (usize, usize, ParseErrorKind, String) {
    let e = Problem::parse_dlx(text).unwrap_err();
    let message = e.to_string();
    (e.line, e.column, e.kind, message)
}

#[test]
fn reads_comments_secondaries_and_blank_lines() {
    let text = "| a comment\n  | an indented comment\n\nA B | x y\r\nA x\n\nB y\n| between\nA B\n";
    let p = Problem::parse_dlx(text).unwrap();
    assert_eq!((p.primary_count(), p.secondary_count(), p.option_count()), (2, 2, 3));
    assert_eq!(p.to_dlx(), "A B | x y\nA x\nB y\nA B\n");
    assert_eq!(Solver::new(&p).count().unwrap(), 2);
    // Tabs and runs of spaces separate names too.
    let p2 = Problem::parse_dlx("A\tB  |\tx y\nA  x\nB\ty\nA B\n").unwrap();
    assert_eq!(p2, p);
}

#[test]
fn each_parse_error_says_where_and_what() {
    let cases: &[(&str, usize, usize, ParseErrorKind, &str)] = &[
        (
            "",
            1,
            1,
            ParseErrorKind::NoItems,
            "line 1, column 1: no item line: the first line that is not a comment must list the items",
        ),
        (
            "| only\n| comments\n",
            2,
            1,
            ParseErrorKind::NoItems,
            "line 2, column 1: no item line: the first line that is not a comment must list the items",
        ),
        ("A B\nA C\n", 2, 3, ParseErrorKind::UnknownItem("C".into()), "line 2, column 3: unknown item `C`"),
        (
            "A B\nB A  B\n",
            2,
            6,
            ParseErrorKind::RepeatedItem("B".into()),
            "line 2, column 6: item `B` appears twice in this option",
        ),
        (
            "A B A\n",
            1,
            5,
            ParseErrorKind::DuplicateItem("A".into()),
            "line 1, column 5: item `A` is declared twice",
        ),
        ("A | x | y\n", 1, 7, ParseErrorKind::SecondBar, "line 1, column 7: a second `|` in the item line"),
        (
            "A | x\n x\n",
            2,
            2,
            ParseErrorKind::NoPrimaryItem,
            "line 2, column 2: this option has no primary item",
        ),
        (
            "A B 3:2|C | X Y\nA B\n",
            1,
            5,
            ParseErrorKind::Bounds { token: "3:2|C".into(), reason: "the lower bound exceeds the upper one" },
            "line 1, column 5: `3:2|C`: the lower bound exceeds the upper one",
        ),
        (
            "A 0|C\nA\n",
            1,
            3,
            ParseErrorKind::Bounds {
                token: "0|C".into(),
                reason: "the upper bound is 0, so no option could cover the item",
            },
            "line 1, column 3: `0|C`: the upper bound is 0, so no option could cover the item",
        ),
        (
            "A 1:4294967296|C\nA\n",
            1,
            3,
            ParseErrorKind::Bounds {
                token: "1:4294967296|C".into(),
                reason: "a bound exceeds 4294967295, the largest the engine takes",
            },
            "line 1, column 3: `1:4294967296|C`: a bound exceeds 4294967295, the largest the engine takes",
        ),
        (
            "A | 2|x\nA\n",
            1,
            5,
            ParseErrorKind::Bounds {
                token: "2|x".into(),
                reason: "only primary items take bounds (`a:b|name`)",
            },
            "line 1, column 5: `2|x`: only primary items take bounds (`a:b|name`)",
        ),
        (
            "A 1::2|C\nA\n",
            1,
            3,
            ParseErrorKind::Bounds {
                token: "1::2|C".into(),
                reason: "bounds are `a:b|name` or `b|name`, with `a` and `b` whole numbers",
            },
            "line 1, column 3: `1::2|C`: bounds are `a:b|name` or `b|name`, with `a` and `b` whole numbers",
        ),
        (
            "A 2|C:x\nA\n",
            1,
            5,
            ParseErrorKind::Color("C:x".into()),
            "line 1, column 5: `C:x`: a color (`item:color`) belongs in an option, on a secondary item",
        ),
        (
            "A B:red\n",
            1,
            3,
            ParseErrorKind::Color("B:red".into()),
            "line 1, column 3: `B:red`: a color (`item:color`) belongs in an option, on a secondary item",
        ),
        (
            "A | x\nA:red x\n",
            2,
            1,
            ParseErrorKind::ColoredPrimary("A:red".into()),
            "line 2, column 1: `A:red`: only secondary items take colors",
        ),
        (
            "A a|b\n",
            1,
            3,
            ParseErrorKind::Bar("a|b".into()),
            "line 1, column 3: `a|b`: names cannot contain `|`",
        ),
        (
            "A B\nA |\n",
            2,
            3,
            ParseErrorKind::Bar("|".into()),
            "line 2, column 3: `|`: names cannot contain `|`",
        ),
        (
            "A\nA\n  é A\n",
            3,
            3,
            ParseErrorKind::UnknownItem("é".into()),
            "line 3, column 3: unknown item `é`",
        ),
    ];
    for (text, line, column, kind, message) in cases {
        assert_eq!(parse_err(text), (*line, *column, kind.clone(), message.to_string()), "{text:?}");
    }
    // An item line that starts with `|` is a comment, so `| x` alone is "no item line"; a bar after
    // white space starts the secondary items of an empty primary list only if it is not the first
    // character, which cannot happen: the first non-blank `|` always makes a comment.
    assert_eq!(parse_err("| x\n").2, ParseErrorKind::NoItems);
}

#[test]
fn round_trip_of_a_written_problem() {
    let mut b = ProblemBuilder::new();
    let x = b.secondary("x").unwrap();
    let a = b.primary("a").unwrap();
    let c = b.primary("c").unwrap();
    b.option([x, a]).unwrap();
    b.option([c]).unwrap();
    b.option([a, c]).unwrap();
    let p = b.build();
    let text = p.to_dlx();
    assert_eq!(text, "a c | x\nx a\nc\na c\n");
    let mut written = Vec::new();
    p.write_dlx(&mut written).unwrap();
    assert_eq!(String::from_utf8(written).unwrap(), text);
    assert_eq!(Problem::parse_dlx(&text).unwrap(), p);
}

#[test]
fn builder_errors() {
    let mut b = ProblemBuilder::new();
    let a = b.primary("a").unwrap();
    let x = b.secondary("x").unwrap();
    assert_eq!(b.primary("a").unwrap_err(), BuildError::DuplicateItem { name: "a".into() });
    for (name, reason) in [
        ("", "it is empty"),
        ("a b", "it contains white space"),
        ("a|b", "it contains `|`"),
        ("a:b", "it contains `:` (which gives a color, in an option)"),
    ] {
        assert_eq!(b.secondary(name).unwrap_err(), BuildError::InvalidName { name: name.into(), reason });
    }
    assert_eq!(b.option([]).unwrap_err(), BuildError::EmptyOption { option: 0 });
    assert_eq!(b.option([x]).unwrap_err(), BuildError::NoPrimaryItem { option: 0 });
    assert_eq!(b.option([a, x, a]).unwrap_err(), BuildError::RepeatedItem { option: 0, name: "a".into() });
    let foreign = dlx_engine::ItemId::from_u32(7);
    assert_eq!(b.option([a, foreign]).unwrap_err(), BuildError::UnknownItem { option: 0, name: "#7".into() });
    assert_eq!(
        b.option_by_names(["a", "zz"]).unwrap_err(),
        BuildError::UnknownItem { option: 0, name: "zz".into() }
    );
    assert_eq!(b.option([a, x, a]).unwrap_err().to_string(), "option 0 lists item `a` twice");
    // Failed calls left nothing behind.
    assert_eq!(b.option_count(), 0);
    b.option([x, a]).unwrap();
    let anon = b.anonymous_primary().unwrap();
    assert_eq!(
        b.primary(format!("#{}", anon.index())).unwrap_err(),
        BuildError::DuplicateItem { name: "#2".into() }
    );
    let p = b.build();
    assert_eq!(p.to_dlx(), "a #2 | x\nx a\n");
    assert_eq!(p.item_name(anon), "#2");
}

#[test]
fn node_limit_gives_too_large() {
    // root + 2 headers + first spacer = 4 nodes; an option of 2 items needs 3 more.
    let mut b = ProblemBuilder::new().node_limit(9);
    let a = b.primary("a").unwrap();
    let c = b.primary("c").unwrap();
    b.option([a, c]).unwrap();
    assert_eq!(b.option([a, c]).unwrap_err(), BuildError::TooLarge { limit: 9 });
    assert_eq!(b.option_count(), 1);
    b.option([a]).unwrap();
    assert_eq!(b.primary("d").unwrap_err(), BuildError::TooLarge { limit: 9 });
    let p = b.build();
    assert_eq!(p.node_count(), 9);
    assert_eq!(Solver::new(&p).count().unwrap(), 1);
}

/// A byte-order mark is skipped (it used to stick to the first item's name); bytes that are not
/// UTF-8 are ignored in comments and an error with line and column anywhere else.
#[test]
fn byte_order_marks_and_bytes_that_are_not_utf8() {
    let plain = Problem::parse_dlx("A B\nA\nB\n").unwrap();
    assert_eq!(Problem::parse_dlx("\u{feff}A B\nA\nB\n").unwrap(), plain);
    assert_eq!(Problem::parse_dlx_bytes(b"\xef\xbb\xbfA B\r\nA\r\nB\r\n").unwrap(), plain);
    assert_eq!(Problem::parse_dlx_bytes(b"| \xe9t\xe9\nA B\n  | \xff\xfe\nA\nB").unwrap(), plain);
    // A name that starts with the mark would be written first and read back as the mark (found
    // by the fuzzer): it is refused.
    let e = Problem::parse_dlx("| x\n \u{feff} B\n").unwrap_err();
    assert_eq!((e.line, e.column), (2, 2));
    assert!(matches!(e.kind, ParseErrorKind::InvalidName { .. }), "{e}");
    for (bytes, line, column, byte) in [
        (&b"A \xff B\nA\n"[..], 1, 3, 0xff),
        (b"| ok\nA B\nA\nB \xc3\n", 4, 3, 0xc3),
        (b"A B\n\xe9 | x\n", 2, 1, 0xe9),
        (b"A B\n| fine\n\xef\xbb\xbfA\n", 3, 1, 0xef),
    ] {
        let e = Problem::parse_dlx_bytes(bytes).unwrap_err();
        let want = (line, column, ParseErrorKind::NotUtf8(byte));
        if byte == 0xef {
            // A byte-order mark is UTF-8; only at the very start is it skipped.
            assert_eq!((e.line, e.column), (line, column), "{bytes:?}");
            continue;
        }
        assert_eq!((e.line, e.column, e.kind), want, "{bytes:?}");
    }
}
