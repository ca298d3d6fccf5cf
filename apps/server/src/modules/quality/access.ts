import { QUALITY_ALLOT_CODE, QUALITY_STAFF_CODE, hasPermission } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import { AppError } from '../../platform/http/errors.js';
import { CODES } from '@kefu/protocol';
import type { InspectionRow } from './quality.repository.js';

/**
 * Who sees which inspection: an assigner (A11_A02, or the all-powerful accounts) every one of the tenant;
 * an inspector the ones allotted to them; an agent (A11_A03) their own once sent.
 */
export const assigner = (p: Principal): boolean => hasPermission(p.usertype, p.auth, QUALITY_ALLOT_CODE);

export const ownResult = (p: Principal, r: InspectionRow): boolean =>
  r.agentno === p.id && r.status === 'sent' && hasPermission(p.usertype, p.auth, QUALITY_STAFF_CODE);

export const mayRead = (p: Principal, r: InspectionRow): boolean =>
  assigner(p) || r.inspector === p.id || ownResult(p, r);

export const denied = (
  key: 'forbidden' | 'quality_not_inspector' | 'quality_appeal_not_owner' = 'forbidden',
) => new AppError(key, CODES.forbidden);
