#!/usr/bin/env python3
"""The reference manual (issue 14), TAP output: Doxygen builds it without a warning (doc/Doxyfile.in has
WARN_AS_ERROR), then the HTML is checked:
- every @defgroup of the public headers has its own page, and the main page links each of them;
- no page's file name or <title> carries a path of the build machine (the source or build directory), and no page
  of the Python reference does anywhere;
- the rules and JSON format pages exist under their stable names and the main page links them;
- the main page links the Python binding's reference (../python/stpete.html), which exists when it was built;
- every function of every public header is documented in a group's page (issue 26: bots.h had none);
- the main page names the man page of every program doc/man/ has one for (issue 26: stpete-arena was missing).

    check-docs-html.py DOXYGEN DOXYFILE HTML_DIR SOURCE_ROOT BUILD_ROOT HEADER_DIR

Every header of HEADER_DIR counts: a new public header whose groups are not in the reference (doc/Doxyfile.in's
INPUT) fails.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

doxygen, doxyfile, html, src, build, header_dir = sys.argv[1:7]
headers = sorted(glob.glob(os.path.join(header_dir, "*.h")))
n = 0
failed = 0


def check(cond, name, detail=""):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + f" {n} - {name}")
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print("#   " + line)


# Doxygen writes into a fresh directory (the configuration read from standard input with OUTPUT_DIRECTORY
# replaced): pages left over from an older configuration in the build tree do not count.
with open(doxyfile, encoding="utf-8") as f:
    config = f.read()
fresh = tempfile.mkdtemp(prefix="stpete-docs-")
try:
    run = subprocess.run([doxygen, "-"], input=config + f"\nOUTPUT_DIRECTORY = {fresh}\n", capture_output=True,
                         text=True)
    check(run.returncode == 0 and not run.stderr.strip(), "Doxygen builds the reference without a warning",
          run.stdout + run.stderr)
    built_html = os.path.join(fresh, "html")
    python = os.path.join(os.path.dirname(os.path.normpath(html)), "python")
    html = built_html

    groups = []
    for h in headers:
        with open(h, encoding="utf-8") as f:
            groups += re.findall(r"@defgroup\s+(\w+)", f.read())
    check(groups, "the public headers define groups", headers)
    with open(os.path.join(html, "index.html"), encoding="utf-8") as f:
        index = f.read()
    missing_pages = [g for g in groups
                     if not os.path.exists(os.path.join(html, "group__%s.html" % g.replace("_", "__")))]
    check(not missing_pages, f"each of the {len(groups)} groups has its own page", missing_pages)
    unlinked = [g for g in groups if 'href="group__%s.html"' % g.replace("_", "__") not in index]
    check(not unlinked, "the main page links every group's page", unlinked)

    grouped = ""
    for page in glob.glob(os.path.join(html, "group__*.html")):
        with open(page, encoding="utf-8") as f:
            grouped += f.read()
    functions = []
    for h in headers:
        with open(h, encoding="utf-8") as f:
            functions += re.findall(r"STPETE_API[^;(]*?\b(stpete_\w+)\s*\(", f.read())
    ungrouped = [fn for fn in functions if not re.search(rf"\b{fn}\b", grouped)]
    check(functions and not ungrouped, f"each of the {len(functions)} public functions is in a group's page",
          ungrouped)
    with open(os.path.join(src, "doc", "mainpage.md"), encoding="utf-8") as f:
        mainpage = re.sub(r"\s+", " ", f.read())
    programs = sorted(os.path.basename(p)[:-len(".h2m")] for p in glob.glob(os.path.join(src, "doc", "man", "*.h2m")))
    m = re.search(r"The programs have manual pages: (.*?)\.", mainpage)
    unnamed = [p for p in programs if not m or not re.search(rf"`(man )?{p}`", m.group(1))]
    check(programs and not unnamed, "the main page names every program's man page", unnamed)

    roots = {os.path.realpath(src), os.path.realpath(build), src.rstrip("/"), build.rstrip("/")}


    def squash(text):
        """Letters and digits only: Doxygen writes /work/my-tree/doc as _work_my_tree_doc in a file name."""
        return re.sub(r"[^a-z0-9]+", "", text.lower())


    bad_names, bad_titles = [], []
    for path in glob.glob(os.path.join(html, "**", "*"), recursive=True):
        rel = os.path.relpath(path, html)
        if any(squash(r) in squash(rel) for r in roots):
            bad_names.append(rel)
        if path.endswith(".html"):
            with open(path, encoding="utf-8", errors="replace") as f:
                m = re.search(r"<title>(.*?)</title>", f.read(), re.S)
            if m and any(r in m.group(1) for r in roots):
                bad_titles.append(f"{rel}: {m.group(1)}")
    check(not bad_names, "no page address carries the source or build directory", bad_names)
    check(not bad_titles, "no page title carries the source or build directory", bad_titles)

    for page, what in (("md_doc_rules.html", "the rules specification"), ("md_doc_format.html", "the JSON formats")):
        check(os.path.exists(os.path.join(html, page)) and f'href="{page}"' in index,
              f"{what} has the page {page}, linked from the main page")

    check('href="../python/stpete.html"' in index, "the main page links the Python binding's reference")
    if os.path.isdir(python):
        leaks = []
        for path in glob.glob(os.path.join(python, "*.html")):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            leaks += [f"{os.path.basename(path)}: {r}" for r in roots if r in text]
        check(os.path.exists(os.path.join(python, "stpete.html")) and not leaks,
              "the Python reference (pydoc) is there and names no build machine path", leaks)
    else:
        print(f"ok {n + 1} - the Python reference # SKIP not built (no Python, or a sanitized library)")
        n += 1
finally:
    shutil.rmtree(fresh, ignore_errors=True)
print(f"1..{n}")
sys.exit(1 if failed else 0)
