import type { EndBy, HistoryRowDto, HistoryTagDto } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import type { ListRow } from './history.query.js';

type Kdb = Db['kysely'];

/** Names and tags the rows refer to, read once for a whole page (or export chunk). */
export interface RowContext {
  organs: Map<string, string>;
  apps: Map<string, string>;
  topics: Map<string, string>;
  tags: Map<string, HistoryTagDto[]>;
  snippets: Map<string, string>;
}

const uniq = (xs: Array<string | null | undefined>): string[] => [
  ...new Set(xs.filter((x): x is string => !!x)),
];

export async function rowContext(k: Kdb, orgi: string, rows: readonly ListRow[]): Promise<RowContext> {
  const ids = rows.map((r) => r.id);
  const organIds = uniq(rows.map((r) => r.organ));
  const appIds = uniq(rows.map((r) => r.appid));
  const topicIds = uniq(rows.map((r) => r.topicid));
  const msgIds = uniq(rows.map((r) => r.msgid));
  const [organs, apps, topics, tags, msgs] = await Promise.all([
    organIds.length ? k.selectFrom('organ').select(['id', 'name']).where('id', 'in', organIds).execute() : [],
    appIds.length
      ? k
          .selectFrom('access_point')
          .select(['id', 'name'])
          .where('orgi', '=', orgi)
          .where('id', 'in', appIds)
          .execute()
      : [],
    topicIds.length
      ? k.selectFrom('service_topic').select(['id', 'name']).where('id', 'in', topicIds).execute()
      : [],
    ids.length
      ? k
          .selectFrom('agent_service_tag as r')
          .innerJoin('tag as t', 't.id', 'r.tagid')
          .select(['r.agentserviceid', 't.id', 't.name', 't.color'])
          .where('r.agentserviceid', 'in', ids)
          .orderBy('t.sortindex')
          .execute()
      : [],
    msgIds.length
      ? k.selectFrom('chat_message').select(['id', 'message']).where('id', 'in', msgIds).execute()
      : [],
  ]);
  const byService = new Map<string, HistoryTagDto[]>();
  for (const t of tags) {
    const list = byService.get(t.agentserviceid) ?? [];
    list.push({ id: t.id, name: t.name, color: t.color });
    byService.set(t.agentserviceid, list);
  }
  return {
    organs: new Map(organs.map((o) => [o.id, o.name])),
    apps: new Map(apps.map((a) => [a.id, a.name])),
    topics: new Map(topics.map((t) => [t.id, t.name])),
    tags: byService,
    snippets: new Map(msgs.map((m) => [m.id, m.message.slice(0, 200)])),
  };
}

const num = (v: number | null | undefined): number | null =>
  v === null || v === undefined ? null : Number(v);

export function presentRow(r: ListRow, c: RowContext): HistoryRowDto {
  const servicetime = num(r.servicetime);
  const endtime = num(r.endtime);
  const row: HistoryRowDto = {
    id: r.id,
    userid: r.userid,
    username: r.username,
    name: r.name,
    phone: r.phone,
    email: r.email,
    channel: r.channel,
    appid: r.appid,
    appname: c.apps.get(r.appid) ?? '',
    organ: r.organ,
    organname: (r.organ && c.organs.get(r.organ)) || '',
    agentno: r.agentno,
    agentusername: r.agentusername,
    createtime: Number(r.createtime),
    servicetime,
    endtime,
    waittime: Number(r.waittime),
    servetime: servicetime !== null && endtime !== null ? endtime - servicetime : null,
    endby: r.endby as EndBy | null,
    satislevel: r.satislevel,
    satiscomment: r.satiscomment,
    leavemsg: Number(r.leavemsg) === 1,
    ai: Number(r.ai) === 1,
    userasks: Number(r.userasks),
    agentreplys: Number(r.agentreplys),
    firstreplytime: num(r.firstreplytime),
    topicid: r.topicid,
    topicname: (r.topicid && c.topics.get(r.topicid)) || '',
    memo: r.summary,
    tags: c.tags.get(r.id) ?? [],
  };
  if (r.hits !== undefined) {
    row.hits = Number(r.hits);
    row.snippet = (r.msgid && c.snippets.get(r.msgid)) || '';
  }
  return row;
}
