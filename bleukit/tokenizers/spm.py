"""SentencePiece tokenizers (spBLEU; Goyal et al. 2022, "The FLORES-101
Evaluation Benchmark"), imported only when first used (extra ``spm``:
``pip install 'bleukit[spm]'``).

A line becomes its SentencePiece pieces joined by spaces, exactly as
sacrebleu's ``TokenizerSPM`` (``EncodeAsPieces``). The model decides the
pieces, so it is part of the variant:

* ``flores101.v1``, ``flores200.v1``, ``spbleu-1k.v1``: sacrebleu's
  ``flores101`` (also its ``spm``), ``flores200`` and ``spBLEU-1K``. The
  model is read from where sacrebleu keeps it, ``$SACREBLEU/models/`` (its
  file name from sacrebleu's download address), or from the variant's
  ``tokenizer_model`` path. bleukit downloads nothing: a missing model is
  an error that names the file and where to get it. sacrebleu publishes no
  checksum for these models, so none is checked; the long signature carries
  the model's SHA-256 (first 12 hex digits) whenever a path is given;
* ``spm.v1``: any SentencePiece model, given by ``tokenizer_model``.
"""

from __future__ import annotations

import functools
import os
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, MissingDependencyError
from ..core.hashing import sha256
from .base import missing_extra

if TYPE_CHECKING:
    from pathlib import Path

#: sacrebleu 2.6.0's models (tokenizers/tokenizer_spm.py): where it fetches them
SACREBLEU_MODELS = {
    "flores101": "https://dl.fbaipublicfiles.com/fairseq/models/flores/sacrebleu_tokenizer_spm.model",
    "flores200": "https://tinyurl.com/flores200sacrebleuspm",
    "spBLEU-1K": "https://www.dlnlp.ai/spBLEU-1K/spbleu-1k_tokenizer_spm.model",
}


@functools.lru_cache(maxsize=32)
def _digest(path: str, mtime_ns: int, size: int) -> str:
    sha = sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            sha.update(block)
    return sha.hexdigest()[:12]


def model_digest(path: str) -> str:
    """``sha256:`` and the first 12 hex digits of a model file's SHA-256; a
    text that already is one (a parsed signature) stays as it is."""
    if path.startswith("sha256:"):
        return path
    try:
        st = os.stat(path)
    except OSError:
        raise ConfigError(f"key 'tokenizer_model': {path}: no such model file") from None
    return "sha256:" + _digest(os.path.abspath(path), st.st_mtime_ns, st.st_size)


class SentencePiece:
    """One loaded model: a line's pieces, joined by spaces."""

    def __init__(self, path: str, component: str, sacrebleu: str | None) -> None:
        if path.startswith("sha256:"):
            raise ConfigError(
                f"key 'tokenizer_model': {path} names a model by its digest (from a "
                "signature); give the model file's path"
            )
        try:
            import sentencepiece
        except ImportError:
            raise missing_extra(component, "sentencepiece", "spm") from None
        if not os.path.isfile(path):
            raise ConfigError(f"key 'tokenizer_model': {path}: no such model file")
        self._sp: Any = sentencepiece.SentencePieceProcessor()
        try:
            self._sp.Load(path)
        except (OSError, RuntimeError) as exc:
            raise ConfigError(f"{path}: not a SentencePiece model ({exc})") from None
        self.sacrebleu = sacrebleu

    @functools.lru_cache(maxsize=2**16)  # noqa: B019 -- as sacrebleu caches its calls
    def __call__(self, line: str) -> str:
        return " ".join(self._sp.EncodeAsPieces(line))


class SentencePieceFamily:
    """A registered SentencePiece tokenizer: ``with_model`` loads the model
    a variant names (its default: sacrebleu's cached model, if any)."""

    takes_model = True

    def __init__(self, component: str, sacrebleu: str | None = None) -> None:
        self.component = component
        self.sacrebleu = sacrebleu
        self._default: SentencePiece | None = None

    def default_path(self) -> Path | None:
        """Where sacrebleu keeps this tokenizer's model (None: no default)."""
        if self.sacrebleu is None:
            return None
        from pathlib import Path  # here: only a SentencePiece tokenizer needs it

        cache = os.environ.get("SACREBLEU", os.path.join(os.path.expanduser("~"), ".sacrebleu"))
        return Path(cache) / "models" / os.path.basename(SACREBLEU_MODELS[self.sacrebleu])

    def with_model(self, path: str | None) -> SentencePiece:
        if path is not None:
            return SentencePiece(path, self.component, self.sacrebleu)
        default = self.default_path()
        if default is None or self.sacrebleu is None:
            raise ConfigError(
                f"tokenizer {self.component} needs key 'tokenizer_model': the path of a "
                "SentencePiece model"
            )
        if not default.is_file():
            raise MissingDependencyError(
                f"tokenizer {self.component}: its model is not in sacrebleu's cache ({default}); "
                f"download {SACREBLEU_MODELS[self.sacrebleu]} to that path (or run sacrebleu "
                f"once with -tok {self.sacrebleu}), or set tokenizer_model"
            )
        return SentencePiece(str(default), self.component, self.sacrebleu)

    def __call__(self, line: str) -> str:
        """The line with the default model (loaded on first use)."""
        if self._default is None:
            self._default = self.with_model(None)
        return self._default(line)
