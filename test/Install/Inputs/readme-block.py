#!/usr/bin/env python3
"""Prints the first ```LANG block of a Markdown section, as written:
test/Install/out-of-tree.test builds README.md's consumer from it.
  readme-block.py FILE.md "HEADING" LANG
The section runs from the heading to the next heading outside code blocks.
"""
import sys


def main():
    path, heading, lang = sys.argv[1:4]
    in_section = in_fence = False
    block = None
    for line in open(path):
        stripped = line.strip()
        if stripped.startswith("```"):
            if block is not None and in_fence:
                sys.stdout.write("".join(block))
                return
            if in_section and not in_fence and stripped == "```" + lang:
                block = []
            in_fence = not in_fence
            continue
        if in_fence:
            if block is not None:
                block.append(line)
            continue
        if line.startswith("#"):
            if in_section:
                break
            in_section = line.lstrip("#").strip() == heading
    sys.exit("%s: no ```%s block under '%s'" % (path, lang, heading))


if __name__ == "__main__":
    main()
