"""Sentence BLEU of token-id tensors, counted on the tensors' device
(``pip install 'bleukit[torch]'``): for RL trainers that hold a batch of
generated ids and their references on a GPU.

The n-gram counting is vectorised, after TensorBLEU (arXiv 2510.05485):
every n-gram of the batch (hypotheses and references) gets a small integer
id for this batch only, from one ``torch.unique`` per order over int64 keys
(an n-gram's key is its (n-1)-gram prefix's id times the vocabulary plus its
last token, so no unique over rows of tokens is needed), and counts per
sentence (and per sentence and reference) come from ``torch.unique`` over
``sentence * U + id`` keys, never from a table of sentences x vocabulary. Clipping takes, per
hypothesis n-gram, the most times any one reference has it (Papineni et al.
2002). All of it is integer arithmetic, so the counts are exact.

The counts leave the device as a ``SegmentTable`` (B rows of a few int64),
and bleukit's own pipeline scores it: the variant's reference-length
policy, totals rule, smoothing and weights, in float64, exactly as the CPU
engine scores the same ids written as words. No float32 is involved, so
there is no float32 error bound to state.
"""

from __future__ import annotations

from array import array
from typing import Any

from .core.errors import InputError, MissingDependencyError
from .engines import SegmentTable
from .metrics.bleu.variant import Variant, load_variant

#: sacrebleu.sentence_bleu's defaults, for token ids (as SentenceReward
#: scores them: every id one token; no text is tokenized here)
DEFAULT_VARIANT = "sacrebleu[effective_order=true,tokenizer=char.v1,lowercase=false]"


def _torch() -> Any:
    try:
        import torch
    except ImportError:
        raise MissingDependencyError(
            "bleukit.torch needs PyTorch: pip install 'bleukit[torch]'"
        ) from None
    return torch


def _lengths(torch: Any, ids: Any, pad_id: int, what: str) -> Any:
    """Per row, the number of tokens before the padding; padding anywhere
    but at the end of a row is an error (it would shift n-grams)."""
    mask = ids != pad_id
    lengths = mask.sum(-1)
    positions = torch.arange(ids.shape[-1], device=ids.device)
    if not torch.equal(mask, positions < lengths.unsqueeze(-1)):
        raise InputError(f"{what}: padding ({pad_id}) must come after the tokens of a row")
    return lengths


def _matches(rows: Any, lengths: Any, batch: int, nrefs: int, order: int) -> Any:
    """Per hypothesis, the clipped matches of every order up to ``order``.
    ``rows`` [B + B*R, L] holds the hypotheses, then the references (row
    ``B + b*R + r``), ``lengths`` their lengths."""
    torch = _torch()
    device = rows.device
    out = torch.zeros(batch, order, dtype=torch.int64, device=device)
    vocabulary = int(rows.max()) + 1 if rows.numel() else 1
    row_index = torch.arange(rows.shape[0], device=device).unsqueeze(1)
    ids = rows  # the ids of the previous order's n-grams, by start position
    for n in range(1, order + 1):
        width = rows.shape[1] - n + 1
        if width <= 0:
            break
        valid = torch.arange(width, device=device) < (lengths - n + 1).unsqueeze(1)
        # an n-gram's key: its (n-1)-gram prefix's id and its last token, so
        # that one unique over int64 numbers the n-grams of this batch
        keys = rows[:, :width] if n == 1 else ids[:, :width] * vocabulary + rows[:, n - 1 :]
        grams, inverse = torch.unique(keys[valid], return_inverse=True)
        size = len(grams)
        ids = torch.full((rows.shape[0], width), -1, dtype=torch.int64, device=device)
        ids[valid] = inverse
        owner = row_index.expand(-1, width)[valid]
        hyp = owner < batch
        h_keys, h_counts = torch.unique(owner[hyp] * size + inverse[hyp], return_counts=True)
        if not len(h_keys):
            continue
        # a reference n-gram's count per (sentence, reference), then its key
        # in the hypotheses' numbering (sentence * U + id)
        r_keys, r_counts = torch.unique((owner[~hyp] - batch) * size + inverse[~hyp],
                                        return_counts=True)  # fmt: skip
        as_hyp = (r_keys // size) // nrefs * size + r_keys % size
        at = torch.searchsorted(h_keys, as_hyp).clamp(max=len(h_keys) - 1)
        found = h_keys[at] == as_hyp
        most = torch.zeros_like(h_counts)
        most.scatter_reduce_(0, at[found], r_counts[found], reduce="amax")
        out[:, n - 1].scatter_add_(0, h_keys // size, torch.minimum(h_counts, most))
    return out


def segment_table(hyps: Any, refs: Any, order: int = 4, pad_id: int = 0) -> SegmentTable:
    """The per-segment table of a batch: ``hyps`` [B, L] and ``refs``
    [B, L'] (one reference each) or [B, R, L'] (R each), int tensors on one
    device, right-padded with ``pad_id``; counted on that device."""
    torch = _torch()
    if not isinstance(hyps, torch.Tensor) or not isinstance(refs, torch.Tensor):
        raise InputError("hyps and refs must be tensors of token ids")
    if hyps.dtype.is_floating_point or refs.dtype.is_floating_point:
        raise InputError("hyps and refs must be integer tensors (token ids)")
    if refs.dim() == 2:
        refs = refs.unsqueeze(1)
    if hyps.dim() != 2 or refs.dim() != 3 or refs.shape[0] != hyps.shape[0]:
        raise InputError(
            f"expected hyps [B, L] and refs [B, L'] or [B, R, L'], got {tuple(hyps.shape)} and "
            f"{tuple(refs.shape)}"
        )
    if refs.device != hyps.device:
        raise InputError(f"hyps are on {hyps.device} but refs on {refs.device}")
    hyps, refs = hyps.long(), refs.long()
    hyp_len = _lengths(torch, hyps, pad_id, "hyps")
    ref_len = _lengths(torch, refs, pad_id, "refs")
    batch, nrefs = refs.shape[0], refs.shape[1]
    width = max(hyps.shape[1], refs.shape[2])
    rows = torch.full((batch * (1 + nrefs), width), pad_id, dtype=torch.int64, device=hyps.device)
    rows[:batch, : hyps.shape[1]] = hyps
    rows[batch:, : refs.shape[2]] = refs.reshape(batch * nrefs, -1)
    lengths = torch.cat([hyp_len, ref_len.reshape(-1)])
    valid = torch.arange(width, device=rows.device) < lengths.unsqueeze(1)
    if bool((rows[valid] < 0).any()):
        raise InputError("token ids must not be negative (only the padding may be)")
    matches = _matches(rows, lengths, batch, nrefs, order)
    # closest reference length, the shorter on a tie (sacrebleu, NLTK); shortest
    gap = (ref_len - hyp_len.unsqueeze(1)).abs()
    closest = ref_len.gather(1, (gap * (ref_len.max() + 1) + ref_len).argmin(1, keepdim=True))
    nearest = torch.cat([closest, ref_len.min(1, keepdim=True).values], dim=1)

    def flat(column: Any) -> array[int]:
        return array("q", column.reshape(-1).cpu().tolist())

    return SegmentTable(flat(hyp_len), flat(ref_len), flat(matches), flat(nearest), nrefs, order)


def sentence_bleu(
    hyps: Any, refs: Any, variant: str | Variant = DEFAULT_VARIANT, pad_id: int = 0
) -> Any:
    """Sentence BLEU (0-100, float64, on the hypotheses' device) of every
    row of a batch of token ids under ``variant``; see ``segment_table``."""
    torch = _torch()
    v = load_variant(variant) if isinstance(variant, str) else variant
    if v.config.ref_length not in ("closest.v1", "shortest.v1"):
        raise InputError(
            f"{v.name}: bleukit.torch computes the closest.v1 and shortest.v1 reference "
            f"lengths, not {v.config.ref_length}"
        )
    table = segment_table(hyps, refs, v.stat_order, pad_id)
    scores = [v.score_value(s) for s in v.stats_from_tables([table])]
    return torch.tensor(scores, dtype=torch.float64, device=hyps.device)
