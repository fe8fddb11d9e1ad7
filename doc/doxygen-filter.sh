#!/bin/sh
# Doxygen input filter for doc/rules.md (doc/Doxyfile.in FILTER_PATTERNS): the rules spec is copied verbatim from
# the authoritative one (tests/checks/check-spec-sync.py), and its text may hold an "@" before a word (a commit such as
# `file.php`@bbf9cf1) that Doxygen would read as a command. Escape every such "@" for Doxygen only.
exec sed 's/@\([A-Za-z0-9_]\)/\\@\1/g' "$1"
