"""Live cross-checks need sacrebleu and NLTK (``tox -e oracle``): a missing
one is an error here, not a skip, because this directory exists to run them."""

import nltk  # noqa: F401
import sacrebleu  # noqa: F401
