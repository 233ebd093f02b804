//! Shards through the binary: N = 16 shards run as separate processes by `xargs -P`, merged by
//! `dlx merge`, give the count of one run (queens 12, Langford 11, 4x4 word squares with colors),
//! and the figures of one run; the merge refuses missing, repeated, cut or foreign shards.

use std::path::Path;
use std::process::Command;

use crate::common::{dlx, fixture};

/// The `.dlx` text of n queens: rows and columns primary, diagonals secondary.
fn queens(n: usize) -> String {
    let mut text = (0..n).map(|i| format!("r{i} c{i}")).collect::<Vec<_>>().join(" ") + " |";
    for d in 0..2 * n - 1 {
        text += &format!(" a{d} b{d}");
    }
    text.push('\n');
    for r in 0..n {
        for c in 0..n {
            text += &format!("r{r} c{c} a{} b{}\n", r + c, r + n - 1 - c);
        }
    }
    text
}

/// The `.dlx` text of Langford pairs of order n: each number k fills two slots k+1 apart.
fn langford(n: usize) -> String {
    let mut text = (1..=n).map(|k| k.to_string()).collect::<Vec<_>>().join(" ");
    for s in 0..2 * n {
        text += &format!(" s{s}");
    }
    text.push('\n');
    for k in 1..=n {
        for i in 0..2 * n - k - 1 {
            text += &format!("{k} s{i} s{}\n", i + k + 1);
        }
    }
    text
}

/// The field `name` of a JSON line.
fn field(json: &str, name: &str) -> u64 {
    let value: serde_json::Value = serde_json::from_str(json.trim()).unwrap();
    value[name].as_u64().unwrap()
}

/// Runs the 16 shards of `file` with `xargs -P 4`, each into its own file in `dir`.
fn run_shards(file: &Path, dir: &Path) {
    let script = "seq 0 15 | xargs -P 4 -I{} sh -c '\"$DLX\" xc --count --shard {}/16 --format json \"$FILE\" > \"$DIR/{}.json\"'";
    let status = Command::new("sh")
        .arg("-c")
        .arg(script)
        .env("DLX", env!("CARGO_BIN_EXE_dlx"))
        .env("FILE", file)
        .env("DIR", dir)
        .status()
        .unwrap();
    assert!(status.success(), "the shards ran");
}

#[test]
fn sixteen_shards_merge_to_one_run() {
    let dir = tempfile::tempdir().unwrap();
    let problems = [
        ("queens12", queens(12), 14_200),
        ("langford11", langford(11), 35_584),
        ("squares", std::fs::read_to_string(fixture("word-squares4.dlx")).unwrap(), 17_460),
    ];
    for (name, text, solutions) in problems {
        let file = dir.path().join(format!("{name}.dlx"));
        std::fs::write(&file, text).unwrap();
        let whole = dlx(&["xc", "--count", "--format", "json", file.to_str().unwrap()], "");
        assert!(whole.status.success(), "{name}");
        let whole = String::from_utf8(whole.stdout).unwrap();
        assert_eq!(field(&whole, "solutions"), solutions, "{name}");
        let parts = dir.path().join(name);
        std::fs::create_dir(&parts).unwrap();
        run_shards(&file, &parts);
        let files: Vec<String> =
            (0..16).map(|k| parts.join(format!("{k}.json")).to_str().unwrap().to_owned()).collect();
        let mut args = vec!["merge", "--format", "json"];
        args.extend(files.iter().map(String::as_str));
        let merged = dlx(&args, "");
        assert!(merged.status.success(), "{name}: {}", String::from_utf8_lossy(&merged.stderr));
        let merged = String::from_utf8(merged.stdout).unwrap();
        for figure in ["solutions", "nodes", "updates", "cleansings"] {
            assert_eq!(field(&merged, figure), field(&whole, figure), "{name}: merged {figure}");
        }
        // The merge refuses what would give a wrong total.
        let without_one: Vec<&str> =
            std::iter::once("merge").chain(files[1..].iter().map(String::as_str)).collect();
        let missing = dlx(&without_one, "");
        assert_eq!(missing.status.code(), Some(2));
        assert!(missing.stdout.is_empty());
        assert!(String::from_utf8_lossy(&missing.stderr).contains("missing shards 0 of 16"), "{name}");
        let mut twice: Vec<&str> = vec!["merge"];
        twice.extend(files.iter().map(String::as_str));
        twice.push(&files[3]);
        let repeated = dlx(&twice, "");
        assert_eq!(repeated.status.code(), Some(2));
        assert!(String::from_utf8_lossy(&repeated.stderr).contains("shard 3/16 appears 2 times"), "{name}");
    }
    // Shards of different problems are never merged.
    let a = dir.path().join("queens12/0.json");
    let b = dir.path().join("langford11/1.json");
    let mixed = dlx(&["merge", a.to_str().unwrap(), b.to_str().unwrap()], "");
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("another problem"));
    // Shards of another N, or cut by other rules, are other parts of the tree: refused, each
    // file named.
    let queens_file = dir.path().join("queens12.dlx");
    let queens_file = queens_file.to_str().unwrap();
    let parts: Vec<String> = (1..16).map(|k| format!("{}/queens12/{k}.json", dir.path().display())).collect();
    // The merge of shards 1 to 15 with `record` as shard 0: refused (exit 2, no total), and what
    // it said.
    let refused = |record: &[u8]| {
        let other_file = dir.path().join("other.json");
        std::fs::write(&other_file, record).unwrap();
        let mut merge = vec!["merge"];
        merge.extend(parts.iter().map(String::as_str));
        merge.push(other_file.to_str().unwrap());
        let out = dlx(&merge, "");
        assert_eq!(out.status.code(), Some(2), "{}", String::from_utf8_lossy(record));
        assert!(out.stdout.is_empty());
        String::from_utf8_lossy(&out.stderr).into_owned()
    };
    for (flags, why) in [
        (&["--shard", "0/2"][..], "of another cut than"),
        (&["--shard", "0/16", "--branch", "wdeg"][..], "made with --tie-break earliest --branch wdeg"),
        (&["--shard", "0/16", "--tie-break", "last-conflict"][..], "the rules cut the tree into other parts"),
    ] {
        let args = [&["xc", "--count", "--format", "json"][..], flags, &[queens_file]].concat();
        let other = dlx(&args, "");
        assert!(other.status.success(), "{flags:?}");
        let err = refused(&other.stdout);
        assert!(err.contains("other.json:1: shard 0/") && err.contains(why), "{flags:?}: {err}");
    }
    // A shard of another cut of the tree (as another version of dlx may make), or of a version
    // that kept no cut, is refused too: its parts may overlap the others'.
    let shard0 = std::fs::read_to_string(dir.path().join("queens12/0.json")).unwrap();
    let cut = shard0.split("\"cut\":\"").nth(1).and_then(|rest| rest.get(..16)).expect("a cut recorded");
    let other_cut = format!("{:016x}", u64::from_str_radix(cut, 16).unwrap() ^ 1);
    for (record, why) in [
        (shard0.replace(cut, &other_cut), format!("(cut {other_cut}, not cut {cut})")),
        (shard0.replace(&format!("\"cut\":\"{cut}\","), ""), format!("(none recorded, not cut {cut})")),
    ] {
        let err = refused(record.as_bytes());
        assert!(
            err.contains("other.json:1: shard 0/16 of another cut of the tree") && err.contains(&why),
            "{err}"
        );
    }
    // With the same rule on every shard, any rule adds up.
    let frb: Vec<String> = (0..4)
        .map(|k| {
            let shard = format!("{k}/4");
            let args =
                ["xc", "--count", "--format", "json", "--branch", "frb", "--shard", &shard, queens_file];
            String::from_utf8(dlx(&args, "").stdout).unwrap()
        })
        .collect();
    let merged = dlx(&["merge"], &frb.concat());
    assert_eq!(String::from_utf8(merged.stdout).unwrap(), "14200\n");
    // A shard cut short by --limit is refused.
    let file = dir.path().join("queens12.dlx");
    let cut = dlx(
        &["xc", "--count", "--limit", "3", "--shard", "0/1", "--format", "json", file.to_str().unwrap()],
        "",
    );
    let cut = String::from_utf8(cut.stdout).unwrap();
    let refused = dlx(&["merge"], &cut);
    assert_eq!(refused.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&refused.stderr).contains("cut short by --limit"));
    // Bad shards are usage errors.
    for bad in ["16/16", "1/0", "x"] {
        let out = dlx(&["xc", "--count", "--shard", bad, file.to_str().unwrap()], "");
        assert_eq!(out.status.code(), Some(2), "--shard {bad}");
    }
}
