"""Shared helpers of the binding's tests: paths given by meson (tests run from `meson test`), falling back to the
source tree's build/ when run by hand."""
import ctypes
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE_ROOT = os.environ.get("STPETE_SOURCE_ROOT") or os.path.abspath(os.path.join(HERE, "..", "..", ".."))
PACKAGE_PARENT = os.path.abspath(os.path.join(HERE, ".."))
BUILD = os.path.join(SOURCE_ROOT, "build")
LIBRARY = os.environ.get("STPETE_LIBRARY") or os.path.join(BUILD, "libstpete.so.1")
MINIMAL = os.environ.get("STPETE_MINIMAL") or os.path.join(BUILD, "examples", "stpete-minimal")
SELFPLAY = os.environ.get("STPETE_SELFPLAY") or os.path.join(BUILD, "examples", "stpete-selfplay")
#: The environment for the C example programs: without the sanitizer runtime that meson preloads into the
#: interpreter in sanitizer builds (the programs bring their own; clang's is static and refuses a second one).
C_PROGRAM_ENV = {k: v for k, v in os.environ.items() if k != "LD_PRELOAD"}
#: Seconds each soak loop of the tests runs (threads hammering one state, a bot evaluating while another thread
#: closes its state): STPETE_SOAK_SECONDS, by default 0.3 (the quick suite, `python`); the test `python-soak` of
#: the suite `slow` (bindings/python/meson.build) runs the same loops for longer.
SOAK_SECONDS = float(os.environ.get("STPETE_SOAK_SECONDS") or 0.3)


def splitmix64(x):
    """The next value and state of stpete-selfplay's bot PRNG (examples/stpete-selfplay.c, next_random)."""
    x = (x + 0x9E3779B97F4A7C15) & 0xFFFFFFFFFFFFFFFF
    z = x
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ (z >> 31), x


def play_random(state, seed, limit=10000):
    """Play to the end with uniformly random legal actions from a seeded PRNG; return the ids applied."""
    import random
    rng = random.Random(seed)
    ids = []
    while not state.is_terminal and len(ids) < limit:
        legal = state.legal_action_ids()
        a = legal[rng.randrange(len(legal))]
        state.apply(a)
        ids.append(a)
    return ids


class Options11(ctypes.Structure):
    """``stpete_options`` as a program built against libstpete 1.1 lays it out (the binding itself reaches options
    only by name, through the table of options): for the tests of struct sizes and members."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("players", ctypes.c_int), ("seed", ctypes.c_uint64),
                ("pub_cap", ctypes.c_int), ("tie_break", ctypes.c_int), ("start_markers", ctypes.c_int * 4),
                ("public_rubles", ctypes.c_int), ("public_hands", ctypes.c_int),
                ("allocator", ctypes.c_void_p * 4), ("chance_mode", ctypes.c_int), ("edition", ctypes.c_int),
                ("new_society", ctypes.c_int), ("markers_one_seat", ctypes.c_int),
                ("used_prison_scores", ctypes.c_int), ("textile_without_new_society", ctypes.c_int)]


def options_pointer(opts):
    """A test's Options11 as the binding's (opaque) ``stpete_options *``."""
    from stpete import _ffi
    return ctypes.cast(ctypes.pointer(opts), ctypes.POINTER(_ffi.OptionsStruct))
