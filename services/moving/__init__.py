"""Moving a whole history to another database: ``copy`` (database to database, e.g. from the SQLite
default to PostgreSQL), ``export`` (one CSV file per table and a manifest, for backups between versions
and a team's own analysis) and ``import`` (such a folder into an empty database).

Every table of the app moves (``store.bulk.history_tables``), in batches, with progress lines; each
ends verified by every table's row count. A copy or an import that was stopped (killed, a lost
connection, a full disk) is run again with the same arguments and continues where it stopped: its
progress is kept on the target, batch by batch (``store.bulk``). The moves refuse a target that already
holds a history of its own, so nothing is ever mixed into or written over a team's rows.
"""

from services.moving.copying import Refused, copy_history
from services.moving.exporting import export_history, import_history

__all__ = ["Refused", "copy_history", "export_history", "import_history"]
