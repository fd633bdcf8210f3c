"""``python -m realpolitik``: the command line (see ``docs/cli.md``)."""

from realpolitik.cli import main

raise SystemExit(main())
