import type { Distribution } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';

/**
 * Per-tenant conversation settings, stored as one JSON document in session_config (the setup screens
 * may add keys). Durations are seconds, as in the original. Not cached: every engine step reads the
 * row, so a save (modules/sessionconfig) takes effect at once on every node.
 */
export interface SessionConfig {
  transtip: boolean;
  transtiptimeout: number;
  sessiontimeout: boolean;
  timeout: number;
  timeoutmsg: string;
  resessiontimeout: boolean;
  retimeout: number;
  retimeoutmsg: string;
  agentreplaytimeout: boolean;
  agenttimeout: number;
  agenttimeoutmsg: string;
  quene: boolean;
  quenetimeout: number;
  quenetimeoutmsg: string;
  lastagent: boolean;
  distribution: Distribution;
  /** Default seat count (users.maxusers) given to agents created without one. */
  maxusers: number;
  sessionmsg: string;
  successmsg: string;
  noagentmsg: string;
  agentbusymsg: string;
  finessmsg: string;
  transmsg: string;
  enabletransmsg: boolean;
  servicename: string;
  satisfaction: boolean;
  satisftext: string;
  msgtranslate: boolean;
  tipagent: boolean;
  tipagenttitle: string;
  tipagenticon: string;
  prompttone: boolean;
  agentautoleave: boolean;
}

export const DEFAULT_SESSION_CONFIG: SessionConfig = {
  transtip: true,
  transtiptimeout: 5,
  sessiontimeout: false,
  timeout: 120,
  timeoutmsg: '您已经很久没有说话了，如果没有其他问题，会话将自动结束。',
  resessiontimeout: false,
  retimeout: 120,
  retimeoutmsg: '由于您长时间没有回复，本次会话已结束。',
  agentreplaytimeout: false,
  agenttimeout: 120,
  agenttimeoutmsg: '坐席正忙，请稍候，马上为您服务。',
  quene: false,
  quenetimeout: 600,
  quenetimeoutmsg: '当前排队人数较多，请您留言，我们会尽快联系您。',
  lastagent: true,
  distribution: 'idle-first',
  maxusers: 10,
  sessionmsg: '您好，欢迎咨询！',
  successmsg: '坐席分配成功，{agent}为您服务。',
  noagentmsg: '当前没有在线坐席，请您留言。',
  agentbusymsg: '正在排队，请稍候,在您之前，还有 {num} 位等待用户。',
  finessmsg: '坐席已断开和您的对话',
  transmsg: '已为你转接给坐席{agent}',
  enabletransmsg: true,
  servicename: '系统',
  satisfaction: true,
  satisftext: '请对{agent}的服务进行评价',
  msgtranslate: false,
  tipagent: false,
  tipagenttitle: '',
  tipagenticon: '',
  prompttone: true,
  agentautoleave: true,
};

export async function loadSessionConfig(db: Db, orgi: string): Promise<SessionConfig> {
  const row = await db.kysely
    .selectFrom('session_config')
    .select('config')
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  if (!row) return DEFAULT_SESSION_CONFIG;
  try {
    return { ...DEFAULT_SESSION_CONFIG, ...(JSON.parse(row.config) as Partial<SessionConfig>) };
  } catch {
    return DEFAULT_SESSION_CONFIG;
  }
}

export async function saveSessionConfig(
  db: Db,
  orgi: string,
  patch: Partial<SessionConfig>,
  now: number,
): Promise<SessionConfig> {
  const next = { ...(await loadSessionConfig(db, orgi)), ...patch };
  const config = JSON.stringify(next);
  const updated = await db.kysely
    .updateTable('session_config')
    .set({ config, updatetime: now })
    .where('orgi', '=', orgi)
    .executeTakeFirst();
  if (Number(updated.numUpdatedRows) === 0) {
    await db.kysely.insertInto('session_config').values({ orgi, config, updatetime: now }).execute();
  }
  return next;
}

/** Fills {agent}, {num}, {index}. */
export function fillText(text: string, vars: { agent?: string; num?: number }): string {
  return text
    .replaceAll('{agent}', vars.agent ?? '')
    .replaceAll('{num}', String(vars.num ?? 0))
    .replaceAll('{index}', String((vars.num ?? 0) + 1));
}
