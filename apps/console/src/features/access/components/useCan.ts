import { hasPermission, type PermissionRequirement } from '@kefu/protocol';
import { useSession } from '../../../app/session';

/** Whether the logged-in user holds the code (usertype '0' holds every code). */
export function useCan(): (code: PermissionRequirement) => boolean {
  const info = useSession((s) => s.info);
  return (code) => !!info && hasPermission(info.user.usertype, info.auth ?? {}, code);
}
