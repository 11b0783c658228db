"""``python -m pigtheory.cli``: the ``pigtheory`` command."""

from pigtheory.cli import main

raise SystemExit(main())
