import type { AuditLogDto } from '@kefu/protocol';
import type { AuditRow } from './audit.repository.js';

export const presentAudit = (r: AuditRow): AuditLogDto => ({
  id: r.id,
  userid: r.userid,
  username: r.username,
  action: r.action,
  method: r.method,
  path: r.path,
  target: r.target,
  before: r.before,
  after: r.after,
  ip: r.ip,
  useragent: r.useragent,
  createtime: Number(r.createtime),
});
