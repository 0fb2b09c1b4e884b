"""Meta-evaluation: how well metric variants agree with human judgements
(``bleukit meta``): the judgements as data (``judgements``), the
statistics of the WMT metrics task (``statistics``), and the study of many
variants at once (``study``)."""
