"""The README's C example must be examples/minimal.c verbatim, so the documented code is the compiled code."""
import sys

readme, example = sys.argv[1], sys.argv[2]
text = open(readme, encoding="utf-8").read()
start = text.index("```c\n") + len("```c\n")
block = text[start:text.index("```\n", start)]
code = open(example, encoding="utf-8").read()
if block != code:
    print("not ok - README.md's C example differs from examples/minimal.c")
    sys.exit(1)
print("ok - README.md shows examples/minimal.c verbatim")
