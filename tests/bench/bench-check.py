"""stpete-bench plays stpete-selfplay's random games (issue 6): for the same seed and game count, both print the
same digest of every applied action and every final score. Also checks the bench's --json output and the
allocation-free claims (no heap allocation per game, a state of at most 1 KiB: issue 35; the New Society's position
of 144 cards and 5 seats fits). Never checks a speed: timing
belongs to the benchmark, not to tests. Prints TAP."""
import json
import re
import subprocess
import sys

bench, selfplay = sys.argv[1], sys.argv[2]
results = []


def check(name, ok):
    results.append((name, ok))


def run(*args):
    p = subprocess.run(list(args), capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout


for players, seed, games in ((2, 11, 300), (3, 5, 200), (4, 1, 200)):
    rc, summary = run(selfplay, "--players", str(players), "--seed", str(seed), "--games", str(games),
                      "--bots", "random")
    m = re.search(r"^digest: ([0-9a-f]{16})$", summary, re.M)
    check(f"{players} players: selfplay prints a digest", rc == 0 and m is not None)
    rc, out = run(bench, "--players", str(players), "--seed", str(seed), "--games", str(games),
                  "--iterations", "2000", "--json")
    try:
        data = json.loads(out)
        r = data["results"][0]
    except (ValueError, KeyError, IndexError):
        data, r = None, {}
    check(f"{players} players: bench --json is one JSON object", rc == 0 and data is not None)
    check(f"{players} players: bench played {games} games", r.get("players") == players and r.get("games") == games)
    check(f"{players} players: same digest as stpete-selfplay --bots random",
          m is not None and r.get("digest") == m.group(1))
    moves = re.search(r"^mean moves per game: (\d+\.\d)$", summary, re.M)
    check(f"{players} players: same mean moves per game",
          moves is not None and f"{r.get('actions_per_game', 0):.1f}" == moves.group(1))
    check(f"{players} players: no heap allocation per game", r.get("heap_allocations_per_game") == 0)
    check(f"{players} players: explicit-chance games played {games} games with chance nodes",
          r.get("explicit_chance_games") == games and
          r.get("explicit_chance_actions_per_game", 0) > r.get("actions_per_game", 0))
    check(f"{players} players: a state is at most 1 KiB", 0 < r.get("bytes_per_state", 0) <= 1024)
    for key in ("games_per_second", "applied_actions_per_second", "ns_per_legal_listing", "ns_per_listing_and_pick",
                "ns_per_clone", "ns_per_json_serialize", "ns_per_json_parse", "json_bytes_per_state",
                "ismcts_iterations_per_second", "ns_per_observation_tensor", "ns_per_information_state_key",
                "ns_per_undo_and_apply", "explicit_chance_games_per_second",
                "ns_per_copy", "ns_per_jansson_dump", "ns_per_jansson_load", "games_per_second_mask_pick",
                "games_per_second_listing_pick", "ns_per_action_in_games_mask_pick",
                "ns_per_action_in_games_listing_pick", "ns_per_mask_pick", "games_per_second_play",
                "ns_per_action_in_games_play"):
        check(f"{players} players: {key} measured", r.get(key, 0) > 0)
    # a difference of two timings (the replay with and without listings): at least present, never negative
    check(f"{players} players: ns_per_listing_at_game_positions reported",
          r.get("ns_per_listing_at_game_positions", -1) >= 0)

    check(f"{players} players: the games use the playout step by default", r.get("pick") == "play")

# A different seed gives different games (the digest depends on the games).
rc, a = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--iterations", "100", "--json")
rc2, b = run(bench, "--players", "2", "--seed", "12", "--games", "20", "--iterations", "100", "--json")
check("another seed, another digest", rc == 0 and rc2 == 0 and
      json.loads(a)["results"][0]["digest"] != json.loads(b)["results"][0]["digest"])
rc, text = run(bench, "--players", "3", "--games", "5", "--iterations", "100")
check("text output names every measure", rc == 0 and all(k in text for k in (
    "games/s", "actions/s", "legal-action listing", "clone", "copy into", "bytes per state",
    "heap allocations/game", "JSON", "listing at game positions", "jansson alone", "pick from the masks",
    "listing + pick", "mask pick", "playout step")))
# --games-only (for profilers): the same games, nothing else measured.
rc, a = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--games-only")
rc2, summary = run(selfplay, "--players", "2", "--seed", "11", "--games", "20", "--bots", "random")
m = re.search(r"^digest: ([0-9a-f]{16})$", summary, re.M)
g = re.fullmatch(r"2 players: 20 random games, \d+ actions, digest ([0-9a-f]{16})\n", a)
check("--games-only plays stpete-selfplay's games and prints only their digest",
      rc == 0 and rc2 == 0 and m is not None and g is not None and g.group(1) == m.group(1))
# --pick listing: the same games picked from the listing (stpete_state_legal_actions), the same digest.
rc, b = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--games-only", "--pick", "listing")
check("--pick listing plays the same games (same digest as the mask pick and stpete-selfplay)",
      rc == 0 and g is not None and b == a)
rc, out = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--iterations", "100", "--json", "--pick",
              "listing")
r = json.loads(out)["results"][0] if rc == 0 else {}
check("--pick listing --json: the first games from the listing, every way's rate measured",
      r.get("pick") == "listing" and r.get("games_per_second_mask_pick", 0) > 0 and
      r.get("games_per_second_play", 0) > 0 and
      r.get("games_per_second_listing_pick", 0) > 0 and m is not None and r.get("digest") == m.group(1))
# --pick mask: the same games picked by stpete_state_random_action, then applied.
rc, b = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--games-only", "--pick", "mask")
check("--pick mask plays the same games (same digest as the playout step and stpete-selfplay)",
      rc == 0 and g is not None and b == a)
# --warm-up: the same games played once untimed, then timed; same digest (the bench compares both runs' digests).
rc, b = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--games-only", "--warm-up")
check("--warm-up times the same games after an untimed run of them (same digest)", rc == 0 and g is not None and b == a)
rc, out = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--games-only", "--warm-up", "--json")
w = json.loads(out) if rc == 0 else {}
check("--warm-up --json says so, with the same digest", w.get("warm_up") is True and m is not None and
      w["results"][0]["digest"] == m.group(1) and w["results"][0]["games"] == 20)
rc, out = run(bench, "--players", "2", "--seed", "11", "--games", "20", "--games-only", "--json")
check("without --warm-up, --json says warm_up false", rc == 0 and json.loads(out).get("warm_up") is False)
rc, _ = run(bench, "--pick", "sometimes")
check("bad --pick refused", rc == 2)
rc, _ = run(bench, "--players", "5")
check("bad --players refused", rc == 2)
rc, _ = run(bench, "--edition", "3")
check("bad --edition refused", rc == 2)
# The second-edition preset (§11): the bench plays stpete-selfplay --edition 2's random games.
rc, summary = run(selfplay, "--players", "4", "--edition", "2", "--seed", "3", "--games", "30", "--bots", "random")
m = re.search(r"^digest: ([0-9a-f]{16})$", summary, re.M)
rc2, out = run(bench, "--players", "4", "--edition", "2", "--seed", "3", "--games", "30", "--iterations", "100",
               "--json")
ed2 = json.loads(out) if rc2 == 0 else {}
check("--edition 2: same digest as stpete-selfplay --edition 2 --bots random", rc == 0 and m is not None and
      ed2.get("edition") == 2 and ed2["results"][0]["digest"] == m.group(1))
rc, first = run(selfplay, "--players", "4", "--seed", "3", "--games", "30", "--bots", "random")
check("--edition 2 plays other games than the first edition", rc == 0 and m is not None and
      m.group(1) not in first)
rc, _ = run(bench, "--seconds", "0")
check("bad --seconds refused", rc == 2)

print(f"1..{len(results)}")
for i, (name, ok) in enumerate(results, 1):
    print(f"{'ok' if ok else 'not ok'} {i} - {name}")
sys.exit(0 if all(ok for _, ok in results) else 1)
