"""Exceptions of the libstpete binding: one class per C status code (include/stpete/stpete.h, "Status codes"; the
1.0 codes, -101 .. -114: below every value and sentinel, STPETE_FAILED()). Each class's ``status`` is the one
table of the codes: :func:`error_for_status` is built from it.

Every exception raised for a failing C call is a :class:`StPeteError` carrying the C status (``.status``), the
C function (``.function``) and the C library's message (``.message``: stpete_state_last_error() for calls that
set it, otherwise stpete_strerror() plus the arguments).
"""
from typing import Optional, Type

__all__ = [
    "StPeteError", "InvalidArgumentError", "IllegalActionError", "BufferTooSmallError", "OutOfMemoryError",
    "GameOverError", "NotTerminalError", "ParseError", "UnsupportedVersionError", "MismatchError",
    "ReentrantError", "RedactedError", "InconsistentError", "TooLargeError", "NoPriceError", "ClosedError",
    "LibraryNotFoundError", "error_for_status",
]


class StPeteError(Exception):
    """Base class: a C call returned a ``STPETE_E_*`` status (-114 .. -101). For JSON input, ``line``, ``column`` and
    ``position`` locate a syntax error (else None)."""

    status: Optional[int] = None
    line: Optional[int] = None
    column: Optional[int] = None
    position: Optional[int] = None

    def __init__(self, message: str, status: Optional[int] = None, function: Optional[str] = None) -> None:
        super().__init__(message)
        self.message = message
        if status is not None:
            self.status = status
        self.function = function


class InvalidArgumentError(StPeteError, ValueError):
    """STPETE_E_INVALID_ARGUMENT (-101): an out-of-range seat, card, row, stack, action id or option."""
    status = -101


class IllegalActionError(StPeteError, ValueError):
    """STPETE_E_ILLEGAL_ACTION (-102): the action is not legal now; the state is unchanged."""
    status = -102


class BufferTooSmallError(StPeteError):
    """STPETE_E_BUFFER_TOO_SMALL (-103): a buffer was too small (the binding sizes its buffers; seen only on misuse
    of the raw functions)."""
    status = -103


class OutOfMemoryError(StPeteError, MemoryError):
    """STPETE_E_OUT_OF_MEMORY (-104): an allocation failed; nothing was changed or leaked."""
    status = -104


class GameOverError(StPeteError):
    """STPETE_E_GAME_OVER (-105): the game has ended, no action can be applied."""
    status = -105


class NotTerminalError(StPeteError):
    """STPETE_E_NOT_TERMINAL (-106): the query (winners, final scores) needs a finished game."""
    status = -106


class ParseError(StPeteError, ValueError):
    """STPETE_E_PARSE (-107): an action string or card name could not be parsed."""
    status = -107


class UnsupportedVersionError(StPeteError):
    """STPETE_E_UNSUPPORTED_VERSION (-108): a struct or format newer than the library, or a library whose version
    the binding does not support."""
    status = -108


class MismatchError(StPeteError, ValueError):
    """STPETE_E_MISMATCH (-109): two states of games with different rule options."""
    status = -109


class ReentrantError(StPeteError):
    """STPETE_E_REENTRANT (-110): an event callback tried to modify the state that called it."""
    status = -110


class RedactedError(StPeteError):
    """STPETE_E_REDACTED (-111): a redacted per-seat view cannot be loaded as a playable state."""
    status = -111


class InconsistentError(StPeteError, ValueError):
    """STPETE_E_INCONSISTENT (-112): serialized data breaks the rules (card counts §2, ranges, an illegal replay
    action, a recorded result that does not match)."""
    status = -112


class TooLargeError(StPeteError, ValueError):
    """STPETE_E_TOO_LARGE (-113): an input over its documented size bound (a JSON state over 1 MiB, a replay record
    over 4 MiB or with more actions than the longest possible game), refused before it is parsed."""
    status = -113


class NoPriceError(StPeteError):
    """STPETE_E_NO_PRICE (-114): a legal action that costs nothing has no price (pass, take, an Observatory draw,
    take or discard)."""
    status = -114


class ClosedError(StPeteError, ValueError):
    """The Python object's handle was closed (no C status)."""


class LibraryNotFoundError(StPeteError, ImportError):
    """libstpete could not be loaded; the message lists every place that was tried."""


_BY_STATUS = {cls.status: cls for cls in (
    InvalidArgumentError, IllegalActionError, BufferTooSmallError, OutOfMemoryError, GameOverError,
    NotTerminalError, ParseError, UnsupportedVersionError, MismatchError, ReentrantError, RedactedError,
    InconsistentError, TooLargeError, NoPriceError)}


def error_for_status(status: int) -> Type[StPeteError]:
    """The exception class of a C status code (StPeteError for an unknown negative code)."""
    return _BY_STATUS.get(status, StPeteError)
