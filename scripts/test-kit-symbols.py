#!/usr/bin/env python3
"""The test kit's symbols as RxTest's, for swift-docc-plugin: Sources/RxTest/RxTest.docc/TestKit.symbols.json.

    scripts/test-kit-symbols.py FULL_GRAPH PLAIN_GRAPHS_DIR > TestKit.symbols.json

FULL_GRAPH is RxTest's symbol graph extracted with the modules it re-exports
(`-experimental-allowed-reexported-modules=RxTestCore`, as scripts/docs.sh does), whose
symbols include RxTestCore's as RxTest's own. PLAIN_GRAPHS_DIR holds RxTest's graphs
extracted without them, as the plugin extracts them. The output is the symbols and
relationships of the first that the second lacks, in a graph of the module RxTest that
DocC reads from the catalog beside the plugin's graphs: TestScheduler, Recorded and the
rest of the test kit get RxTest's pages. Written the same on every machine: no source
locations, file paths or doc-comment positions, no processor, sorted, one symbol a line.
"""
import json
import os
import sys


def main(full_path, plain_dir):
    with open(full_path) as f:
        full = json.load(f)
    plain = set()
    for name in os.listdir(plain_dir):
        if name.endswith(".symbols.json"):
            with open(os.path.join(plain_dir, name)) as f:
                plain.update(s["identifier"]["precise"] for s in json.load(f)["symbols"])

    symbols = []
    for symbol in full["symbols"]:
        if symbol["identifier"]["precise"] in plain:
            continue
        symbol = dict(symbol)
        symbol.pop("location", None)
        if "docComment" in symbol:
            comment = {k: v for k, v in symbol["docComment"].items() if k != "uri"}
            comment["lines"] = [{"text": line["text"]} for line in comment["lines"]]
            symbol["docComment"] = comment
        symbols.append(symbol)
    kept = {s["identifier"]["precise"] for s in symbols}
    relationships = [r for r in full["relationships"] if r["source"] in kept]

    symbols.sort(key=lambda s: s["identifier"]["precise"])
    relationships.sort(key=lambda r: (r["source"], r["target"], r["kind"]))
    def line(value):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    # One symbol or relationship a line, so that a change shows as the lines it changes.
    out = sys.stdout
    out.write('{"metadata":%s,\n' % line({"formatVersion": full["metadata"]["formatVersion"],
                                            "generator": "scripts/test-kit-symbols.py"}))
    # The operating system only: DocC merges graphs by it (and stops on a symbol it has
    # from a graph with a platform and one without); the processor does not matter.
    platform = {"operatingSystem": {"name": full["module"]["platform"]["operatingSystem"]["name"]}}
    out.write('"module":%s,\n' % line({"name": full["module"]["name"], "platform": platform}))
    out.write('"symbols":[\n' + ",\n".join(line(s) for s in symbols) + "\n],\n")
    out.write('"relationships":[\n' + ",\n".join(line(r) for r in relationships) + "\n]}\n")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
