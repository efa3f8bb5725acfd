#!/usr/bin/env python3
"""Puts code in the marked place of a test written by `rxmarbles lanes --test`.

Reads the test on standard input and writes it to standard output with the line after
the marker comment (the placeholder `return Observable<...>.never()`) replaced by the
lines of the file named by the first argument, indented as the placeholder was.
Fails when the test has no marker, or more than one.
"""
import sys

MARKER = "// The pipeline under test: replace the next line"

def main() -> int:
    code = open(sys.argv[1], encoding="utf-8").read().rstrip("\n").split("\n")
    lines = sys.stdin.read().split("\n")
    marks = [i for i, line in enumerate(lines) if MARKER in line]
    if len(marks) != 1 or marks[0] + 1 >= len(lines):
        sys.stderr.write(f"fill-pipeline: expected one marker line followed by the placeholder, found {len(marks)}\n")
        return 1
    placeholder = lines[marks[0] + 1]
    indent = placeholder[: len(placeholder) - len(placeholder.lstrip())]
    lines[marks[0] + 1 : marks[0] + 2] = [indent + line if line else line for line in code]
    sys.stdout.write("\n".join(lines))
    return 0

if __name__ == "__main__":
    sys.exit(main())
