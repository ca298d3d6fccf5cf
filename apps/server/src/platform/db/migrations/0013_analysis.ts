import type { CreateTableBuilder, Kysely } from 'kysely';
import type { Dialect } from '../database.js';

/**
 * Statistics (issue 18, docs/metrics.md). Days (`day`) are local calendar days of the tenant's time zone
 * counted from 1970-01-01 (an integer), hours (`hour`) local hours 0..23: bucketing is done once, when a
 * fact is written, so every query is a plain sum over a day range.
 * - organization.timezone: the tenant's IANA time zone (changing it needs `npm run analysis:rebuild`);
 * - visit: one row per visit of the embed loader, with the region (ip2region) and the browser/OS/device
 *   (ua-parser-js) worked out once, and the search engine and keyword parsed from the referrer;
 * - stat_conv: what one ended conversation contributes to the rollups (its facts, kept so that a later
 *   change — a rating, a tag — replaces exactly what it had added);
 * - stat_conv_day / _agent / _src / _hour / _dim, stat_visit_day / _hour, stat_invite_day, stat_agent_day: the rollups the
 *   /api/analyse calls read, maintained incrementally and rebuilt by `npm run analysis:rebuild`;
 * - stat_agent_last: each agent's last state, for the open interval of the current state.
 */
export async function up(db: Kysely<unknown>, _dialect: Dialect): Promise<void> {
  await db.schema
    .alterTable('organization')
    .addColumn('timezone', 'text', (c) => c.notNull().defaultTo('Asia/Shanghai'))
    .execute();
  // The sweep that catches conversations whose end was not rolled up (a crash between the two).
  await db.schema.createIndex('agent_service_endtime').on('agent_service').columns(['endtime']).execute();

  await db.schema
    .createTable('visit')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('traceid', 'text', (c) => c.notNull())
    .addColumn('firsttime', 'bigint', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('country', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('province', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('city', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('browser', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('browserver', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('os', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('osver', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('device', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('engine', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('keyword', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('visit_trace').on('visit').columns(['orgi', 'traceid', 'firsttime']).execute();
  await db.schema.createIndex('visit_time').on('visit').columns(['orgi', 'firsttime']).execute();

  await db.schema
    .createTable('stat_conv')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .addColumn('updatetime', 'bigint', (c) => c.notNull())
    .execute();

  const convSums = [
    'conversations',
    'effective',
    'served',
    'abandoned',
    'transfers',
    'asked',
    'rated',
    'l1',
    'l2',
    'l3',
    'l4',
    'l5',
    'firstresp_n',
    'firstresp_ms',
    'resp_n',
    'resp_ms',
    'serve_ms',
    'wait_n',
    'wait_ms',
    'msg_in',
    'msg_out',
    'ai',
    'ai_agent',
    'ai_only',
  ];
  // The same sums at three grains: every dimension (any filter), agent × department (agent and
  // department tables), channel × access point (channel, website and date tables). A call reads the
  // smallest one its filters allow.
  const grains: Array<[string, string[]]> = [
    ['stat_conv_day', ['organ', 'agentno', 'channel', 'appid']],
    ['stat_conv_agent', ['organ', 'agentno']],
    ['stat_conv_src', ['channel', 'appid']],
  ];
  for (const [table, keys] of grains) {
    // Column names are data here: the builder's column-name typing does not follow the loop.
    let t: CreateTableBuilder<string, string> = db.schema
      .createTable(table)
      .addColumn('orgi', 'text', (c) => c.notNull())
      .addColumn('day', 'integer', (c) => c.notNull());
    for (const k of keys) t = t.addColumn(k, 'text', (c) => c.notNull());
    for (const s of convSums) t = t.addColumn(s, 'bigint', (c) => c.notNull().defaultTo(0));
    await t.addPrimaryKeyConstraint(`${table}_pk`, ['orgi', 'day', ...keys]).execute();
  }

  await db.schema
    .createTable('stat_conv_hour')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('conversations', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('effective', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_conv_hour_pk', ['orgi', 'day', 'hour', 'channel', 'appid'])
    .execute();

  // kind: province | city | browser | os | engine | keyword | tag | opinion. organ/agentno are '' except
  // for opinions (the satisfaction screen filters them by department and agent).
  await db.schema
    .createTable('stat_conv_dim')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('organ', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('conversations', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('effective', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_conv_dim_pk', [
      'orgi',
      'kind',
      'day',
      'value',
      'organ',
      'agentno',
      'channel',
      'appid',
    ])
    .execute();

  // kind: all | province | city | browser | os | engine | keyword. visitors: distinct trace ids of the day
  // (kind all only).
  await db.schema
    .createTable('stat_visit_day')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('visits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('visitors', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_visit_day_pk', ['orgi', 'kind', 'day', 'value', 'appid'])
    .execute();
  await db.schema
    .createTable('stat_visit_hour')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('hour', 'integer', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('visits', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_visit_hour_pk', ['orgi', 'day', 'hour', 'appid'])
    .execute();
  await db.schema
    .createTable('stat_invite_day')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('appid', 'text', (c) => c.notNull())
    .addColumn('agentno', 'text', (c) => c.notNull())
    .addColumn('invited', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('accepted', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_invite_day_pk', ['orgi', 'day', 'appid', 'agentno'])
    .execute();
  await db.schema
    .createTable('stat_agent_day')
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('day', 'integer', (c) => c.notNull())
    .addColumn('userid', 'text', (c) => c.notNull())
    .addColumn('ready_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('busy_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('notready_ms', 'bigint', (c) => c.notNull().defaultTo(0))
    .addPrimaryKeyConstraint('stat_agent_day_pk', ['orgi', 'day', 'userid'])
    .execute();
  await db.schema
    .createTable('stat_agent_last')
    .addColumn('userid', 'text', (c) => c.primaryKey())
    .addColumn('orgi', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('since', 'bigint', (c) => c.notNull())
    .execute();
}
