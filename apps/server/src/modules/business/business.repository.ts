import type { Insertable, Kysely, Selectable } from 'kysely';
import type { Database } from '../../platform/db/schema.js';
import type { BusinessSystemTable } from '../../platform/db/schema-compliance.js';

type Kdb = Kysely<Database>;
export type BusinessRow = Selectable<BusinessSystemTable>;

export const list = (k: Kdb, orgi: string) =>
  k
    .selectFrom('business_system')
    .selectAll()
    .where('orgi', '=', orgi)
    .orderBy('sortindex')
    .orderBy('createtime')
    .execute();

export const find = (k: Kdb, orgi: string, id: string) =>
  k
    .selectFrom('business_system')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('id', '=', id)
    .executeTakeFirst();

export async function insert(k: Kdb, row: Insertable<BusinessSystemTable>) {
  await k.insertInto('business_system').values(row).execute();
}

export async function update(k: Kdb, orgi: string, id: string, set: Partial<BusinessRow>) {
  await k.updateTable('business_system').set(set).where('orgi', '=', orgi).where('id', '=', id).execute();
}

export async function remove(k: Kdb, orgi: string, id: string): Promise<number> {
  await k.deleteFrom('crm_link').where('orgi', '=', orgi).where('businessid', '=', id).execute();
  const r = await k
    .deleteFrom('business_system')
    .where('orgi', '=', orgi)
    .where('id', '=', id)
    .executeTakeFirst();
  return Number(r.numDeletedRows);
}

export const nameTaken = async (k: Kdb, orgi: string, name: string, except: string) =>
  !!(await k
    .selectFrom('business_system')
    .select('id')
    .where('orgi', '=', orgi)
    .where('name', '=', name)
    .where('id', '!=', except)
    .executeTakeFirst());

/** The contact a visitor is linked to (by the web chat identity), or ''. */
export async function contactOf(k: Kdb, orgi: string, channel: string, userid: string): Promise<string> {
  const r = await k
    .selectFrom('contact_identity')
    .select('contactid')
    .where('orgi', '=', orgi)
    .where('kind', '=', channel)
    .where('value', '=', userid)
    .executeTakeFirst();
  return r?.contactid ?? '';
}

export const crmLink = (k: Kdb, orgi: string, businessid: string, userid: string) =>
  k
    .selectFrom('crm_link')
    .selectAll()
    .where('orgi', '=', orgi)
    .where('businessid', '=', businessid)
    .where('userid', '=', userid)
    .executeTakeFirst();

export async function putCrmLink(
  k: Kdb,
  row: {
    id: string;
    orgi: string;
    businessid: string;
    userid: string;
    contactid: string;
    crmid: string;
    agentserviceid: string;
    creater: string;
    createtime: number;
  },
) {
  await k
    .insertInto('crm_link')
    .values(row)
    .onConflict((oc) =>
      oc.columns(['orgi', 'businessid', 'userid']).doUpdateSet({
        crmid: row.crmid,
        contactid: row.contactid,
        agentserviceid: row.agentserviceid,
        creater: row.creater,
        createtime: row.createtime,
      }),
    )
    .execute();
}
