import type { Db } from '../../platform/db/database.js';

/**
 * Where the other modules tell the statistics what changed, at the points they already pass: a
 * conversation ended or changed after its end (rating, tags), an agent's state changed, a visit began, an
 * invitation was sent or answered. The analysis module installs the listener (analysis/index.ts); each
 * call only queues work that runs after the caller's commit, so the caller's path pays one map lookup.
 * Importing this file pulls in nothing else of the analysis module.
 */
/** A row of the agent state log, as the state change wrote it. */
export interface StateChange {
  orgi: string;
  userid: string;
  to_status: string;
  reason: string;
  createtime: number;
}

export interface StatsListener {
  conversation(orgi: string, agentserviceid: string): void;
  agentState(row: StateChange): void;
  visit(row: VisitStart): void;
  invite(orgi: string, inviteid: string, answered: 'accept' | 'refuse' | null): void;
}

export interface VisitStart {
  orgi: string;
  appid: string;
  traceid: string;
  ip: string;
  userAgent: string;
  referrer: string;
  time: number;
}

const listeners = new WeakMap<Db, StatsListener>();

export const listenStats = (db: Db, l: StatsListener): void => void listeners.set(db, l);
export const statsListener = (db: Db): StatsListener | undefined => listeners.get(db);

export const conversationChanged = (db: Db, orgi: string, id: string): void =>
  listeners.get(db)?.conversation(orgi, id);
export const agentStateLogged = (db: Db, row: StateChange): void => listeners.get(db)?.agentState(row);
export const visitStarted = (db: Db, v: VisitStart): void => listeners.get(db)?.visit(v);
export const inviteChanged = (
  db: Db,
  orgi: string,
  inviteid: string,
  answered: 'accept' | 'refuse' | null,
): void => listeners.get(db)?.invite(orgi, inviteid, answered);
