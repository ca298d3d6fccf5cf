import { errorText, type ErrorKey, ERROR_MESSAGES } from '@kefu/protocol';
import type { LoginLogDto } from './loginlog.presenter.js';
import { loadExcel } from '../../platform/excel.js';

const HEADERS = {
  zh: ['用户名', 'IP', '浏览器', '操作系统', '结果', '原因', '时间', 'User-Agent'],
  en: ['Username', 'IP', 'Browser', 'OS', 'Result', 'Reason', 'Time', 'User-Agent'],
} as const;

const reasonText = (reason: string, lang: string) =>
  reason in ERROR_MESSAGES ? errorText(reason as ErrorKey, lang) : reason;

/** The login log as an .xlsx workbook, headed in the caller's language. */
export async function loginLogWorkbook(rows: LoginLogDto[], lang: string): Promise<Buffer> {
  const en = lang.startsWith('en');
  const wb = new (await loadExcel()).Workbook();
  const ws = wb.addWorksheet(en ? 'Login log' : '登录日志');
  ws.addRow([...(en ? HEADERS.en : HEADERS.zh)]).font = { bold: true };
  for (const r of rows) {
    ws.addRow([
      r.username,
      r.ip,
      r.browser,
      r.os,
      r.success ? (en ? 'Success' : '成功') : en ? 'Failed' : '失败',
      r.reason ? reasonText(r.reason, lang) : '',
      new Date(r.createtime),
      r.useragent,
    ]);
  }
  ws.getColumn(7).numFmt = 'yyyy-mm-dd hh:mm:ss';
  ws.columns.forEach((c, i) => (c.width = [16, 16, 16, 16, 8, 24, 20, 60][i]));
  return Buffer.from(await wb.xlsx.writeBuffer());
}
