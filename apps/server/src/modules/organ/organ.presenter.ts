import type { OrganRow } from './organ.repository.js';

export interface OrganDto {
  id: string;
  name: string;
  parentid: string | null;
  skill: boolean;
  sortindex: number;
  usercount: number;
}

export const presentOrgan = (o: OrganRow, usercount: number): OrganDto => ({
  id: o.id,
  name: o.name,
  parentid: o.parentid,
  skill: o.skill === 1,
  sortindex: o.sortindex,
  usercount,
});
