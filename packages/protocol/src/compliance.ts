/**
 * Records (audit log), secret key and webhooks, business systems and CRM links, quick files and shortcuts,
 * personal and corporate security, message translation (issue 14): permission codes, DTOs, constants.
 */

// ---------------------------------------------------------------- records (audit log), A09_A06_A01
export const AUDIT_CODE = 'A09_A06_A01';
/** Most rows one export writes. */
export const AUDIT_EXPORT_MAX = 50_000;

export interface AuditLogDto {
  id: string;
  userid: string;
  username: string;
  /** The call, as a dotted path: 'sensitive.agent.save'. */
  action: string;
  method: string;
  path: string;
  target: string;
  /** JSON text (secrets replaced by ***), or null. */
  before: string | null;
  after: string | null;
  ip: string;
  useragent: string;
  createtime: number;
}
