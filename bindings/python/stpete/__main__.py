"""``python3 -m stpete``: the binding's version, the C library's version and the path of the library it loaded.

    $ python3 -m stpete
    stpete 1.1.2 (libstpete 1.1.2)
    library: /home/me/venv/lib/python3.11/site-packages/stpete/libstpete.so.0
"""
import sys

from . import __version__, library_path, version


def main():
    print(f"stpete {__version__} (libstpete {version()})")
    print(f"library: {library_path()}")
    return 0 if version() == __version__ else 1


if __name__ == "__main__":
    sys.exit(main())
