"""Research shaping that stays beside the pages: the bulk DR checker's results (``bulk``). Its rows are
the bulk runner's ``client.bulk.ItemResult``, and ``client.bulk`` paces real requests (it brings in the
HTTP transport), which the pure analysis layer may not import. The other research frames are
``analysis.research.frames``."""
