"""The shapes two layers share: the columns of the history's rows and frames and of the audit log, the
contract between ``store`` (which writes and reads them) and ``analysis`` (which shapes them). Names
only, no code."""
