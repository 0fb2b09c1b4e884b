"""Sentence BLEU of a batch of token ids on the tensors' device, and the
same ids as an RL reward (docs/integrations.md; run by tests/test_torch.py
in tox -e torch)."""

import torch

import bleukit.torch
from bleukit.rewards import SentenceReward

if __name__ == "__main__":
    device = "cuda" if torch.cuda.is_available() else "cpu"
    hyps = torch.tensor([[5, 6, 7, 8, 0], [1, 2, 3, 4, 9]], device=device)  # 0 pads
    refs = torch.tensor([[5, 6, 7, 8], [1, 2, 3, 0]], device=device)
    scores = bleukit.torch.sentence_bleu(hyps, refs, pad_id=0)
    print([round(s, 2) for s in scores.tolist()])
    reward = SentenceReward(token_ids=True, scale=1.0)
    ids = [[5, 6, 7, 8], [1, 2, 3, 4, 9]]
    print(
        [
            round(r, 2)
            for r in reward(["", ""], completion_ids=ids, reference=[[5, 6, 7, 8], [1, 2, 3]])
        ]
    )
