"""A Python-driven game equals a C-driven game from the same seed and actions: examples/minimal.c (stpete-minimal)
and stpete-selfplay's random bot (examples/stpete-selfplay.c), replayed through the binding."""
import os
import re
import subprocess
import tempfile
import unittest

import stpete
from support import C_PROGRAM_ENV, MINIMAL, SELFPLAY, splitmix64

SOURCE_NAMES = ["upper row", "lower row", "hand", "Observatory draw"]
PHASE_NAMES = ["worker", "building", "aristocrat", "trading"]


@unittest.skipUnless(os.path.exists(MINIMAL), "stpete-minimal not built")
class MinimalExample(unittest.TestCase):
    def test_same_output_as_c(self):
        c_out = subprocess.run([MINIMAL], capture_output=True, text=True, check=True, timeout=60,
                               env=C_PROGRAM_ENV).stdout
        lines = []
        game = stpete.Game(players=3, seed=42)   # as examples/minimal.c
        state = game.new_state()
        while not state.is_terminal:
            action = state.legal_actions()[-1]
            lines.append(f"seat {state.current_player}: {action}")
            state.apply(action)
        mask = sum(1 << s for s in state.winners)
        lines.append(f"winners: {mask:#x}")
        self.assertEqual("\n".join(lines) + "\n", c_out)


@unittest.skipUnless(os.path.exists(SELFPLAY), "stpete-selfplay not built")
class SelfplayRandomBot(unittest.TestCase):
    """stpete-selfplay --bots random chooses ids[splitmix64(seed ^ 0xB0751E5) % n]; the binding replays the same
    choices and renders the same log lines from its events."""

    def python_log(self, players, seed):
        game = stpete.Game(players=players, seed=seed)
        state = game.new_state()
        lines = []

        def on_event(st, ev):
            K = stpete.EventKind
            if ev.kind in (K.BUY, K.PLAY):
                line = (f"seat {ev.seat} {'buys' if ev.kind == K.BUY else 'plays'} {ev.card} from the "
                        f"{SOURCE_NAMES[ev.source]}")
                if ev.displaced is not None:
                    line += f", displacing {ev.displaced}"
                lines.append(line + f", for {ev.price} R ({st.rubles(ev.seat)} R left)")
            elif ev.kind == K.TAKE:
                lines.append(f"seat {ev.seat} takes {ev.card} from the {SOURCE_NAMES[ev.source]} into hand")
            elif ev.kind == K.PASS:
                lines.append(f"seat {ev.seat} passes ({ev.amount} in a row)")
            elif ev.kind == K.SCORING:
                lines.append(f"{PHASE_NAMES[ev.phase]} scoring: seat {ev.seat} gets {ev.rubles:+d} R and "
                             f"{ev.vp:+d} VP (now {st.rubles(ev.seat)} R, {st.vp(ev.seat)} VP)")
            elif ev.kind == K.PUB:
                lines.append(f"Pub: seat {ev.seat} buys {ev.amount} VP for {ev.rubles} R")
            elif ev.kind == K.FINAL_SCORING:
                s = st.score(ev.seat)
                self.assertEqual(ev.vp, s.total)
                lines.append(f"final scoring, seat {ev.seat}: {s.vp_before} VP + {s.aristocrat_bonus} (aristocrats: "
                             f"{s.aristocrat_kinds} different) + {s.rubles_bonus} ({s.rubles} R) {s.hand_penalty:+d} "
                             f"({s.hand_cards} hand card{'' if s.hand_cards == 1 else 's'}) = {s.total} VP, "
                             f"tie-break {s.tie_break}")
            elif ev.kind == K.GAME_OVER:
                won = [f" seat {w}" for w in range(players) if ev.amount >> w & 1]
                lines.append(f"winner{'s (shared)' if len(won) > 1 else ''}:{''.join(won)}")

        state.set_event_callback(on_event)
        state.reset(seed)  # as play_game() in stpete-selfplay.c
        rng = seed ^ 0xB0751E5
        while not state.is_terminal:
            ids = state.legal_action_ids()
            r, rng = splitmix64(rng)
            state.apply(ids[r % len(ids)])
        return lines, state

    def test_same_games_as_c(self):
        pattern = re.compile(r"^(seat \d (buys|plays|takes|passes)|\w+ scoring:|Pub:|final scoring|winners?)")
        for players, seed in ((2, 1), (3, 17), (4, 5), (4, 123456789)):
            with self.subTest(players=players, seed=seed):
                out = subprocess.run([SELFPLAY, "--players", str(players), "--seed", str(seed), "--bots", "random"],
                                     capture_output=True, text=True, check=True, timeout=60,
                                     env=C_PROGRAM_ENV).stdout
                c_lines = [line for line in out.splitlines() if pattern.match(line)]
                py_lines, state = self.python_log(players, seed)
                self.assertGreater(len(c_lines), 100)
                self.assertEqual(py_lines, c_lines)
                self.assertEqual(len([l for l in c_lines if l.startswith("final scoring")]), players)

    def test_c_replay_record_equals_python_game(self):
        # stpete-selfplay --record: the C-driven game's replay record (JSON) holds exactly the actions the binding
        # chose, and replaying it in Python reaches the same final position and scores
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "game.json")
            subprocess.run([SELFPLAY, "--players", "4", "--seed", "31", "--bots", "random", "--quiet", "--record",
                            path], capture_output=True, text=True, check=True, timeout=60, env=C_PROGRAM_ENV)
            text = open(path, encoding="utf-8").read()
        _, python_state = self.python_log(4, 31)
        game, actions = stpete.replay_from_json(text)
        self.assertEqual(actions, list(python_state.history))
        replayed = stpete.State.from_replay(text)
        self.assertEqual(replayed.to_json(), python_state.to_json())
        self.assertEqual(replayed.final_scores, python_state.final_scores)
        self.assertEqual(stpete.replay_to_json(game, 31, actions), python_state.replay_to_json())


if __name__ == "__main__":
    unittest.main()
