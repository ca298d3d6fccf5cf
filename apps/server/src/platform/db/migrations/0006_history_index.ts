import type { Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * An agent's ended conversations, newest end first (GET /api/talk/end/agentusers): the index matches the
 * filter (agentno, status) and the order (endtime, id), so a page — first or deep, by `before` cursor —
 * reads only its rows instead of sorting all the agent's history. It replaces (agentno, status), which
 * is its prefix.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .createIndex('agent_service_agent_end')
    .on('agent_service')
    .columns(['agentno', 'status', 'endtime', 'id'])
    .execute();
  await db.schema.dropIndex('agent_service_agent').execute();
}
