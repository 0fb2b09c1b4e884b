"""GLEU (Wu et al. 2016) as NLTK's corpus_gleu and HF evaluate's google_bleu compute it."""
