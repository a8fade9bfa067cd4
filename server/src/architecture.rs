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
//! - `Bus::publish` has one caller, the exit every change leaves by;
//! - inside `domain` and `live`, modules form no cycle; the domain's contexts (its
//!   top-level folders) form none either, and each shows other contexts only the
//!   modules they use (docs/ARCHITECTURE.md, "The domain").

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
    if let Some(cycle) = find_cycle(&source.deps) {
        panic!("a cycle of modules: {}", cycle.join(" → "));
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

// ---- inside the domain and the live model

/// The code of a file, without its tests: test modules close a file (clippy's
/// `items_after_test_module`), and may name whatever they check.
fn without_tests(lines: &[String]) -> &[String] {
    let end = lines.iter().position(|l| l.trim() == "#[cfg(test)]").unwrap_or(lines.len());
    &lines[..end]
}

/// The modules a file declares: `mod x;` and `pub mod x;` (any visibility).
fn declared_modules(lines: &[String]) -> Vec<(String, bool)> {
    lines
        .iter()
        .filter_map(|l| {
            let l = l.trim();
            let public = l.starts_with("pub mod ");
            let rest = l.strip_prefix("pub mod ").or_else(|| l.strip_prefix("mod "))?;
            let name = rest.strip_suffix(';')?.trim();
            Some((name.to_owned(), public))
        })
        .collect()
}

/// Splits `a, b::{c, d}, e` at its top-level commas.
fn top_level_items(group: &str) -> Vec<&str> {
    let (mut depth, mut start, mut items) = (0, 0, Vec::new());
    for (i, c) in group.char_indices() {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                items.push(group[start..i].trim());
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(group[start..].trim());
    items.into_iter().filter(|i| !i.is_empty()).collect()
}

/// A path's leading identifiers: `a::b::c(…)` → [a, b, c]; stops at a group.
fn segments(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut rest = text;
    loop {
        let ident = ident_after(rest);
        if ident.is_empty() {
            return out;
        }
        rest = &rest[ident.len()..];
        out.push(ident);
        match rest.strip_prefix("::") {
            Some(after) if !after.starts_with('{') => rest = after,
            _ => return out,
        }
    }
}

/// Every absolute module path a file's code names: `crate::…`, `super::…` and, in a
/// module with children, `child::…`; groups (`a::{b, c::d}`) are opened one level.
/// A module re-exporting its own children (`pub use child::…`) shows its surface and
/// depends on nothing by it.
fn named_paths(text: &str, module: &[String], children: &[String]) -> Vec<Vec<String>> {
    let mut found = Vec::new();
    let mut push = |base: Vec<String>, tail: &str| {
        let head = segments(tail);
        let consumed: usize = head.iter().map(|s| s.len()).sum::<usize>() + 2 * head.len().saturating_sub(1);
        let rest = &tail[consumed..];
        let group = if head.is_empty() { rest.strip_prefix('{') } else { rest.strip_prefix("::{") };
        let mut path = base;
        path.extend(head);
        let Some(group) = group else {
            found.push(path);
            return;
        };
        let mut depth = 1;
        let close = group
            .char_indices()
            .find(|&(_, c)| {
                depth += match c {
                    '{' => 1,
                    '}' => -1,
                    _ => 0,
                };
                depth == 0
            })
            .map_or(group.len(), |(i, _)| i);
        for item in top_level_items(&group[..close]) {
            let mut p = path.clone();
            p.extend(segments(item).into_iter().filter(|s| s != "self"));
            found.push(p);
        }
    };
    // A `use` written over several lines is read as one.
    let mut statements: Vec<String> = Vec::new();
    let mut open_use = false;
    for line in text.lines() {
        let trimmed = line.trim();
        if open_use {
            statements.last_mut().unwrap().push_str(trimmed);
        } else {
            statements.push(line.to_owned());
        }
        let starts_use = trimmed.starts_with("use ") || trimmed.contains(" use ") && trimmed.starts_with("pub");
        open_use = (open_use || starts_use) && !trimmed.ends_with(';');
    }
    for line in &statements {
        let line = line.as_str();
        let trimmed = line.trim_start();
        let reexport = (trimmed.starts_with("pub use ") || trimmed.starts_with("pub(crate) use "))
            && children.iter().any(|c| trimmed.split_once("use ").is_some_and(|(_, p)| p.starts_with(&format!("{c}::"))));
        if reexport {
            continue;
        }
        for (at, _) in line.match_indices("crate::") {
            if line[..at].chars().last().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            push(Vec::new(), &line[at + "crate::".len()..]);
        }
        let mut from = 0;
        while let Some(at) = line[from..].find("super::").map(|i| i + from) {
            from = at + 1;
            if line[..at].chars().last().is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == ':') {
                continue;
            }
            let mut tail = &line[at..];
            let mut base = module.to_vec();
            while let Some(after) = tail.strip_prefix("super::") {
                base.pop();
                tail = after;
            }
            from = line.len() - tail.len();
            push(base, tail);
        }
        if let Some(rest) = trimmed.strip_prefix("use ").or_else(|| trimmed.strip_prefix("pub use ")) {
            if children.iter().any(|c| rest.starts_with(&format!("{c}::"))) {
                push(module.to_vec(), rest);
            }
        }
    }
    found
}

struct Modules {
    /// Module path → the modules its code (not its tests) names, among `within`.
    deps: BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
    /// Context → its modules declared public in its `mod.rs`, and all of them.
    surfaces: BTreeMap<String, (BTreeSet<String>, BTreeSet<String>)>,
    /// Every file's module path and the module paths its code names (any module).
    named: Vec<(Vec<String>, Vec<Vec<String>>)>,
}

fn read_modules(within: &str) -> Modules {
    let source = read_source();
    let known: BTreeSet<Vec<String>> = source.files.iter().map(|(p, _)| p.clone()).collect();
    let resolve = |path: &[String]| -> Option<Vec<String>> { (1..=path.len()).rev().map(|n| path[..n].to_vec()).find(|p| known.contains(p)) };
    let mut deps: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    let mut surfaces = BTreeMap::new();
    let mut named = Vec::new();
    for (path, lines) in &source.files {
        // main.rs is the binary beside the library, which it names `sitecast::`.
        let code = without_tests(lines).join("\n").replace("sitecast::", "crate::");
        let declared = declared_modules(without_tests(lines));
        let children: Vec<String> = declared.iter().map(|(m, _)| m.clone()).collect();
        if path.len() == 2 && path[0] == within && !children.is_empty() {
            let public = declared.iter().filter(|(_, p)| *p).map(|(m, _)| m.clone()).collect();
            surfaces.insert(path[1].clone(), (public, children.iter().cloned().collect()));
        }
        let paths = named_paths(&code, path, &children);
        if path.first().map(String::as_str) == Some(within) && path.len() > 1 {
            let mine = deps.entry(path.clone()).or_default();
            for p in &paths {
                if let Some(target) = resolve(p).filter(|t| t != path && t.first().map(String::as_str) == Some(within) && t.len() > 1) {
                    mine.insert(target);
                }
            }
        }
        named.push((path.clone(), paths));
    }
    // The crate's integration tests use the domain as the server does.
    let mut tests = Vec::new();
    rust_files(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests"), &mut tests);
    for file in tests {
        let text = code_lines(&std::fs::read_to_string(&file).unwrap()).join("\n").replace("sitecast::", "crate::");
        named.push((vec!["tests".to_owned()], named_paths(&text, &[], &[])));
    }
    Modules { deps, surfaces, named }
}

/// The first cycle in a graph, as the path that closes it: depth-first, keeping the
/// path, the first node met twice on it closes a cycle.
fn find_cycle<T: Ord + Clone + std::fmt::Debug>(deps: &BTreeMap<T, BTreeSet<T>>) -> Option<Vec<T>> {
    fn visit<T: Ord + Clone>(m: &T, deps: &BTreeMap<T, BTreeSet<T>>, path: &mut Vec<T>, done: &mut BTreeSet<T>) -> Option<Vec<T>> {
        if let Some(at) = path.iter().position(|p| p == m) {
            let mut cycle = path[at..].to_vec();
            cycle.push(m.clone());
            return Some(cycle);
        }
        if !done.insert(m.clone()) {
            return None;
        }
        path.push(m.clone());
        for next in deps.get(m).into_iter().flatten() {
            if let Some(cycle) = visit(next, deps, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    deps.keys().find_map(|m| visit(m, deps, &mut Vec::new(), &mut done))
}

#[test]
fn domain_and_live_modules_form_no_cycle() {
    for within in ["domain", "live"] {
        let modules = read_modules(within);
        assert!(modules.deps.len() > 5, "{within} was not read");
        if let Some(cycle) = find_cycle(&modules.deps) {
            let names: Vec<String> = cycle.iter().map(|p| p.join("::")).collect();
            panic!("a cycle of modules: {}", names.join(" → "));
        }
    }
}

#[test]
fn the_domain_contexts_form_no_cycle() {
    let modules = read_modules("domain");
    let mut contexts: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (from, to) in &modules.deps {
        let entry = contexts.entry(from[1].clone()).or_default();
        entry.extend(to.iter().map(|t| t[1].clone()).filter(|t| *t != from[1]));
    }
    assert!(contexts.contains_key("identity") && contexts["media"].contains("projects"), "{contexts:?}");
    if let Some(cycle) = find_cycle(&contexts) {
        panic!("a cycle of contexts: {}", cycle.join(" → "));
    }
    // Shared names no context.
    assert!(contexts["shared"].is_empty(), "shared names {:?}", contexts["shared"]);
}

/// A context's public modules are the ones other code uses; the rest are private, so
/// the compiler keeps everyone else out of them.
#[test]
fn each_context_shows_only_what_others_use() {
    let modules = read_modules("domain");
    for (context, (public, all)) in &modules.surfaces {
        let used: BTreeSet<String> = modules
            .named
            .iter()
            .filter(|(path, _)| !(path.len() > 1 && path[0] == "domain" && &path[1] == context))
            .flat_map(|(_, paths)| paths.iter())
            .filter(|p| p.len() > 2 && p[0] == "domain" && &p[1] == context && all.contains(&p[2]))
            .map(|p| p[2].clone())
            .collect();
        let hidden: Vec<&String> = used.difference(public).collect();
        let needless: Vec<&String> = public.difference(&used).collect();
        assert!(hidden.is_empty(), "domain::{context}: {hidden:?} are used outside it but not public");
        assert!(needless.is_empty(), "domain::{context}: {needless:?} are public but nothing outside uses them; make them private");
    }
}
