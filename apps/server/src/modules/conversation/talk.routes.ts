import type { FastifyInstance, FastifyRequest } from 'fastify';
import {
  agentUserIdQuery,
  blackBody,
  chatMessageQuery,
  endedListQuery,
  inviteBody,
  readMsgQuery,
  serviceIdQuery,
  tagRelationBody,
  talkAgentUserQuery,
  talkDataQuery,
  transferFormQuery,
  transferQuery,
  withdrawSchema,
} from '@kefu/protocol';
import { principal, requires } from '../../platform/auth/guard.js';
import { ok } from '../../platform/http/envelope.js';
import { parse } from '../../platform/http/validate.js';
import type { Engine } from './engine.js';
import * as talk from './talk.service.js';
import { agentRead, withdraw } from './message.service.js';
import { acceptTransfer, refuseTransfer, requestTransfer } from './transfer.service.js';

/** /api/talk/* — the chat console's conversation calls (code A01). Thin: parse, call, envelope. */
export function talkRoutes(app: FastifyInstance, e: Engine): void {
  const guard = { preHandler: requires('A01') };
  const get = (path: string, run: (req: FastifyRequest) => Promise<unknown>) =>
    app.get(`/api/talk/${path}`, guard, async (req) => ok(await run(req)));
  const post = (path: string, run: (req: FastifyRequest) => Promise<unknown>) =>
    app.post(`/api/talk/${path}`, guard, async (req) => ok(await run(req)));

  get('agentuser', (req) =>
    talk.agentUserList(e, principal(req), parse(talkAgentUserQuery, req.query).talksort),
  );
  get('data', (req) => talk.chatData(e, principal(req), parse(talkDataQuery, req.query)));
  get('inqueneuser', (req) => talk.queueList(e, principal(req)));
  get('end/agentusers', (req) => talk.endedList(e, principal(req), parse(endedListQuery, req.query)));
  get('chatMessage', (req) => talk.messages(e, principal(req), parse(chatMessageQuery, req.query)));
  get('end/message', (req) => talk.messages(e, principal(req), parse(chatMessageQuery, req.query)));
  get('withdraw', (req) => withdraw(e, principal(req).id, parse(withdrawSchema, req.query).id));
  get('readmsg', async (req) => {
    const s = await talk.openOfVisitor(e, principal(req), parse(readMsgQuery, req.query).userid);
    await agentRead(e, s);
    return null;
  });
  get('read', async (req) => {
    await agentRead(
      e,
      await talk.followed(e, principal(req), parse(serviceIdQuery, req.query).agentserviceid),
    );
    return null;
  });
  get('transfer/form', (req) =>
    talk.transferForm(e, principal(req), parse(transferFormQuery, req.query).organ),
  );
  get('transfer', (req) => requestTransfer(e, principal(req).id, parse(transferQuery, req.query)));
  get('transfer/accept', (req) =>
    acceptTransfer(e, principal(req).id, parse(agentUserIdQuery, req.query).agentuserid),
  );
  get('transfer/refuse', async (req) => {
    await refuseTransfer(e, principal(req).id, parse(agentUserIdQuery, req.query).agentuserid);
    return null;
  });
  get('end', async (req) => {
    await talk.endByAgent(e, principal(req), req.query as Record<string, unknown>);
    return null;
  });
  get('statf', async (req) => {
    await talk.statf(e, principal(req), parse(serviceIdQuery, req.query).agentserviceid);
    return null;
  });
  post('tagrelation', async (req) => {
    await talk.tagRelation(e, principal(req), parse(tagRelationBody, req.body));
    return null;
  });
  post('invite', async (req) => {
    await talk.invite(e, principal(req), parse(inviteBody, req.body));
    return null;
  });
  const leave = async (req: FastifyRequest) => {
    const { agentuserid } = parse(agentUserIdQuery, req.method === 'GET' ? req.query : req.body);
    await talk.leaveCollaboration(e, principal(req), agentuserid);
    return null;
  };
  get('invite/leave', leave);
  post('invite/leave', leave);
  post('black', async (req) => {
    await talk.black(e, principal(req), parse(blackBody, req.body));
    return null;
  });
}
