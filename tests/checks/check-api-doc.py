#!/usr/bin/env python3
"""doc/api.md and the reference manual's main page cover the whole game the library plays (issue 45 item 10), TAP.

    check-api-doc.py SOURCE_ROOT

- doc/api.md's table "Rule options" has a row for every member of stpete_options in stpete.h (struct_size aside),
  so an option added to the struct without its row fails (1.1.2 lacked the New Society's four);
- its `players` row names every player count from STPETE_MIN_PLAYERS to STPETE_MAX_PLAYERS, and the page says
  where the expansion is documented (doc/expansion.md);
- doc/mainpage.md (the Doxygen main page) names the player counts 2–STPETE_MAX_PLAYERS, the New Society (§12) and
  each of its options as stpete_options::NAME, and doc/expansion.md;
- doc/meson.build installs doc/api.md with the other documents (the install test compares the installed copy).
"""
import os
import re
import sys

root = sys.argv[1]
n = failed = 0


def check(cond, name, detail=""):
    global n, failed
    n += 1
    print(("ok" if cond else "not ok") + f" {n} - {name}")
    if not cond:
        failed += 1
        for line in str(detail).splitlines()[:30]:
            print("#   " + line)


def read(*path):
    with open(os.path.join(root, *path), encoding="utf-8") as f:
        return f.read()


header = read("include", "stpete", "stpete.h")
body = re.search(r"typedef struct stpete_options \{(.*?)\} stpete_options;", header, re.S).group(1)
body = re.sub(r"/\*.*?\*/", "", body, flags=re.S)
members = [m for m in re.findall(r"\b(\w+)\s*(?:\[[^\]]*\])?\s*;", body) if m != "struct_size"]
check(len(members) >= 13, f"stpete_options has {len(members)} members besides struct_size", members)
first, last = (int(re.search(rf"#define STPETE_{w}_PLAYERS (\d+)", header).group(1)) for w in ("MIN", "MAX"))

api = read("doc", "api.md")
table = re.search(r"^## Rule options\n(.*?)(?=^## |\Z)", api, re.S | re.M)
rows = dict(re.findall(r"^\| `(\w+)(?:\[\d+\])?` \|(.*)$", table.group(1) if table else "", re.M))
missing = [m for m in members if m not in rows]
check(table and not missing, "doc/api.md's Rule options table has a row for every member of stpete_options",
      f"no row for: {missing}")
players = rows.get("players", "")
counts = [k for k in range(first, last + 1) if not re.search(rf"\b{k}\b", players)]
check(players and not counts, f"doc/api.md's players row names every count {first}..{last}",
      f"row: {players!r}; not named: {counts}")
check("(expansion.md)" in api, "doc/api.md links doc/expansion.md")

main = re.sub(r"\s+", " ", read("doc", "mainpage.md"))
ns_options = [m for m in members[members.index("new_society"):]] if "new_society" in members else []
unnamed = [m for m in ns_options if f"stpete_options::{m}" not in main]
check(ns_options and not unnamed, "the main page names the New Society's options (stpete_options::NAME)", unnamed)
check(re.search(rf"New Society\*?\*? expansion with {first}–{last} players", main) and "§12" in main and
      "doc/expansion.md" in main, f"the main page says the New Society is played with {first}–{last} players (§12) "
      "and where it is documented", main[:600])

meson = re.sub(r"\s+", " ", read("doc", "meson.build"))
installed = re.search(r"install_data\(([^)]*'rules\.md'[^)]*)\)", meson)
check(installed and "'api.md'" in installed.group(1), "doc/meson.build installs doc/api.md with rules.md",
      installed.group(0) if installed else "no install_data with rules.md")
print(f"1..{n}")
sys.exit(1 if failed else 0)
