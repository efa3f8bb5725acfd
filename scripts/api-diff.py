#!/usr/bin/env python3
"""Compare Rivulet's public API with RxSwift's, from SwiftPM symbol graphs.

  api-diff.py list  GRAPHS                          Rivulet's public API, one declaration a line
  api-diff.py diff  BASELINE GRAPHS [--allow FILE]  what the baseline declares that the graphs lack

GRAPHS is the folder `swift package dump-symbol-graph --minimum-access-level public` writes.
A line of a baseline is `KEY<TAB>DECLARATION`; KEY is the symbol's path (Type.member(labels:))
followed by ` where ` and its generic constraints, sorted.

A baseline declaration is present when Rivulet has a symbol with the same path and the same
constraints once both are put in a canonical form:
  - the function's own generic parameters are renamed T1, T2, ... in the order they first
    appear in its declaration, so `<O1, O2>` and `<I1, I2>` agree;
  - a `some P` parameter counts as a generic parameter with the constraint `Tn: P`;
  - defaulted source-location parameters (`file:`, `fileID:`, `filePath:`, `line:`,
    `column:`) and `Self.` prefixes do not count;
  - `==`, `!=` and `hash(into:)` that the compiler synthesises count as present for a type
    that conforms to Equatable or Hashable.
A declaration whose path Rivulet lacks is "missing"; one whose path it has with other
constraints is "differs". Lines of the allow-list (`KEY<TAB>reason`) are reported apart
and do not fail the check. Exit status: 0 when nothing is missing or differs, 1 otherwise.
"""
import glob
import json
import os
import re
import sys

MODULES = {"RxSwift", "RxRelay", "RxTest", "RxTestCore", "RxBlocking", "RxCocoa"}
SOURCE_LOCATION = re.compile(r"\b(file|fileID|filePath|line|column):")
GENERIC_LIST = re.compile(r"\b(?:func\s+[^\s(<]+|init[?!]?|subscript)\s*<([^<>]*)>")
OPAQUE = re.compile(r"\bsome\s+([A-Za-z_][\w.]*)")


def path_of(components):
    return ".".join(SOURCE_LOCATION.sub("", part) for part in components)


def constraint_text(constraints):
    out = set()
    for c in constraints:
        lhs, rhs = c["lhs"].replace("Self.", ""), c["rhs"].replace("Self.", "")
        op = {"conformance": ":", "sameType": "==", "superclass": ":"}.get(c["kind"], "?")
        if op == ":" and lhs.startswith("some "):
            continue
        out.add(f"{lhs}{op}{rhs}")
    return sorted(out)


def split_key(key):
    path, _, constraints = key.partition(" where ")
    return path, [c for c in constraints.split(", ") if c]


def canonical(key, declaration):
    """The key with the function's generic parameters renamed by position."""
    path, constraints = split_key(key)
    match = GENERIC_LIST.search(declaration)
    names = [n.strip().split(":")[0].strip() for n in match.group(1).split(",")] if match else []
    names = [n for n in names if n]
    body = declaration[match.end():] if match else declaration
    positions = []
    for name in names:
        found = re.search(r"\b%s\b" % re.escape(name), body)
        positions.append((found.start() if found else len(body), "name", name))
    for found in OPAQUE.finditer(body):
        positions.append((found.start(), "some", found.group(1)))
    positions.sort(key=lambda p: p[0])
    renamed, extra = {}, []
    for index, (_, kind, what) in enumerate(positions, start=1):
        if kind == "name":
            renamed[what] = f"T{index}"
        else:
            extra.append(f"T{index}:{what}")
    def rename(text):
        return re.sub(r"\b[A-Za-z_]\w*\b", lambda m: renamed.get(m.group(0), m.group(0)), text)
    result = sorted({rename(c) for c in constraints} | set(extra))
    return path + (" where " + ", ".join(result) if result else "")


def read_graphs(folder):
    """Rivulet's declarations: {key: declaration}, the canonical keys and the synthesised members."""
    found, canon, ids, conforms = {}, set(), {}, {}
    for file in sorted(glob.glob(os.path.join(folder, "*.symbols.json"))):
        module = os.path.basename(file).split("@")[0].split(".")[0]
        if module not in MODULES:
            continue
        graph = json.load(open(file))
        for symbol in graph["symbols"]:
            ids[symbol["identifier"]["precise"]] = ".".join(symbol["pathComponents"])
        for relation in graph.get("relationships", []):
            if relation["kind"] == "conformsTo" and relation["target"] in ("s:SQ", "s:SH"):
                conforms.setdefault(relation["source"], set()).add(relation["target"])
        for symbol in graph["symbols"]:
            if symbol.get("accessLevel") not in ("public", "open"):
                continue
            components = symbol["pathComponents"]
            if any(part.startswith("_") for part in components):
                continue
            extension = symbol.get("swiftExtension") or {}
            generics = symbol.get("swiftGenerics") or {}
            constraints = constraint_text(extension.get("constraints", []) + generics.get("constraints", []))
            key = path_of(components) + (" where " + ", ".join(constraints) if constraints else "")
            declaration = "".join(f.get("spelling", "") for f in symbol.get("declarationFragments", [])).replace("\n", " ")
            found.setdefault(key, declaration)
            canon.add(canonical(key, declaration))
    synthesised = set()
    for source, protocols in conforms.items():
        name = ids.get(source)
        if name:
            synthesised |= {name + ".==(_:_:)", name + ".!=(_:_:)"}
            if "s:SH" in protocols:
                synthesised.add(name + ".hash(into:)")
    return found, canon, synthesised


def read_lines(path):
    lines = {}
    for line in open(path):
        if line.strip() and not line.startswith("#"):
            key, _, rest = line.rstrip("\n").partition("\t")
            lines[key] = rest
    return lines


def main(argv):
    if len(argv) == 3 and argv[1] == "list":
        found, _, _ = read_graphs(argv[2])
        for key in sorted(found):
            print(f"{key}\t{found[key]}")
        return 0
    if len(argv) in (4, 6) and argv[1] == "diff" and (len(argv) == 4 or argv[4] == "--allow"):
        baseline = read_lines(argv[2])
        allowed = read_lines(argv[5]) if len(argv) == 6 else {}
        found, canon, synthesised = read_graphs(argv[3])
        paths = {split_key(k)[0] for k in found} | synthesised
        missing, differs, allowed_hits = [], [], []
        for key, declaration in sorted(baseline.items()):
            path = split_key(key)[0]
            if key in found or path in synthesised or canonical(key, declaration) in canon:
                continue
            if key in allowed:
                allowed_hits.append((key, allowed[key]))
            elif path in paths:
                differs.append((key, declaration))
            else:
                missing.append((key, declaration))
        for key, declaration in missing:
            print(f"missing: {declaration}    [{key}]")
        for key, declaration in differs:
            print(f"differs: {declaration}    [{key}]")
        for key, reason in allowed_hits:
            print(f"allowed: [{key}] {reason}")
        print(f"{os.path.basename(argv[2])}: {len(baseline)} declarations; {len(missing)} missing by name, "
              f"{len(differs)} with other constraints, {len(allowed_hits)} on the allow-list")
        return 1 if missing or differs else 0
    print(__doc__)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))
