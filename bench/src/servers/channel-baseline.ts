/**
 * B11 baseline: a bare node:http handler doing what a platform push needs at the least — the same
 * msg_signature check, AES decrypt and XML read as kefu (the app's own functions) — then an emit to the
 * agent socket; and an agent `message` forwarded at once to the platform's custom/send. No storage,
 * no routing, no queue.
 */
import { createServer } from 'node:http';
import { Server } from 'socket.io';
import {
  decryptMessage,
  sameSignature,
  wechatSignature,
} from '../../../apps/server/src/modules/channels/crypto/wechat-crypto.js';
import { parseXml, xmlText } from '../../../apps/server/src/modules/channels/wire.js';

const { PORT, TOKEN = '', AESKEY = '', APPID = '', SECRET = '', FAKE = '' } = process.env;
let accessToken = '';

const http = createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    const u = new URL(req.url ?? '/', 'http://x');
    const q = Object.fromEntries(u.searchParams);
    const body = Buffer.concat(chunks).toString('utf8');
    try {
      const enc = xmlText(parseXml(body), 'Encrypt');
      if (!sameSignature(q.msg_signature, wechatSignature(TOKEN, q.timestamp ?? '', q.nonce ?? '', enc))) {
        res.statusCode = 403;
        return res.end('');
      }
      const f = parseXml(decryptMessage(AESKEY, enc, APPID).message);
      agents.emit('message', { user: xmlText(f, 'FromUserName'), message: xmlText(f, 'Content') });
      res.end('success');
    } catch {
      res.statusCode = 400;
      res.end('');
    }
  });
});
const io = new Server(http, { serveClient: false });
const agents = io.of('/im/agent');
agents.on('connection', (s) => {
  s.on('message', (p: { touser: string; message: string }, ack?: (r: unknown) => void) => {
    ack?.({ success: true });
    void fetch(`${FAKE}/cgi-bin/message/custom/send?access_token=${accessToken}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ touser: p.touser, msgtype: 'text', text: { content: p.message } }),
    });
  });
});

const t = (await (
  await fetch(`${FAKE}/cgi-bin/stable_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'client_credential', appid: APPID, secret: SECRET }),
  })
).json()) as { access_token: string };
accessToken = t.access_token;
http.listen(Number(PORT), '127.0.0.1');
