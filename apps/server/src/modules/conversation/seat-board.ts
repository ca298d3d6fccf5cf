import type { Distribution, VisitorAgentInfo } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { runFixed, type Sql } from './hot-sql.js';
import { lastAgentOf } from './service.repository.js';

/*
 * Which agent should take a chat is decided from this node's board of the tenant's ready agents and their
 * seat counts: reading and sorting every ready agent for each new chat cost more than the rest of the
 * assignment. The board only chooses: the seat itself is still taken by the conditional UPDATE
 * (reserveSeat), which answers with the agent's real counts. So a stale board can cost a retry or a less
 * fair choice, never an agent over capacity or a chat taken twice, and "nobody has room" is only believed
 * from a fresh read: a chat is never queued because of a stale board.
 * Freshness: this node's own seat changes update the board; state changes and transfers drop it; changes
 * on other nodes (their assignments, agents going ready there) are seen after at most BOARD_TTL_MS.
 */

export const BOARD_TTL_MS = 1_000;

interface Seat {
  userid: string;
  users: number;
  maxusers: number;
  lastidle: number;
  nickname: string;
  /** Primary organ and skill-group memberships. */
  organs: Set<string>;
  /** Dropped from the board (not ready any more); still in `list` until the next load. */
  gone: boolean;
}

interface Board {
  seats: Map<string, Seat>;
  /** The same seats as an array: each pick walks all of them, and arrays iterate several times faster. */
  list: Seat[];
  loadedAt: number;
}

const boards = new WeakMap<Db, Map<string, Board>>();
/** Bumped by forgetSeats: a board whose read started before a forget is used once, not kept. */
let generation = 0;

function boardsOf(db: Db): Map<string, Board> {
  let m = boards.get(db);
  if (!m) boards.set(db, (m = new Map()));
  return m;
}

async function load(k: Sql, orgi: string): Promise<Board> {
  const rows = await runFixed<Omit<Seat, 'organs'> & { organ: string | null }>(k, READY, [orgi]);
  const seats = new Map<string, Seat>();
  for (const r of rows.rows) {
    seats.set(r.userid, {
      userid: r.userid,
      users: Number(r.users),
      maxusers: Number(r.maxusers),
      lastidle: Number(r.lastidle),
      nickname: r.nickname,
      organs: new Set(r.organ ? [r.organ] : []),
      gone: false,
    });
  }
  if (seats.size > 0) {
    const members = await runFixed<{ userid: string; organid: string }>(k, MEMBERS, [orgi]);
    for (const m of members.rows) seats.get(m.userid)?.organs.add(m.organid);
  }
  return { seats, list: [...seats.values()], loadedAt: performance.now() };
}
const READY = `select s.userid, s.users, s.maxusers, s.lastidle, s.organ,
  coalesce(nullif(u.nickname, ''), u.uname, '') as nickname
  from agent_status s left join users u on u.id = s.userid where s.orgi = ? and s.status = 'ready'`;
const MEMBERS = `select uo.userid, uo.organid from user_organ uo join agent_status s on s.userid = uo.userid
  where s.orgi = ? and s.status = 'ready'`;

export interface PickRequest {
  orgi: string;
  organ: string | null;
  /** Only this agent (a requested agent), or null. */
  only: string | null;
  distribution: Distribution;
  /** The visitor whose last agent goes first (last-agent preference), or null. */
  lastAgentOf: string | null;
}

export interface SeatPick {
  agent: VisitorAgentInfo;
  /** Applies what the seat UPDATE answered: the agent's real counts, or undefined when it failed. */
  settle(now: { users: number; maxusers: number } | undefined): void;
}

/**
 * Up to `limit` candidates in routing order (last agent first, then the distribution: fewest chats or
 * lowest load, longest idle, userid). Empty only when a fresh read of the database has no one with room.
 */
export async function pickSeats(db: Db, k: Sql, req: PickRequest, limit: number): Promise<SeatPick[]> {
  const byOrg = boardsOf(db);
  let board = byOrg.get(req.orgi);
  let fresh = false;
  const reload = async (): Promise<Board> => {
    const gen = generation;
    const b = await load(k, req.orgi);
    if (gen === generation) byOrg.set(req.orgi, b);
    return b;
  };
  if (!board || performance.now() - board.loadedAt > BOARD_TTL_MS) {
    board = await reload();
    fresh = true;
  }
  const last = req.lastAgentOf ? await lastAgentOf(k, req.orgi, req.lastAgentOf) : null;
  let best = choose(board, req, last, limit);
  if (best.length === 0 && !fresh) {
    board = await reload();
    best = choose(board, req, last, limit);
  }
  const b = board;
  return best.map((seat) => ({
    agent: { id: seat.userid, nickname: seat.nickname },
    settle(now) {
      if (!now) {
        // Not ready any more, or full: another node (or path) changed it. Left out until a reload.
        b.seats.delete(seat.userid);
        seat.gone = true;
        return;
      }
      seat.users = now.users;
      seat.maxusers = now.maxusers;
    },
  }));
}

/** Whether `a` comes before `b` in routing order. */
function before(a: Seat, b: Seat, req: PickRequest, last: string | null): boolean {
  if (last && (a.userid === last) !== (b.userid === last)) return a.userid === last;
  if (req.distribution === 'least-busy') {
    const la = a.users / a.maxusers;
    const lb = b.users / b.maxusers;
    if (la !== lb) return la < lb;
  }
  if (a.users !== b.users) return a.users < b.users;
  if (a.lastidle !== b.lastidle) return a.lastidle < b.lastidle;
  return a.userid < b.userid;
}

/** Top `limit` by routing order in one pass (no sort of the whole tenant). */
function choose(board: Board, req: PickRequest, last: string | null, limit: number): Seat[] {
  const top: Seat[] = [];
  const list = board.list;
  for (let n = 0; n < list.length; n++) {
    const s = list[n]!;
    if (s.users >= s.maxusers || s.gone) continue;
    if (req.only && s.userid !== req.only) continue;
    if (req.organ && !s.organs.has(req.organ)) continue;
    if (top.length === limit && !before(s, top[limit - 1]!, req, last)) continue;
    let i = Math.min(top.length, limit - 1);
    top[i] = s;
    while (i > 0 && before(s, top[i - 1]!, req, last)) {
      top[i] = top[i - 1]!;
      top[i - 1] = s;
      i--;
    }
  }
  return top;
}

/** After a committed seat release on this node: the agent has one chat less. */
export function seatFreed(db: Db, orgi: string, userid: string, now: number): void {
  const seat = boards.get(db)?.get(orgi)?.seats.get(userid);
  if (!seat || seat.users === 0) return;
  seat.users--;
  if (seat.users === 0) seat.lastidle = now;
}

/** After a change the board cannot follow (agent state, transfer): the next pick reads afresh. */
export function forgetSeats(db: Db, orgi: string): void {
  generation++;
  boards.get(db)?.delete(orgi);
}
