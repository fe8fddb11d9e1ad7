"""python3 -m stpete_server.export --db DB TABLE: print a stored table's replay record (doc/format.md), read
from the database alone (not from a running server; DB as the server's --db: an SQLite file or a PostgreSQL URI,
opened read-only), e.g. to check it with stpete-replay:

    python3 -m stpete_server.export --db stpete-server.sqlite TABLE | build/examples/stpete-replay -

An expired table's record is read from the archive (Storage.expire). The record holds the seed: for an unfinished
game it reveals every stack (§9), so it is for the operator only. Exit status 1 if there is no such table.
"""
import argparse
import sys

import stpete

from .storage import open_storage


def replay_record(record) -> str:
    """The replay record (JSON text) of a stored table: options, seed and moves, every move checked by the
    library (stpete.replay_to_json)."""
    game = stpete.Game(players=len(record.seats), seed=record.seed, **record.options)
    return stpete.replay_to_json(game, record.seed, record.moves)


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m stpete_server.export", description=__doc__.split("\n\n")[0])
    p.add_argument("--db", required=True)
    p.add_argument("table")
    args = p.parse_args(argv)
    try:
        storage = open_storage(args.db, read_only=True)
    except FileNotFoundError as e:
        print(e, file=sys.stderr)
        return 1
    try:
        record = storage.table(args.table) or storage.archived(args.table)
        if record is None:
            print(f"no table {args.table!r} in {args.db}", file=sys.stderr)
            return 1
        sys.stdout.write(replay_record(record) + "\n")
        return 0
    finally:
        storage.close()


if __name__ == "__main__":
    sys.exit(main())
