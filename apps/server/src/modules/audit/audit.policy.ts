import type { PermissionRequirement } from '@kefu/protocol';

/**
 * Which calls the audit log records: administrative changes, exports and supervisor actions. A call is a
 * change when it is not a GET, or a GET whose last path segment is an action verb (the spec's delete,
 * clean, switch… calls answer GET too). It is administrative when its route requires a setup (A09),
 * monitor (A03) or quality (A11) code, or is a personal security call. Exports are recorded whatever
 * their method. Chat work (talk, uploads, translation, the composer's check) requires none of these codes
 * and is not recorded.
 */
const ACTION_VERBS = new Set([
  'delete',
  'batdel',
  'deletetype',
  'clean',
  'switch',
  'end',
  'endAgent',
  'transfer',
  'aiChange',
  'encryption',
]);
const ADMIN_PREFIXES = ['A09', 'A03', 'A11'];
/** Changes that concern the account itself rather than a setup screen. */
const ALWAYS = new Set(['/api/agent/my/updatePassword']);
/** A call that starts an export: expids, expsearch, expall, expIds, exLoginLogs, export… */
const EXPORT = /^(?:exp|ex[A-Z])/;

const codesOf = (p: unknown): string[] =>
  typeof p === 'string' ? [p] : Array.isArray(p) ? p.filter((c): c is string => typeof c === 'string') : [];

/** The export module's own calls (job progress, download) follow an export already recorded. */
export function isExport(path: string): boolean {
  return !path.startsWith('/api/export/') && EXPORT.test(path.slice(path.lastIndexOf('/') + 1));
}

export function auditable(
  method: string,
  path: string,
  permission: PermissionRequirement | unknown,
): boolean {
  if (!path.startsWith('/api/')) return false;
  if (isExport(path)) return true;
  const last = path.slice(path.lastIndexOf('/') + 1);
  if (method === 'GET' && !ACTION_VERBS.has(last)) return false;
  if (ALWAYS.has(path)) return true;
  return codesOf(permission).some((c) => ADMIN_PREFIXES.some((prefix) => c.startsWith(prefix)));
}

/** '/api/sensitive/agent/save' → 'sensitive.agent.save'. */
export const actionOf = (path: string): string => path.replace(/^\/api\//, '').replace(/\//g, '.');

/** Keys whose values never go into the log (credentials, secrets, one-time codes). */
const SECRET_KEYS = new Set([
  'password',
  'oldpassword',
  'newpassword',
  'confirm',
  'secret',
  'clientsecret',
  'token',
  'authorization',
  'code',
  'recovery',
  'signkey',
  'key',
  'uri',
]);
const MAX_JSON = 20_000;

/** A JSON copy of a value with secrets replaced, cut to a bounded size. */
export function redact(value: unknown): string | null {
  if (value === undefined || value === null) return null;
  const json = JSON.stringify(value, (k, v: unknown) => (SECRET_KEYS.has(k) && v !== '' ? '***' : v));
  if (json === undefined) return null;
  return json.length > MAX_JSON ? `${json.slice(0, MAX_JSON)}…` : json;
}
