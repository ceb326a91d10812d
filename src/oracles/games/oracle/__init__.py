"""Oracle (Stefan Dorra): cards and chips (:mod:`.cards`), the Oracle deck as
data (:mod:`.prophecies`) and the rules engine (:mod:`.rules`)."""
