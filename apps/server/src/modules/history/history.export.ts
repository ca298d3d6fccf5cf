import {
  historyFilterSchema,
  maskPii,
  type ExportJobDto,
  type HistoryFilter,
  type HistoryRowDto,
  type PiiRules,
} from '@kefu/protocol';
import type { AppContext } from '../../platform/context.js';
import type { Principal } from '../../platform/auth/principal.js';
import { searchReader } from '../../platform/search/reader.js';
import { localTime, startExport, type ExportCell, type ExportColumn } from '../export/export.service.js';
import type { ChatMessageRow } from '../conversation/presenter.js';
import {
  chunkQuery,
  exportCountQuery,
  type HistoryScope,
  type ListRow,
  type Where,
} from './history.query.js';
import { presentRow, rowContext } from './history.presenter.js';
import { historyScope, keywordOf } from './history.service.js';
import { piiRules } from '../sensitive/sensitive.service.js';

/**
 * expids / expsearch: a background export with two sheets, the conversations (one row each) and their
 * transcripts (one row per message, in conversation then seq order; docs/api.md "History"). Both walk the
 * conversations by id in chunks through the search reader, so an export never holds more than a chunk.
 */

type Ctx = Pick<AppContext, 'db' | 'config'>;
type Lang = 'zh' | 'en';

const CHUNK = 500;
/** Messages read per query: the transcripts of a few conversations. */
const MESSAGE_CHUNK = 5000;

const T = {
  zh: {
    file: '历史对话',
    sheet: '会话',
    messages: '消息',
    cols: [
      '会话ID',
      '访客',
      '访客ID',
      '渠道',
      '接入网站',
      '技能组',
      '坐席',
      '开始时间',
      '接入时间',
      '结束时间',
      '等待(秒)',
      '服务时长(秒)',
      '结束方',
      '满意度',
      '评价',
      '留言',
      'AI接待',
      '访客消息',
      '坐席消息',
      '首次响应(秒)',
      '服务主题',
      '标签',
      '备注',
    ],
    mcols: ['会话ID', '序号', '时间', '方向', '发送人', '类型', '内容', '已撤回'],
    yes: '是',
    dir: { in: '访客', out: '坐席', system: '系统' } as Record<string, string>,
  },
  en: {
    file: 'History',
    sheet: 'Conversations',
    messages: 'Messages',
    cols: [
      'Conversation',
      'Visitor',
      'Visitor ID',
      'Channel',
      'Website',
      'Skill group',
      'Agent',
      'Started',
      'Served',
      'Ended',
      'Wait (s)',
      'Service (s)',
      'Ended by',
      'Satisfaction',
      'Comment',
      'Leave message',
      'AI',
      'Visitor messages',
      'Agent messages',
      'First reply (s)',
      'Topic',
      'Tags',
      'Memo',
    ],
    mcols: ['Conversation', 'Seq', 'Time', 'Direction', 'Sender', 'Type', 'Content', 'Withdrawn'],
    yes: 'yes',
    dir: { in: 'visitor', out: 'agent', system: 'system' } as Record<string, string>,
  },
};

const TIME_COLS = new Set([7, 8, 9]);
const WIDTHS: Record<number, number> = { 0: 34, 1: 16, 2: 34, 7: 20, 8: 20, 9: 20, 22: 40 };
const columns = (lang: Lang): ExportColumn[] =>
  T[lang].cols.map((header, i) => ({ header, width: WIDTHS[i], time: TIME_COLS.has(i) }));
const messageColumns = (lang: Lang): ExportColumn[] =>
  T[lang].mcols.map((header, i) => ({ header, width: [34, 8, 20, 8, 16, 8, 80, 8][i], time: i === 2 }));

const secs = (ms: number | null) => (ms === null ? null : Math.round(ms / 1000));

function rowCells(r: HistoryRowDto, lang: Lang, tz: number): ExportCell[] {
  const yes = (b: boolean) => (b ? T[lang].yes : '');
  return [
    r.id,
    r.username || r.name,
    r.userid,
    r.channel,
    r.appname,
    r.organname,
    r.agentusername,
    localTime(r.createtime, tz),
    localTime(r.servicetime, tz),
    localTime(r.endtime, tz),
    secs(r.waittime),
    secs(r.servetime),
    r.endby,
    r.satislevel,
    r.satiscomment,
    yes(r.leavemsg),
    yes(r.ai),
    r.userasks,
    r.agentreplys,
    r.firstreplytime,
    r.topicname,
    r.tags.map((t) => t.name).join(', '),
    r.memo,
  ];
}

function messageCells(m: ChatMessageRow, lang: Lang, tz: number, pii: PiiRules): ExportCell[] {
  const content = m.msgtype === 'text' ? m.message : m.filename || `[${m.msgtype}]`;
  return [
    m.agentserviceid,
    m.seq,
    localTime(m.createtime, tz),
    T[lang].dir[m.calltype] ?? m.calltype,
    m.username,
    m.msgtype,
    m.withdrawn ? '' : maskPii(content, pii),
    m.withdrawn ? T[lang].yes : '',
  ];
}

type What = { ids: readonly string[] } | { filter: HistoryFilter };

export async function exportHistory(
  ctx: Ctx,
  p: Principal,
  what: What,
  lang: Lang,
  tz: number,
): Promise<ExportJobDto> {
  const k = ctx.db.kysely;
  const reader = searchReader(ctx);
  const scope: HistoryScope = await historyScope(k, p);
  const filter: HistoryFilter = 'filter' in what ? what.filter : historyFilterSchema.parse({});
  const kw = keywordOf(filter.keyword);
  const ids = 'ids' in what ? [...new Set(what.ids)].sort() : null;
  const w: Where = { k, dialect: ctx.db.dialect, orgi: p.orgi, scope, kw };
  // The tenant's personal-data masking rules apply to exported message text as they do on screen.
  const pii = await piiRules(ctx.db, p.orgi);

  /** The conversations to export, a chunk at a time, in id order (the selection: those in scope). */
  async function* conversations(): AsyncGenerator<ListRow[]> {
    let after = '';
    for (;;) {
      const q = chunkQuery(w, filter, after, CHUNK, ids);
      const rows = await reader.rows<ListRow>(q);
      if (rows.length === 0) return;
      yield rows;
      after = rows[rows.length - 1]!.id;
      if (rows.length < CHUNK) return;
    }
  }
  async function* sheet(): AsyncIterable<ExportCell[][]> {
    for await (const rows of conversations()) {
      const c = await rowContext(k, p.orgi, rows);
      yield rows.map((r) => rowCells(presentRow(r, c), lang, tz));
    }
  }
  async function* transcripts(): AsyncIterable<ExportCell[][]> {
    for await (const rows of conversations()) {
      const sids = rows.map((r) => r.id);
      let from = { sid: '', seq: 0 };
      for (;;) {
        const q = k
          .selectFrom('chat_message')
          .selectAll()
          .where('agentserviceid', 'in', sids)
          .where((eb) =>
            eb.or([
              eb('agentserviceid', '>', from.sid),
              eb.and([eb('agentserviceid', '=', from.sid), eb('seq', '>', from.seq)]),
            ]),
          )
          .orderBy('agentserviceid')
          .orderBy('seq')
          .limit(MESSAGE_CHUNK)
          .compile();
        const msgs = await reader.rows<ChatMessageRow>(q);
        if (msgs.length) yield msgs.map((m) => messageCells(m, lang, tz, pii));
        if (msgs.length < MESSAGE_CHUNK) break;
        const last = msgs[msgs.length - 1]!;
        from = { sid: last.agentserviceid, seq: Number(last.seq) };
      }
    }
  }

  const [counts] = await reader.rows<{ convs: number; msgs: number }>(exportCountQuery(w, filter, ids));
  const total = Number(counts?.convs ?? 0) + Number(counts?.msgs ?? 0);
  return startExport(ctx, p, {
    kind: 'history',
    name: T[lang].file,
    tz,
    total,
    sheets: [
      { name: T[lang].sheet, columns: columns(lang), rows: sheet },
      { name: T[lang].messages, columns: messageColumns(lang), rows: transcripts },
    ],
  });
}
