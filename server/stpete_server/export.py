"""python3 -m stpete_server.export --db DB TABLE: print a finished table's replay record (doc/format.md), read
from the database alone (not from a running server, which may run meanwhile; DB as the server's --db: an SQLite
file or a PostgreSQL URI), e.g. to check it with stpete-replay:

    python3 -m stpete_server.export --db stpete-server.sqlite TABLE | build/examples/stpete-replay -

The database is opened read-only: a mistyped path is an error, never a new empty database. An expired table's
record is read from the archive (doc/server.md "Table lifecycle"). The record holds the
seed, which for an unfinished game reveals every stack (§9): such a table is refused (exit status 3), as
GET /api/tables/TABLE/replay refuses it (403), unless the operator asks for it with --unfinished.
Exit status 1 if there is no such table (or no such database), 2 for bad arguments.
"""
import argparse
import sys

import stpete

from .storage import DamagedTableError, open_storage


def replay_record(record) -> str:
    """The replay record (JSON text) of a stored table: options, seed and moves, every move checked by the
    library (stpete.replay_to_json)."""
    game = stpete.Game(players=len(record.seats), seed=record.seed, **record.options)
    return stpete.replay_to_json(game, record.seed, record.moves)


def is_over(record) -> bool:
    """Whether the stored table's game is over (its moves replayed by the library)."""
    game = stpete.Game(players=len(record.seats), seed=record.seed, **record.options)
    state = game.new_state()
    try:
        for action in record.moves:
            state.apply(action)
        return state.is_terminal
    finally:
        state.close()


def main(argv=None) -> int:
    p = argparse.ArgumentParser(prog="python3 -m stpete_server.export", description=__doc__.split("\n\n")[0])
    p.add_argument("--db", required=True,
                   help="the server's database, an SQLite file or a PostgreSQL URI (opened read-only)")
    p.add_argument("--unfinished", action="store_true",
                   help="also print the record of a game that is not over: its seed gives away every stack (§9); "
                        "for the operator, never for a player")
    p.add_argument("table")
    args = p.parse_args(argv)
    try:
        storage = open_storage(args.db, readonly=True)
    except Exception as e:  # no such file or database, not the server's, PostgreSQL not reached
        print(f"cannot read {args.db}: {e}", file=sys.stderr)
        return 1
    try:
        try:
            record = storage.table(args.table) or storage.archived(args.table)
        except DamagedTableError as e:
            print(f"{args.db}: {e}", file=sys.stderr)
            return 1
        if record is None:
            print(f"no table {args.table!r} in {args.db}", file=sys.stderr)
            return 1
        if not args.unfinished and not is_over(record):
            print(f"table {args.table}: the game is not over, and its record's seed would give away every stack "
                  f"(§9); --unfinished prints it anyway", file=sys.stderr)
            return 3
        sys.stdout.write(replay_record(record) + "\n")
        return 0
    finally:
        storage.close()


if __name__ == "__main__":
    sys.exit(main())
