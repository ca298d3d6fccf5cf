import { z } from 'zod';
import { epochMs, optionalText } from './fields.js';

/** GET /api/records/list and /api/records/export: words (action, user name, target), user, action, time range. */
export const auditQuery = z.object({
  q: optionalText(100),
  userid: optionalText(64),
  action: optionalText(200),
  begin: epochMs(),
  end: epochMs(),
});
