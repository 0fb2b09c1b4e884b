"""Sentence BLEU of token-id tensors, counted on the tensors' device
(``pip install 'bleukit[torch]'``): for RL trainers that hold a batch of
generated ids and their references on a GPU.

The n-gram counting is vectorised, after TensorBLEU (arXiv 2510.05485):
every n-gram of the batch (hypotheses and references) gets a small integer
id for this batch only, and the counts are per sentence of those ids,
never a table of sentences x vocabulary. Unlike TensorBLEU, no step waits
for the device until the counts are done: the ids are dense ranks from one
sort per order (an n-gram's key is its (n-1)-gram prefix's id and its last
token's id, so no sort of rows of tokens is needed), and instead of
counting each distinct n-gram (whose number the host would have to read),
each hypothesis n-gram occurrence is matched when its rank among the equal
n-grams of its sentence is below the most times one reference has that
n-gram (a binary search in the sorted reference keys). That is Papineni et
al.'s (2002) clipping, counted per occurrence. All of it is integer
arithmetic, so the counts are exact; the host reads the device once.

The counts leave the device as a ``SegmentTable`` (B rows of a few int64),
and bleukit's own engine scores it: the variant's reference-length policy,
totals rule, smoothing and weights, in float64, exactly as the CPU engine
scores the same ids written as words. No float32 is involved, so there is
no float32 error bound to state.
"""

from __future__ import annotations

from array import array
from collections import OrderedDict
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


def _matches(torch: Any, rows: Any, lengths: Any, order: int) -> Any:
    """Per hypothesis, the clipped matches of every order up to ``order``.
    ``rows`` [B, 1 + R, W] holds per sentence its hypothesis (``[:, 0]``)
    and its references, right-padded; ``lengths`` [B, 1 + R] their lengths."""
    device = rows.device
    batch, parts, width_all = rows.shape
    # every id is below ``span`` (the number of positions), so a key
    # id * span + id is exact in int64 (segment_table checks the size)
    span = max(rows.numel(), 1)
    out = torch.zeros(batch, order, dtype=torch.int64, device=device)
    positions = torch.arange(width_all, device=device)
    unigrams = ids = rows  # the tokens, until the first order numbers them
    for n in range(1, order + 1):
        width = width_all - n + 1
        if width <= 0:
            break
        # an n-gram's key: its (n-1)-gram prefix's id and its last token's
        keys = rows if n == 1 else ids[..., :width] * span + unigrams[..., n - 1 :]
        # a stable sort keeps equal n-grams in (sentence, row, position)
        # order: the positions of one n-gram in one sentence are adjacent,
        # its hypothesis occurrences first, then reference by reference
        ordered, where = torch.sort(keys.reshape(-1), stable=True)
        sentence = where // (parts * width)
        row = where // width % parts
        # an n-gram past a row's end holds padding, which no n-gram of the
        # tokens does, so its groups are apart and it counts for nothing
        valid = (positions[:width] < (lengths - n + 1).unsqueeze(-1)).reshape(-1)[where]
        new_gram = torch.zeros_like(where, dtype=torch.bool)
        new_gram[1:] = ordered[1:] != ordered[:-1]
        new_group = new_gram.clone()  # (n-gram, sentence)
        new_group[1:] |= sentence[1:] != sentence[:-1]
        new_run = new_group.clone()  # (n-gram, sentence, row)
        new_run[1:] |= row[1:] != row[:-1]
        gram, group, run = (torch.cumsum(x, 0) for x in (new_gram, new_group, new_run))
        in_hyp = (valid & (row == 0)).long()
        in_ref = (valid & (row > 0)).long()
        hyp_count = torch.zeros_like(where).scatter_add_(0, group, in_hyp)
        ref_count = torch.zeros_like(where).scatter_add_(0, run, in_ref)
        # Papineni et al. (2002): clip by the most times one reference has it
        most = torch.zeros_like(where).scatter_reduce_(0, group, ref_count[run], reduce="amax")
        owner = torch.zeros_like(where).scatter_(0, group, sentence)
        out[:, n - 1].scatter_add_(0, owner, torch.minimum(hyp_count, most))
        if n < order:  # the n-grams' dense ids, by position, for the next order
            ids = torch.empty_like(where)
            ids[where] = gram
            ids = ids.view(keys.shape)
            if n == 1:  # keys hold dense ids, never the tokens themselves
                unigrams = ids
    return out


def _lengths(torch: Any, ids: Any, pad_id: int) -> tuple[Any, Any]:
    """Per row, the number of tokens before the padding, and whether the
    rows are bad (padding before a token, or a negative id): a tensor, read
    with the counts."""
    mask = ids != pad_id
    lengths = mask.sum(-1)
    positions = torch.arange(ids.shape[-1], device=ids.device)
    misplaced = (mask != (positions < lengths.unsqueeze(-1))).any()
    return lengths, torch.stack([misplaced, ((ids < 0) & mask).any()])


def _device_table(torch: Any, hyps: Any, refs: Any, pad_id: int, order: int) -> Any:
    """The checks and the table of a batch (``hyps`` [B, L], ``refs``
    [B, R, L'], int64, B > 0) as one flat int64 tensor on their device:
    misplaced padding in hyps, negative ids in hyps, the same two for refs,
    then the hypothesis lengths, reference lengths, matches and nearest
    lengths. Every shape follows from the inputs' shapes, and nothing is
    read back to the host, so a CUDA graph can capture it."""
    batch, nrefs = refs.shape[0], refs.shape[1]
    width = max(hyps.shape[1], refs.shape[2])
    hyp_len, hyp_bad = _lengths(torch, hyps, pad_id)
    ref_len, ref_bad = _lengths(torch, refs, pad_id)
    rows = torch.full((batch, 1 + nrefs, width), pad_id, dtype=torch.int64, device=hyps.device)
    rows[:, 0, : hyps.shape[1]] = hyps
    rows[:, 1:, : refs.shape[2]] = refs
    matches = _matches(torch, rows, torch.cat([hyp_len.unsqueeze(1), ref_len], 1), order)
    # closest reference length, the shorter on a tie (sacrebleu, NLTK); shortest
    gap = (ref_len - hyp_len.unsqueeze(1)).abs()
    closest = ref_len.gather(1, (gap * (ref_len.max() + 1) + ref_len).argmin(1, keepdim=True))
    nearest = torch.cat([closest, ref_len.min(1, keepdim=True).values], dim=1)
    parts = (hyp_bad, ref_bad, hyp_len, ref_len, matches, nearest)
    return torch.cat([p.reshape(-1).long() for p in parts])


class _Captured:
    """``_device_table`` of one shape captured in a CUDA graph: a replay
    launches its kernels at once, without Python's per-operation cost,
    on inputs copied into the captured ones."""

    def __init__(self, torch: Any, hyps: Any, refs: Any, pad_id: int, order: int) -> None:
        self.hyps, self.refs = hyps.clone(), refs.clone()
        # PyTorch's rule: run once on a side stream before capturing
        side = torch.cuda.Stream(device=hyps.device)
        side.wait_stream(torch.cuda.current_stream(hyps.device))
        with torch.cuda.stream(side):
            _device_table(torch, self.hyps, self.refs, pad_id, order)
        torch.cuda.current_stream(hyps.device).wait_stream(side)
        self.graph = torch.cuda.CUDAGraph()
        with torch.cuda.graph(self.graph):
            self.out = _device_table(torch, self.hyps, self.refs, pad_id, order)

    def __call__(self, hyps: Any, refs: Any) -> Any:
        self.hyps.copy_(hyps)
        self.refs.copy_(refs)
        self.graph.replay()
        return self.out


#: captured graphs by shape, device, padding id and order; the oldest goes
#: past ``_GRAPH_LIMIT`` (each holds its own GPU memory)
_GRAPHS: OrderedDict[tuple[Any, ...], _Captured] = OrderedDict()
_GRAPH_LIMIT = 8


def _replayed(torch: Any, hyps: Any, refs: Any, pad_id: int, order: int) -> Any:
    key = (tuple(hyps.shape), tuple(refs.shape), str(hyps.device), pad_id, order)
    captured = _GRAPHS.pop(key, None) or _Captured(torch, hyps, refs, pad_id, order)
    _GRAPHS[key] = captured
    if len(_GRAPHS) > _GRAPH_LIMIT:
        _GRAPHS.popitem(last=False)
    return captured(hyps, refs)


def segment_table(
    hyps: Any, refs: Any, order: int = 4, pad_id: int = 0, cuda_graph: bool = False
) -> SegmentTable:
    """The per-segment table of a batch: ``hyps`` [B, L] and ``refs``
    [B, L'] (one reference each) or [B, R, L'] (R each), int tensors on one
    device, right-padded with ``pad_id``; counted on that device.

    ``cuda_graph=True`` (CUDA tensors only) captures the counting of each
    new shape in a CUDA graph, kept for later batches of that shape (the
    last 8 shapes): for trainers that pad every batch to one shape, where
    launching the kernels one by one costs more than running them. The
    counts are the same; a first batch of a shape costs the capture. Not
    for concurrent calls from several threads."""
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
    if cuda_graph and hyps.device.type != "cuda":
        raise InputError(f"cuda_graph=True needs tensors on a CUDA device, not {hyps.device}")
    hyps, refs = hyps.long(), refs.long()
    batch, nrefs = refs.shape[0], refs.shape[1]
    if not batch:
        return SegmentTable(array("q"), array("q"), array("q"), array("q"), nrefs, order)
    width = max(hyps.shape[1], refs.shape[2])
    if (batch * (1 + nrefs) * width) ** 2 >= 2**63:
        raise InputError(f"a batch of {batch} x {1 + nrefs} rows of {width} ids is too large")
    count = _replayed if cuda_graph else _device_table
    # one read from the device: the checks, then the table
    values = count(torch, hyps, refs, pad_id, order).cpu().tolist()
    if values[0]:
        raise InputError(f"hyps: padding ({pad_id}) must come after the tokens of a row")
    if values[2]:
        raise InputError(f"refs: padding ({pad_id}) must come after the tokens of a row")
    if values[1] or values[3]:
        raise InputError("token ids must not be negative (only the padding may be)")
    cuts = [4, 4 + batch, 4 + batch * (1 + nrefs), 4 + batch * (1 + nrefs + order)]
    hyp_col, ref_col, match_col, near_col = (
        array("q", values[a:b]) for a, b in zip(cuts, [*cuts[1:], len(values)])
    )
    return SegmentTable(hyp_col, ref_col, match_col, near_col, nrefs, order)


def sentence_bleu(
    hyps: Any,
    refs: Any,
    variant: str | Variant = DEFAULT_VARIANT,
    pad_id: int = 0,
    cuda_graph: bool = False,
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
    table = segment_table(hyps, refs, v.stat_order, pad_id, cuda_graph)
    scores = v.sentence_values_from_tables([table])
    return torch.tensor(scores, dtype=torch.float64, device=hyps.device)
