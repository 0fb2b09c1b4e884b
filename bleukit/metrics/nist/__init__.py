"""NIST (Doddington 2002) as mteval-v13a.pl computes it."""
