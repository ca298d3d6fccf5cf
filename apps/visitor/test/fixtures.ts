import type { MessageDto } from '@kefu/protocol';

/** A stored message as the server sends it (an agent's reply in conversation s1 unless overridden). */
export const messageDto = (seq: number, over: Partial<MessageDto> = {}): MessageDto => ({
  id: `m${seq}`,
  agentserviceid: 's1',
  usession: 'v',
  seq,
  clientId: `c${seq}`,
  type: 'message',
  msgtype: 'text',
  calltype: 'out',
  userid: 'a',
  username: 'Agent',
  touser: 'v',
  message: `hello ${seq}`,
  puremsg: '',
  translatemsg: '',
  attachmentid: null,
  filename: null,
  filesize: null,
  datastatus: 0,
  withdrawn: false,
  readstatus: 0,
  tokenum: 0,
  collabora: 0,
  createtime: 1000 + seq,
  ...over,
});
