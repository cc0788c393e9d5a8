"""``python -m hopsim`` = the ``hopsim`` command."""

from .cli import main

if __name__ == "__main__":
    main()
