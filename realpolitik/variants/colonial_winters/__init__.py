"""Colonial Winters (Fred C. Winter, 1979): its rules (:mod:`.rules`), its own kinds of order,
BLOCK and MOBILISE (:mod:`.orders`, :mod:`.kinds`), loaded by the folder's ``hooks.py``."""
