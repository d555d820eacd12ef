"""``python -m toolpipe``: the same as the ``toolpipe`` command."""

import sys

from toolpipe.cli import main

sys.exit(main())
