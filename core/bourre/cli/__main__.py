"""``python -m bourre.cli``: the ``bourre`` command line."""

from bourre.cli import main

main()
