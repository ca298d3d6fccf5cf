/** Console texts of the shared export pieces (components/Export*) and the history screen (/history). */
export const historyZh = {
  'export.title': '导出',
  'export.all': '全部导出记录',
  'export.download': '下载',
  'export.downloadFailed': '下载失败',
  'export.background': '导出在后台进行，可以关闭此窗口，稍后在“全部导出记录”中下载。',
  'export.status.queued': '排队中',
  'export.status.running': '导出中',
  'export.status.done': '已完成',
  'export.status.failed': '失败',
  'export.rowsSoFar': '已导出 {{n}} 行',
  'export.rowsDone': '共 {{n}} 行',
  'export.file': '文件',
  'export.state': '状态',
  'export.size': '大小',
  'export.created': '创建时间',
  'export.none': '暂无导出记录',
};

export const historyEn: Record<keyof typeof historyZh, string> = {
  'export.title': 'Export',
  'export.all': 'All exports',
  'export.download': 'Download',
  'export.downloadFailed': 'Download failed',
  'export.background':
    'The export runs in the background: you may close this window and download it later from "All exports".',
  'export.status.queued': 'Queued',
  'export.status.running': 'Exporting',
  'export.status.done': 'Done',
  'export.status.failed': 'Failed',
  'export.rowsSoFar': '{{n}} rows so far',
  'export.rowsDone': '{{n}} rows',
  'export.file': 'File',
  'export.state': 'State',
  'export.size': 'Size',
  'export.created': 'Created',
  'export.none': 'No exports yet',
};
