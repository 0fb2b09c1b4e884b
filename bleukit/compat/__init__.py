"""Drop-in layers: other tools' interfaces, computed by bleukit.

* ``bleukit.compat.sacrebleu``: sacrebleu 2.6.0's Python API for BLEU
  (``BLEU``, ``corpus_bleu``, ``sentence_bleu``...) and its command line
  (``bleukit sacrebleu ...``, ``bleukit-sacrebleu``), with byte-identical
  output.
* ``bleukit.compat.torchtext``: torchtext's ``bleu_score`` on token lists.
"""
