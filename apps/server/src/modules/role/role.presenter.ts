import type { RoleRow } from './role.repository.js';

export interface RoleDto {
  id: string;
  name: string;
  description: string;
  usercount: number;
}

export const presentRole = (r: RoleRow, usercount: number): RoleDto => ({
  id: r.id,
  name: r.name,
  description: r.description,
  usercount,
});
