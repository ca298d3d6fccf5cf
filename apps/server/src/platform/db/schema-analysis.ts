/** Tables of migration 0013_analysis (docs/metrics.md). `day` = local days since 1970-01-01 in the tenant's zone. */
export interface VisitTable {
  id: string;
  orgi: string;
  appid: string;
  traceid: string;
  firsttime: number;
  day: number;
  hour: number;
  ip: string;
  country: string;
  province: string;
  city: string;
  browser: string;
  browserver: string;
  os: string;
  osver: string;
  device: string;
  /** Referrer host ('' = direct). */
  source: string;
  engine: string;
  keyword: string;
}

/** One ended conversation's contribution to the rollups (JSON of ConvFacts, analysis/facts.ts). */
export interface StatConvTable {
  id: string;
  orgi: string;
  facts: string;
  updatetime: number;
}

export interface ConvSums {
  conversations: number;
  effective: number;
  served: number;
  abandoned: number;
  transfers: number;
  asked: number;
  rated: number;
  l1: number;
  l2: number;
  l3: number;
  l4: number;
  l5: number;
  firstresp_n: number;
  firstresp_ms: number;
  resp_n: number;
  resp_ms: number;
  serve_ms: number;
  wait_n: number;
  wait_ms: number;
  msg_in: number;
  msg_out: number;
  ai: number;
  ai_agent: number;
  ai_only: number;
}

export interface StatConvDayTable extends ConvSums {
  orgi: string;
  day: number;
  organ: string;
  agentno: string;
  channel: string;
  appid: string;
}

export interface StatConvAgentTable extends ConvSums {
  orgi: string;
  day: number;
  organ: string;
  agentno: string;
}

export interface StatConvSrcTable extends ConvSums {
  orgi: string;
  day: number;
  channel: string;
  appid: string;
}

export interface StatConvHourTable {
  orgi: string;
  day: number;
  hour: number;
  channel: string;
  appid: string;
  conversations: number;
  effective: number;
}

export interface StatConvDimTable {
  orgi: string;
  day: number;
  kind: string;
  value: string;
  organ: string;
  agentno: string;
  channel: string;
  appid: string;
  conversations: number;
  effective: number;
}

export interface StatVisitDayTable {
  orgi: string;
  day: number;
  kind: string;
  value: string;
  appid: string;
  visits: number;
  visitors: number;
}

export interface StatVisitHourTable {
  orgi: string;
  day: number;
  hour: number;
  appid: string;
  visits: number;
}

export interface StatInviteDayTable {
  orgi: string;
  day: number;
  appid: string;
  agentno: string;
  invited: number;
  accepted: number;
}

export interface StatAgentDayTable {
  orgi: string;
  day: number;
  userid: string;
  ready_ms: number;
  busy_ms: number;
  notready_ms: number;
}

/** stat_agent_day summed by blocks of BLOCK_DAYS local days (migration 0021). */
export interface StatAgentBlockTable {
  orgi: string;
  block: number;
  userid: string;
  ready_ms: number;
  busy_ms: number;
  notready_ms: number;
}

/** stat_agent_day summed over the tenant's agents by day (migration 0021). */
export interface StatAgentTotalTable {
  orgi: string;
  day: number;
  ready_ms: number;
  busy_ms: number;
  notready_ms: number;
}

export interface StatAgentLastTable {
  userid: string;
  orgi: string;
  status: string;
  reason: string;
  since: number;
}

export interface AnalysisTables {
  visit: VisitTable;
  stat_conv: StatConvTable;
  stat_conv_day: StatConvDayTable;
  stat_conv_agent: StatConvAgentTable;
  stat_conv_src: StatConvSrcTable;
  stat_conv_hour: StatConvHourTable;
  stat_conv_dim: StatConvDimTable;
  stat_visit_day: StatVisitDayTable;
  stat_visit_hour: StatVisitHourTable;
  stat_invite_day: StatInviteDayTable;
  stat_agent_day: StatAgentDayTable;
  stat_agent_last: StatAgentLastTable;
  stat_agent_block: StatAgentBlockTable;
  stat_agent_total: StatAgentTotalTable;
}
