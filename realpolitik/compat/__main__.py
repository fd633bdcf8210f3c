"""``python -m realpolitik.compat SCRIPT [ARGS...]``: run code written for the ``diplomacy``
package on realpolitik, unchanged (:func:`realpolitik.compat.install`)."""

import sys

from realpolitik.compat.importing import run

run(sys.argv[1:])
