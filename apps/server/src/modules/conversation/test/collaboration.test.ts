import { describe, expect, it } from 'vitest';
import type {
  AgentUserDto,
  CollaborationLeave,
  MessageDto,
  OverNotice,
  VisitorNewResult,
} from '@kefu/protocol';
import {
  addAccessPoint,
  api,
  call,
  collect,
  next,
  ok,
  socketAgent,
  until,
  visitorReady,
  type LiveServer,
} from '../../../../test/live.js';
import { perTest } from '../../../../test/factories.js';

const pt = perTest();
const sockets = pt.sockets;
let srv: LiveServer | undefined;

const agent = (s: LiveServer, ready: boolean) => socketAgent(s, sockets, { ready });

/** A chat owned by `owner` with `colleague` invited; the colleague also joined the service room. */
async function invited(s: LiveServer) {
  const appid = await addAccessPoint(s.tdb);
  const owner = await agent(s, true);
  const v = await visitorReady(s.url, appid);
  sockets.push(v.s);
  const sid = ok(await call<VisitorNewResult>(v.s, 'new')).agentserviceid;
  const colleague = await agent(s, false);
  const au = (await api<{ agentUserList: AgentUserDto[] }>(s, owner.token, '/api/talk/agentuser')).json.data
    .agentUserList[0]!;
  const got = next<AgentUserDto>(colleague.sock, 'collaboration_new');
  ok((await api(s, owner.token, '/api/talk/invite', { agentuserid: au.id, userid: colleague.id })).json);
  const dto = await got;
  expect(dto).toMatchObject({ id: au.id, agentserviceid: sid, collabora: 1 });
  ok(await call(colleague.sock, 'collaboration', { id: au.id }));
  return { appid, owner, v, sid, au, colleague };
}

const collaborators = (s: LiveServer, sid: string) =>
  s.tdb.db.kysely
    .selectFrom('agent_collaborator')
    .select('userid')
    .where('agentserviceid', '=', sid)
    .execute()
    .then((r) => r.map((x) => x.userid));

describe('collaboration', () => {
  it('invite sends collaboration_new; the end sends collaboration_over', async () => {
    srv = await pt.live();
    const { owner, sid, au, colleague } = await invited(srv);
    const over = next<OverNotice>(colleague.sock, 'collaboration_over');
    ok((await api(srv, owner.token, `/api/talk/end?agentserviceid=${sid}`)).json);
    expect(await over).toMatchObject({ agentuserid: au.id, agentserviceid: sid, endby: 'agent' });
  });

  it('an accepted transfer removes collaborators: collaboration_leave, no more messages', async () => {
    srv = await pt.live();
    const { owner, v, sid, au, colleague } = await invited(srv);
    const target = await agent(srv, true);
    const atColleague = collect<MessageDto>(colleague.sock, 'message');
    await api(srv, owner.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${target.id}`);
    const left = next<CollaborationLeave>(colleague.sock, 'collaboration_leave');
    ok((await api(srv, target.token, `/api/talk/transfer/accept?agentuserid=${au.id}`)).json);
    expect(await left).toEqual({ agentuserid: au.id, agentserviceid: sid });
    expect(await collaborators(srv, sid)).toEqual([]);
    // neither the collaborator row nor the service room route messages to it any more
    const seen = collect<MessageDto>(target.sock, 'message');
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-after-move', message: 'after' }));
    await until(() => seen.some((m) => m.message === 'after'));
    await new Promise((r) => setTimeout(r, 50));
    expect(atColleague.map((m) => m.message)).not.toContain('after');
    const refused = await call(colleague.sock, 'message', {
      touser: v.userid,
      agentserviceid: sid,
      clientId: 'c-colleague-late',
      message: 'late',
    });
    expect(refused.success).toBe(false);
  });

  it('a collaborator who takes the transfer gets new, not collaboration_leave', async () => {
    srv = await pt.live();
    const { owner, sid, au, colleague } = await invited(srv);
    ok(await call(colleague.sock, 'agentstatus', { status: 'ready' }));
    const leaves = collect<CollaborationLeave>(colleague.sock, 'collaboration_leave');
    const fresh = next<AgentUserDto>(colleague.sock, 'new');
    await api(srv, owner.token, `/api/talk/transfer?agentuserid=${au.id}&agentno=${colleague.id}`);
    ok((await api(srv, colleague.token, `/api/talk/transfer/accept?agentuserid=${au.id}`)).json);
    expect((await fresh).id).toBe(au.id);
    await new Promise((r) => setTimeout(r, 50));
    expect(leaves).toEqual([]);
    expect(await collaborators(srv, sid)).toEqual([]);
  });

  it('invite/leave: the collaborator leaves; a non-collaborator gets an error and nothing changes', async () => {
    srv = await pt.live();
    const { owner, v, sid, au, colleague } = await invited(srv);
    const stranger = await agent(srv, false);
    for (const who of [stranger, owner]) {
      const r = await api(srv, who.token, '/api/talk/invite/leave', { agentuserid: au.id });
      expect(r.json).toMatchObject({ success: false, key: 'not_collaborator' });
    }
    const missing = await api(srv, colleague.token, '/api/talk/invite/leave?agentuserid=nope');
    expect(missing.json).toMatchObject({ success: false, key: 'conversation_not_found' });
    expect(await collaborators(srv, sid)).toEqual([colleague.id]);
    const atColleague = collect<MessageDto>(colleague.sock, 'message');
    const left = next<CollaborationLeave>(colleague.sock, 'collaboration_leave');
    ok((await api(srv, colleague.token, `/api/talk/invite/leave?agentuserid=${au.id}`)).json);
    expect(await left).toEqual({ agentuserid: au.id, agentserviceid: sid });
    expect(await collaborators(srv, sid)).toEqual([]);
    // out of the service room too: the next visitor message reaches the owner only
    const seen = collect<MessageDto>(owner.sock, 'message');
    ok(await call<MessageDto>(v.s, 'message', { clientId: 'c-after-leave', message: 'after' }));
    await until(() => seen.some((m) => m.message === 'after'));
    await new Promise((r) => setTimeout(r, 50));
    expect(atColleague).toEqual([]);
    // leaving twice is refused; the end no longer tells it
    const again = await api(srv, colleague.token, '/api/talk/invite/leave', { agentuserid: au.id });
    expect(again.json).toMatchObject({ success: false, key: 'not_collaborator' });
    const overs = collect<OverNotice>(colleague.sock, 'collaboration_over');
    ok((await api(srv, owner.token, `/api/talk/end?agentserviceid=${sid}`)).json);
    await new Promise((r) => setTimeout(r, 50));
    expect(overs).toEqual([]);
  });
});
