//! The shape of the source tree, checked (docs/architecture.md): no source file over 500
//! lines, no `#[path]` module, no import cycle between module folders at any level, the
//! engine imports no layer, and nothing but the world imports the world.
//!
//! A module folder is a directory of `src/` (`net/aodv/` is `net::aodv`); a file belongs to
//! the folder it sits in (`net/etx.rs` to `net`, `net/aodv/mod.rs` to `net::aodv`). An
//! import is any `crate::`, `super::` or `self::` path outside a comment, resolved to the
//! deepest folder it names. An edge between two folders, neither inside the other, counts
//! between their ancestors that are siblings, so a cycle anywhere shows at its own level.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const MAX_LINES: usize = 500;
/// The layers and their glue: none of them may import the world.
const NOT_WORLD: &[&str] = &["engine", "phy", "mac", "queue", "net", "transport", "node"];
/// What the engine may import besides itself.
const ENGINE_MAY_USE: &[&str] = &["engine", "error"];

fn src_dir() -> PathBuf {
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

/// The module path of a file (`net/aodv/mod.rs` -> [net, aodv]; `lib.rs` -> []).
fn module_of(rel: &Path) -> Vec<String> {
    let mut parts: Vec<String> =
        rel.iter().map(|p| p.to_string_lossy().trim_end_matches(".rs").to_string()).collect();
    if matches!(parts.last().map(String::as_str), Some("mod" | "lib")) {
        parts.pop();
    }
    parts
}

/// The module folders (directories) of the tree, as module paths.
fn folders(files: &[PathBuf], src: &Path) -> BTreeSet<Vec<String>> {
    let mut out = BTreeSet::from([Vec::new()]);
    for f in files {
        let rel = f.strip_prefix(src).unwrap().parent().unwrap();
        let path: Vec<String> = rel.iter().map(|p| p.to_string_lossy().to_string()).collect();
        for k in 0..=path.len() {
            out.insert(path[..k].to_vec());
        }
    }
    out
}

/// The folder a file sits in.
fn folder_of(rel: &Path) -> Vec<String> {
    rel.parent().unwrap().iter().map(|p| p.to_string_lossy().to_string()).collect()
}

/// Every path a line names, resolved to a module path from `module` (`crate::`, `super::`,
/// `self::`); comments and string literals are skipped.
fn named_paths(line: &str, module: &[String]) -> Vec<Vec<String>> {
    let code = line.split("//").next().unwrap();
    if code.trim_start().starts_with('*') {
        return Vec::new();
    }
    let mut out = Vec::new();
    let bytes = code.as_bytes();
    let mut in_string = false;
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'"' && (i == 0 || bytes[i - 1] != b'\\') {
            in_string = !in_string;
        }
        let boundary = i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_');
        if !in_string && boundary {
            let rest = &code[i..];
            let starts = ["crate::", "super::", "self::"].iter().any(|s| rest.starts_with(s));
            if starts {
                let segs = rest
                    .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
                    .next()
                    .unwrap()
                    .split("::");
                let mut at = module.to_vec();
                for (k, s) in segs.enumerate() {
                    match s {
                        "crate" if k == 0 => at.clear(),
                        "self" if k == 0 => {}
                        "super" => {
                            at.pop();
                        }
                        "" => break,
                        s => at.push(s.to_string()),
                    }
                }
                let path_len = rest.find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'));
                let after = &rest[path_len.unwrap_or(rest.len())..];
                match after.strip_prefix('{').and_then(|g| g.split_once('}')) {
                    // `use crate::a::{b::C, d}`: each member of the group (one level).
                    Some((group, _)) => {
                        for member in group.split(',') {
                            let mut m = at.clone();
                            let path = member.trim().split(" as ").next().unwrap();
                            m.extend(
                                path.split("::")
                                    .filter(|s| !s.is_empty() && *s != "self")
                                    .map(String::from),
                            );
                            out.push(m);
                        }
                    }
                    None => out.push(at),
                }
                i += rest.find([';', '}', ' ']).unwrap_or(rest.len());
                continue;
            }
        }
        i += 1;
    }
    out
}

/// The deepest folder a module path is in or names.
fn deepest_folder(path: &[String], folders: &BTreeSet<Vec<String>>) -> Vec<String> {
    (0..=path.len()).rev().map(|k| path[..k].to_vec()).find(|p| folders.contains(p)).unwrap()
}

struct Tree {
    files: Vec<(PathBuf, String)>,
    edges: BTreeSet<(Vec<String>, Vec<String>)>,
}

fn tree() -> Tree {
    let src = src_dir();
    let mut paths = Vec::new();
    rust_files(&src, &mut paths);
    paths.sort();
    let folders = folders(&paths, &src);
    let mut files = Vec::new();
    let mut edges = BTreeSet::new();
    for path in paths {
        let rel = path.strip_prefix(&src).unwrap().to_path_buf();
        let text = std::fs::read_to_string(&path).unwrap();
        let (module, from) = (module_of(&rel), folder_of(&rel));
        for line in text.lines() {
            for named in named_paths(line, &module) {
                let to = deepest_folder(&named, &folders);
                if to != from {
                    edges.insert((from.clone(), to));
                }
            }
        }
        files.push((rel, text));
    }
    Tree { files, edges }
}

/// `a` and `b` lifted to the siblings under their lowest common ancestor (None when one
/// contains the other).
fn siblings(a: &[String], b: &[String]) -> Option<(Vec<String>, Vec<String>)> {
    let common = a.iter().zip(b).take_while(|(x, y)| x == y).count();
    if common == a.len() || common == b.len() {
        return None;
    }
    Some((a[..=common].to_vec(), b[..=common].to_vec()))
}

fn name(f: &[String]) -> String {
    if f.is_empty() {
        "crate".into()
    } else {
        f.join("/")
    }
}

/// A cycle of the graph, if there is one (depth-first search).
fn find_cycle(graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<Vec<String>>> {
    fn visit(
        n: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        state: &mut BTreeMap<Vec<String>, u8>,
        stack: &mut Vec<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        state.insert(n.clone(), 1);
        stack.push(n.clone());
        for m in graph.get(n).into_iter().flatten() {
            match state.get(m) {
                Some(1) => {
                    let at = stack.iter().position(|s| s == m).unwrap();
                    let mut cycle = stack[at..].to_vec();
                    cycle.push(m.clone());
                    return Some(cycle);
                }
                Some(_) => {}
                None => {
                    if let Some(c) = visit(m, graph, state, stack) {
                        return Some(c);
                    }
                }
            }
        }
        stack.pop();
        state.insert(n.clone(), 2);
        None
    }
    let mut state = BTreeMap::new();
    for n in graph.keys() {
        if !state.contains_key(n) {
            if let Some(c) = visit(n, graph, &mut state, &mut Vec::new()) {
                return Some(c);
            }
        }
    }
    None
}

fn lifted_graph(
    edges: &BTreeSet<(Vec<String>, Vec<String>)>,
) -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut graph: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = BTreeMap::new();
    for (a, b) in edges {
        if let Some((x, y)) = siblings(a, b) {
            graph.entry(x).or_default().insert(y);
        }
    }
    graph
}

#[test]
fn no_source_file_is_over_500_lines() {
    let long: Vec<String> = tree()
        .files
        .iter()
        .filter(|(_, text)| text.lines().count() > MAX_LINES)
        .map(|(p, text)| format!("{} ({} lines)", p.display(), text.lines().count()))
        .collect();
    assert!(long.is_empty(), "over {MAX_LINES} lines: {long:?}");
}

#[test]
fn no_module_is_declared_by_path() {
    let found: Vec<String> = tree()
        .files
        .iter()
        .filter(|(_, text)| text.lines().any(|l| l.trim_start().starts_with("#[path")))
        .map(|(p, _)| p.display().to_string())
        .collect();
    assert!(found.is_empty(), "#[path] modules in {found:?}: make them real module folders");
}

#[test]
fn no_import_cycle_between_folders() {
    let graph = lifted_graph(&tree().edges);
    if let Some(cycle) = find_cycle(&graph) {
        let names: Vec<String> = cycle.iter().map(|f| name(f)).collect();
        panic!("import cycle between folders: {}", names.join(" -> "));
    }
}

#[test]
fn the_engine_imports_no_layer_and_no_layer_imports_the_world() {
    let edges = tree().edges;
    for (from, to) in &edges {
        let (top_from, top_to) = (from.first().map(String::as_str), to.first().map(String::as_str));
        if top_from == Some("engine") {
            assert!(
                top_to.is_none_or(|t| ENGINE_MAY_USE.contains(&t)),
                "the engine imports {}",
                name(to)
            );
        }
        if top_from.is_some_and(|t| NOT_WORLD.contains(&t)) {
            assert_ne!(top_to, Some("world"), "{} imports the world", name(from));
        }
    }
}

#[test]
fn the_checks_see_a_cycle_and_a_long_file() {
    // The checker itself: a two-folder cycle and a nested one are found, a parent and its
    // child importing each other are not a cycle.
    let f = |s: &str| s.split('/').map(String::from).collect::<Vec<_>>();
    let cyclic = BTreeSet::from([(f("mac"), f("net")), (f("net/aodv"), f("mac/frame"))]);
    assert!(find_cycle(&lifted_graph(&cyclic)).is_some());
    let nested = BTreeSet::from([(f("net/aodv"), f("net/dsr")), (f("net/dsr/x"), f("net/aodv"))]);
    assert!(find_cycle(&lifted_graph(&nested)).is_some());
    let family = BTreeSet::from([(f("net"), f("net/aodv")), (f("net/aodv"), f("net"))]);
    assert!(find_cycle(&lifted_graph(&family)).is_none());
    let module = module_of(Path::new("net/aodv/ns2.rs"));
    assert_eq!(
        named_paths("use super::super::router::Router;", &module),
        vec![f("net/router/Router")]
    );
    assert_eq!(
        named_paths("use crate::{mac::frame::Frame, world};", &module),
        vec![f("mac/frame/Frame"), f("world")]
    );
    assert_eq!(named_paths("// crate::world::World", &module), Vec::<Vec<String>>::new());
    assert_eq!(named_paths("let s = \"crate::world\";", &module), Vec::<Vec<String>>::new());
}
