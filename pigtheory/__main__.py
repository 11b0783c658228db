"""``python -m pigtheory``: the ``pigtheory`` command."""

from pigtheory.cli import main

raise SystemExit(main())
