//! Layers only look down (STYLE.md rule 2), checked from the source: which top-level
//! module names which, read from every `crate::…` path (and `super::…` paths that
//! climb to the crate root) outside comments.
//!
//! - domain, store, media and mail never name app, http, ws, live or ops;
//! - the modules form no cycle (app ↔ http, app ↔ ops, live ↔ ops and config ↔ ops
//!   once did);
//! - `metric_names` names nothing;
//! - http and ws reach the live model through `Live` only, never the hub, the
//!   registry or a project actor;
//! - `Bus::publish` has one caller, the exit every change leaves by.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const LOWER: [&str; 4] = ["domain", "store", "media", "mail"];
const UPPER: [&str; 5] = ["app", "http", "ws", "live", "ops"];

fn src() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("src")
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// The module path of a file: `domain/photos/ingest.rs` → [domain, photos, ingest].
fn module_path(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    let last = parts.pop().unwrap();
    if last != "mod.rs" {
        parts.push(last.trim_end_matches(".rs").to_owned());
    }
    parts
}

/// Each line without its comment (`//` outside a string literal).
fn code_lines(text: &str) -> Vec<String> {
    text.lines()
        .map(|line| {
            let mut in_string = false;
            let bytes = line.as_bytes();
            for i in 0..bytes.len() {
                match bytes[i] {
                    b'"' if i == 0 || bytes[i - 1] != b'\\' => in_string = !in_string,
                    b'/' if !in_string && bytes.get(i + 1) == Some(&b'/') => return line[..i].to_owned(),
                    _ => {}
                }
            }
            line.to_owned()
        })
        .collect()
}

fn ident_after(text: &str) -> String {
    text.chars().take_while(|c| c.is_ascii_alphanumeric() || *c == '_').collect()
}

/// The top-level modules a file's code names.
fn named_modules(lines: &[String], path: &[String], top: &BTreeSet<String>) -> BTreeSet<String> {
    let mut named = BTreeSet::new();
    for line in lines {
        for (at, _) in line.match_indices("crate::") {
            named.insert(ident_after(&line[at + "crate::".len()..]));
        }
        // `super::` climbs one module; climbing past this file's top-level module
        // names a top-level module.
        let mut rest = line.as_str();
        while let Some(at) = rest.find("super::") {
            let before = rest[..at].chars().last();
            let mut climbed = 0;
            let mut tail = &rest[at..];
            while let Some(after) = tail.strip_prefix("super::") {
                climbed += 1;
                tail = after;
            }
            if !before.is_some_and(|c| c.is_ascii_alphanumeric() || c == '_') && climbed >= path.len() {
                named.insert(ident_after(tail));
            }
            rest = &rest[at + "super::".len()..];
        }
    }
    named.retain(|m| top.contains(m));
    named
}

struct Source {
    /// Top-level module → the top-level modules its code names.
    deps: BTreeMap<String, BTreeSet<String>>,
    /// Every file, by module path, with its code lines.
    files: Vec<(Vec<String>, Vec<String>)>,
}

fn read_source() -> Source {
    let lib = std::fs::read_to_string(src().join("lib.rs")).unwrap();
    let top: BTreeSet<String> = code_lines(&lib)
        .iter()
        .filter_map(|l| l.trim().trim_start_matches("pub ").strip_prefix("mod ").map(|m| m.trim_end_matches(';').trim().to_owned()))
        .collect();
    assert!(top.contains("domain") && top.contains("live"), "lib.rs was not read: {top:?}");
    let mut paths = Vec::new();
    rust_files(&src(), &mut paths);
    let mut deps: BTreeMap<String, BTreeSet<String>> = top.iter().map(|m| (m.clone(), BTreeSet::new())).collect();
    let mut files = Vec::new();
    for file in paths {
        let path = module_path(&file);
        // This module's own text names what it looks for.
        let Some(module) = path.first().filter(|m| top.contains(*m) && *m != "architecture").cloned() else { continue };
        let lines = code_lines(&std::fs::read_to_string(&file).unwrap());
        let named = named_modules(&lines, &path, &top);
        deps.entry(module.clone()).or_default().extend(named.into_iter().filter(|m| *m != module));
        files.push((path, lines));
    }
    Source { deps, files }
}

#[test]
fn lower_layers_never_name_upper_ones() {
    let source = read_source();
    for lower in LOWER {
        let upward: Vec<&String> = source.deps[lower].iter().filter(|m| UPPER.contains(&m.as_str())).collect();
        assert!(upward.is_empty(), "{lower} names {upward:?}");
    }
}

#[test]
fn the_modules_form_no_cycle() {
    let source = read_source();
    for (a, b) in [("app", "http"), ("app", "ops"), ("live", "ops"), ("config", "ops")] {
        assert!(!(source.deps[a].contains(b) && source.deps[b].contains(a)), "{a} and {b} name each other");
    }
    // Depth-first, keeping the path: the first module met twice on it closes a cycle.
    fn visit(m: &str, deps: &BTreeMap<String, BTreeSet<String>>, path: &mut Vec<String>, done: &mut BTreeSet<String>) {
        if let Some(at) = path.iter().position(|p| p == m) {
            panic!("a cycle of modules: {} → {m}", path[at..].join(" → "));
        }
        if !done.insert(m.to_owned()) {
            return;
        }
        path.push(m.to_owned());
        for next in &deps[m] {
            visit(next, deps, path, done);
        }
        path.pop();
    }
    let mut done = BTreeSet::new();
    for m in source.deps.keys() {
        visit(m, &source.deps, &mut Vec::new(), &mut done);
    }
}

#[test]
fn metric_names_name_nothing() {
    let source = read_source();
    assert!(source.deps["metric_names"].is_empty(), "{:?}", source.deps["metric_names"]);
    let (_, lines) = source.files.iter().find(|(p, _)| p == &["metric_names"]).unwrap();
    assert!(!lines.iter().any(|l| l.trim_start().starts_with("use ")), "metric_names imports nothing");
}

#[test]
fn transports_reach_the_live_model_through_live_only() {
    let source = read_source();
    let forbidden = ["live::hub", "live::registry", "live::project", "live::bus", "live::publisher"];
    let types = ["Hub", "Registry", "ProjectActor", "ProjectTurns", "Bus"];
    for (path, lines) in source.files.iter().filter(|(p, _)| p[0] == "http" || p[0] == "ws") {
        for line in lines {
            for f in forbidden {
                assert!(!line.contains(f), "{} names {f}: {line}", path.join("/"));
            }
            let words: Vec<&str> = line.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).collect();
            for t in types {
                assert!(!words.contains(&t), "{} names {t}: {line}", path.join("/"));
            }
            assert!(!line.contains(".hub") && !line.contains(".registry"), "{}: {line}", path.join("/"));
        }
    }
}

#[test]
fn every_change_leaves_by_one_exit() {
    let source = read_source();
    let callers: Vec<String> = source
        .files
        .iter()
        .flat_map(|(path, lines)| lines.iter().filter(|l| l.contains("bus.publish(")).map(move |l| format!("{}: {l}", path.join("/"))))
        .collect();
    assert_eq!(callers.len(), 1, "Bus::publish is called from {callers:#?}");
    assert!(callers[0].starts_with("live: "), "{callers:?}");
}
