#!/usr/bin/env python3
"""Write the Python binding's reference as HTML with pydoc (standard library): one page per module of the package
`stpete`, linked from the reference manual's main page (doc/mainpage.md).

    pydoc-html.py PACKAGE_PARENT OUTPUT_DIR

PACKAGE_PARENT is the directory holding `stpete/` (bindings/python); the shared library is found as the binding
always finds it (STPETE_LIBRARY, set by meson to the build's library). Source files are named relative to
PACKAGE_PARENT, so no page carries the build machine's paths.
"""
import ast
import html
import importlib
import os
import pkgutil
import pydoc
import sys


class HTMLDoc(pydoc.HTMLDoc):
    """pydoc's HTML, with source files named by their path inside the package instead of an absolute file: link."""

    def __init__(self, root):
        super().__init__()
        self.root = root

    def filelink(self, url, path):
        return os.path.relpath(path, self.root).replace(os.sep, "/")


def docstring_page(doc, parent, name, missing):
    """The page of a module whose optional dependency ``missing`` does not import here: its docstring, read from
    the source without importing it."""
    path = os.path.join(parent, *name.split(".")) + ".py"
    with open(path, encoding="utf-8") as f:
        text = ast.get_docstring(ast.parse(f.read())) or ""
    body = (f"<h1>{html.escape(name)}</h1><p><em>This module needs <code>{html.escape(missing)}</code>, which was not "
            f"installed where this page was written: only its description is shown.</em></p>"
            f"<pre>{html.escape(text)}</pre>")
    return doc.page(f"Python: module {name}", body)


def main():
    parent, out = sys.argv[1], sys.argv[2]
    parent = os.path.abspath(parent)
    sys.path.insert(0, parent)
    os.makedirs(out, exist_ok=True)
    import stpete
    names = ["stpete"] + ["stpete." + m.name for m in pkgutil.iter_modules(stpete.__path__)]
    doc = HTMLDoc(parent)
    for name in names:
        try:
            module = importlib.import_module(name)  # not pydoc.locate: stpete.env is also a function's name
            page = doc.page(pydoc.describe(module), doc.document(module, name))
        except ModuleNotFoundError as e:  # stpete.pettingzoo needs PettingZoo, Gymnasium and NumPy
            if e.name is None or e.name.split(".")[0] == "stpete":
                raise
            page = docstring_page(doc, parent, name, e.name)
        for bad in (parent, os.path.dirname(parent)):
            if bad in page:
                raise SystemExit(f"pydoc-html: {name}'s page names the build machine's path {bad}")
        with open(os.path.join(out, name + ".html"), "w", encoding="utf-8") as f:
            f.write(page)
    print(f"pydoc-html: {len(names)} pages in {out}")


if __name__ == "__main__":
    main()
