import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { z } from 'zod';
import {
  agentUserIdQuery,
  blackBody,
  chatMessageQuery,
  endChatQuery,
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
import { withInput } from '../../platform/http/route.js';
import type { Engine } from './engine.js';
import * as talk from './talk.service.js';
import { systemLinesOf } from './system-lines.js';
import { agentRead, withdraw } from './message.service.js';
import { acceptTransfer, refuseTransfer, requestTransfer } from './transfer.service.js';

/** /api/talk/* — the chat console's conversation calls (code A01). Thin: parse, call, envelope. */
export function talkRoutes(app: FastifyInstance, e: Engine): void {
  const guard = { preHandler: requires('A01') };
  const get = <S extends z.ZodType>(
    path: string,
    schema: S,
    run: (req: FastifyRequest, q: z.output<S>) => Promise<unknown>,
  ) =>
    app.get(`/api/talk/${path}`, { ...guard, ...withInput(schema, async (req, q) => ok(await run(req, q))) });
  const post = <S extends z.ZodType>(
    path: string,
    schema: S,
    run: (req: FastifyRequest, b: z.output<S>) => Promise<unknown>,
  ) =>
    app.post(`/api/talk/${path}`, {
      ...guard,
      ...withInput(schema, async (req, b) => ok(await run(req, b))),
    });

  get('agentuser', talkAgentUserQuery, (req, q) => talk.agentUserList(e, principal(req), q.talksort));
  get('data', talkDataQuery, (req, q) => talk.chatData(e, principal(req), q));
  app.get('/api/talk/inqueneuser', guard, async (req) => ok(await talk.queueList(e, principal(req))));
  get('end/agentusers', endedListQuery, (req, q) => talk.endedList(e, principal(req), q));
  get('chatMessage', chatMessageQuery, (req, q) => talk.messages(e, principal(req), q));
  get('end/message', chatMessageQuery, (req, q) => talk.messages(e, principal(req), q));
  get('systemLines', serviceIdQuery, async (req, { agentserviceid }) =>
    systemLinesOf(e, await talk.followed(e, principal(req), agentserviceid)),
  );
  get('withdraw', withdrawSchema, (req, { id }) => withdraw(e, principal(req).id, id));
  get('readmsg', readMsgQuery, async (req, { userid }) => {
    await agentRead(e, await talk.openOfVisitor(e, principal(req), userid));
    return null;
  });
  get('read', serviceIdQuery, async (req, { agentserviceid }) => {
    await agentRead(e, await talk.followed(e, principal(req), agentserviceid));
    return null;
  });
  get('transfer/form', transferFormQuery, (req, { organ }) => talk.transferForm(e, principal(req), organ));
  get('transfer', transferQuery, (req, q) => requestTransfer(e, principal(req).id, q));
  get('transfer/accept', agentUserIdQuery, (req, { agentuserid }) =>
    acceptTransfer(e, principal(req).id, agentuserid),
  );
  get('transfer/refuse', agentUserIdQuery, async (req, { agentuserid }) => {
    await refuseTransfer(e, principal(req).id, agentuserid);
    return null;
  });
  get('end', endChatQuery, async (req, q) => {
    await talk.endByAgent(e, principal(req), q);
    return null;
  });
  get('statf', serviceIdQuery, async (req, { agentserviceid }) => {
    await talk.statf(e, principal(req), agentserviceid);
    return null;
  });
  post('tagrelation', tagRelationBody, async (req, b) => {
    await talk.tagRelation(e, principal(req), b);
    return null;
  });
  post('invite', inviteBody, async (req, b) => {
    await talk.invite(e, principal(req), b);
    return null;
  });
  const leave = async (req: FastifyRequest, { agentuserid }: { agentuserid: string }) => {
    await talk.leaveCollaboration(e, principal(req), agentuserid);
    return null;
  };
  get('invite/leave', agentUserIdQuery, leave);
  post('invite/leave', agentUserIdQuery, leave);
  post('black', blackBody, async (req, b) => {
    await talk.black(e, principal(req), b);
    return null;
  });
}
