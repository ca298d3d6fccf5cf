/** Tables of migration 0008_history_search_export. Times are epoch ms. */
export interface ExportJobTable {
  id: string;
  orgi: string;
  userid: string;
  kind: string;
  filename: string;
  /** queued | running | done | failed (ExportStatus). */
  status: string;
  rows: number;
  total: number | null;
  size: number | null;
  /** The file under the data directory once done, else ''. */
  path: string;
  /** Error key when failed. */
  error: string | null;
  createtime: number;
  /** Heartbeat of the node running (or queueing) the job. */
  updatetime: number;
  finishtime: number | null;
}

export interface HistoryTables {
  export_job: ExportJobTable;
}
