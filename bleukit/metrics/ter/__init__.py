"""TER, translation edit rate (Snover et al. 2006), as sacrebleu 2.6.0
computes it: Tercom's normalization (``normalize``) and its edit count with
shifts (``edits``)."""
