"""bleukit.core.hashing: the same SHA-256 as hashlib, in one piece or in blocks."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from bleukit.core.hashing import sha256


@given(st.lists(st.binary(max_size=300), max_size=5))
def test_sha256_equals_hashlibs(blocks):
    ours, theirs = sha256(), hashlib.sha256()
    for block in blocks:
        ours.update(block)
        theirs.update(block)
    assert ours.hexdigest() == theirs.hexdigest()
    assert sha256(b"".join(blocks)).hexdigest() == theirs.hexdigest()
