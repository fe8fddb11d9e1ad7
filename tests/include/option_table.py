"""The library's table of options read through ctypes (stpete_option_count(), stpete_option_get_info()), for the
test scripts that check the surfaces against it (tests/checks/check-option-words.py,
tests/options/options-surfaces.py). Standard library only."""
import ctypes

TYPES = ("bool", "int", "enum", "seed", "seats")
CATEGORIES = ("rules", "information", "play")


class Info(ctypes.Structure):
    """stpete_option_info (1.2)."""
    _fields_ = [("struct_size", ctypes.c_size_t), ("name", ctypes.c_char_p), ("title", ctypes.c_char_p),
                ("description", ctypes.c_char_p), ("rule", ctypes.c_char_p), ("type", ctypes.c_int),
                ("category", ctypes.c_int), ("games", ctypes.c_int), ("min", ctypes.c_int64),
                ("max", ctypes.c_int64), ("default_value", ctypes.c_int64), ("default_text", ctypes.c_char_p),
                ("num_words", ctypes.c_int), ("words", ctypes.POINTER(ctypes.c_char_p)),
                ("labels", ctypes.POINTER(ctypes.c_char_p))]


def read(lib):
    """Every option of the library `lib` (a ctypes.CDLL), in order: a dict of name, type and category (words),
    games (the mask), min, max, default (its text), rule and words (a bool's and an enum's)."""
    lib.stpete_option_get_info.argtypes = [ctypes.c_int, ctypes.POINTER(Info)]
    rows = []
    for i in range(lib.stpete_option_count()):
        info = Info()
        info.struct_size = ctypes.sizeof(Info)
        assert lib.stpete_option_get_info(i, ctypes.byref(info)) == 0
        rows.append({"name": info.name.decode(), "type": TYPES[info.type], "category": CATEGORIES[info.category],
                     "games": info.games, "min": info.min, "max": info.max, "default": info.default_text.decode(),
                     "rule": info.rule.decode(), "words": [info.words[w].decode() for w in range(info.num_words)]})
    return rows
