#!/usr/bin/env python3
"""Instructions (Ir) of a callgrind output file summed per shared object, one
"object<TAB>instructions" line each, largest first. Self costs only: the cost line that follows
a calls= line is the callee's inclusive cost and is skipped, so every instruction counts once."""
import collections
import re
import sys

OBJECT = re.compile(r"c?ob=\((\d+)\)(?: (.*))?")


def instructions_by_object(path):
    names = {}
    current = None
    after_call = False
    totals = collections.Counter()
    with open(path, errors="replace") as lines:
        for line in lines:
            if line.startswith(("ob=", "cob=")):
                match = OBJECT.match(line.strip())
                if match.group(2):
                    names[match.group(1)] = match.group(2).rsplit("/", 1)[-1]
                if line.startswith("ob="):
                    current = names[match.group(1)]
            elif line.startswith("calls="):
                after_call = True
            elif line[:1].isdigit() or line[:1] in "+-*":
                if after_call:
                    after_call = False
                    continue
                fields = line.split()
                if len(fields) >= 2:
                    totals[current] += int(fields[1])
    return totals


if __name__ == "__main__":
    for name, count in instructions_by_object(sys.argv[1]).most_common():
        print(f"{name}\t{count}")
