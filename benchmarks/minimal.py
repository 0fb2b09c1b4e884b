"""The least a Python program can do to print sacrebleu's numbers for two of
``commands.py``'s workloads: a floor for bleukit's whole commands, not a tool.

    python benchmarks/minimal.py score -r REF... -i HYP      # BLEU, 13a, closest
    python benchmarks/minimal.py sentence -r REF -i HYP      # sentence BLEU, exp, eff. order

It starts the interpreter, parses its arguments with argparse (as both
tools do), reads the files, counts n-grams with bleukit's C kernel (the
same call bleukit's compiled engine makes, in two threads) and prints the
score lines sacrebleu prints, computed as sacrebleu computes them: no
variants, signatures, checks or error messages. ``commands.py`` checks its
numbers against sacrebleu's and times it beside both tools, so a ratio that
even this program cannot reach is visible as such.
"""

import argparse
import math
import sys
import threading

from bleukit import _accel

ORDER = 4
CHUNK = 512
#: the kernel's mode for the 13a rules followed by a Unicode whitespace split
MODE_13A = 7


def read(path: str) -> list[str]:
    with open(path, encoding="utf-8") as f:
        return f.read().rstrip("\n").split("\n")


def count(hyp: list[str], refs: list[list[str]]) -> list[tuple[memoryview, ...]]:
    """Per block of CHUNK segments: hypothesis lengths, reference lengths,
    clipped matches and (closest, shortest) reference lengths."""
    starts = range(0, len(hyp), CHUNK)
    out: list[tuple[memoryview, ...]] = [()] * len(starts)

    def work(k: int) -> None:
        for b in range(k, len(starts), 2):
            lo = starts[b]
            arrays = _accel.block_stats(
                "\n".join(hyp[lo : lo + CHUNK]),
                ["\n".join(r[lo : lo + CHUNK]) for r in refs],
                [None] * len(refs),
                MODE_13A,
                ORDER,
            )
            out[b] = tuple(memoryview(a).cast("q") for a in arrays)

    other = threading.Thread(target=work, args=(1,))
    other.start()
    work(0)
    other.join()
    return out


def bleu(correct: list[int], total: list[int], sys_len: int, ref_len: int, eff: bool) -> float:
    """sacrebleu's ``BLEU.compute_bleu`` with 'exp' smoothing (its default)."""
    if correct[0] == 0:  # sacrebleu: no matching unigram, a score of 0
        return 0.0
    precisions = [0.0] * ORDER
    smooth, order = 1.0, ORDER
    for n in range(ORDER):
        if total[n] == 0:
            break
        if eff:
            order = n + 1
        if correct[n] == 0:
            smooth *= 2
            precisions[n] = 100.0 / (smooth * total[n])
        else:
            precisions[n] = 100.0 * correct[n] / total[n]
    if sys_len < ref_len:
        bp = math.exp(1 - ref_len / sys_len) if sys_len > 0 else 0.0
    else:
        bp = 1.0
    logs = [math.log(p) if p else -9999999999 for p in precisions[:order]]
    return bp * math.exp(sum(logs) / order)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("what", choices=["score", "sentence"])
    parser.add_argument("-r", nargs="+", required=True)
    parser.add_argument("-i", required=True)
    args = parser.parse_args()
    refs = [read(p) for p in args.r]
    hyp = read(args.i)
    blocks = count(hyp, refs)
    if args.what == "sentence":
        lines = []
        for hl, _, mt, near in blocks:
            for i, h in enumerate(hl):
                total = [max(h - n, 0) for n in range(ORDER)]
                score = bleu(list(mt[i * ORDER : i * ORDER + ORDER]), total, h, near[2 * i], True)
                lines.append(f"BLEU = {score:.2f}")
        sys.stdout.write("\n".join(lines) + "\n")
        return
    sys_len = ref_len = 0
    correct, total = [0] * ORDER, [0] * ORDER
    for hl, _, mt, near in blocks:
        for i, h in enumerate(hl):
            sys_len += h
            ref_len += near[2 * i]
            for n in range(ORDER):
                correct[n] += mt[i * ORDER + n]
                total[n] += max(h - n, 0)
    score = bleu(correct, total, sys_len, ref_len, False)
    prec = "/".join(f"{100 * c / t:.1f}" for c, t in zip(correct, total))
    bp = math.exp(1 - ref_len / sys_len) if sys_len < ref_len else 1.0
    print(
        f"BLEU = {score:.2f} {prec} (BP = {bp:.3f} ratio = {sys_len / ref_len:.3f} "
        f"hyp_len = {sys_len} ref_len = {ref_len})"
    )


if __name__ == "__main__":
    main()
