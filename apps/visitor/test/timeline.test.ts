import { describe, expect, it } from 'vitest';
import * as tl from '../src/lib/timeline.js';
import { messageDto as msg } from './fixtures.js';

const seqs = (x: tl.Timeline) => x.entries.flatMap((e) => (e.kind === 'msg' ? [e.m.seq] : []));

describe('timeline merge', () => {
  it('keeps seq order and drops duplicates by id and by (conversation, seq)', () => {
    let x = tl.follow(tl.emptyTimeline(), 's1');
    for (const s of [1, 3, 2, 3, 1]) x = tl.mergeMessage(x, msg(s));
    x = tl.mergeMessage(x, msg(2, { id: 'other-id' }));
    expect(seqs(x)).toEqual([1, 2, 3]);
    expect(x.lastSeq).toBe(3);
  });

  it('a catch-up after reconnect adds only what is missing', () => {
    let x = tl.follow(tl.emptyTimeline(), 's1');
    x = tl.mergeMessage(x, msg(1));
    x = tl.mergeMessage(x, msg(2));
    for (const s of [2, 3, 4]) x = tl.mergeMessage(x, msg(s));
    expect(seqs(x)).toEqual([1, 2, 3, 4]);
  });

  it('seq restarts per conversation; a new conversation goes after the old one', () => {
    let x = tl.follow(tl.emptyTimeline(), 's1');
    x = tl.mergeMessage(x, msg(1));
    x = tl.mergeMessage(x, msg(2));
    x = tl.follow(x, 's2');
    expect(x.lastSeq).toBe(0);
    x = tl.mergeMessage(x, msg(1, { id: 'n1', agentserviceid: 's2' }));
    expect(x.entries.map((e) => e.key)).toEqual(['m:m1', 'm:m2', 'm:n1']);
    expect(x.lastSeq).toBe(1);
  });

  it('notices keep arrival order and replace by key', () => {
    let x = tl.addNotice(tl.emptyTimeline(), 'queue:s1', 'place 3', 1);
    x = tl.addNotice(x, 'welcome', 'hi', 2);
    x = tl.addNotice(x, 'queue:s1', 'place 2', 3);
    expect(x.entries.map((e) => (e.kind === 'notice' ? e.text : ''))).toEqual(['hi', 'place 2']);
    expect(tl.removeNotice(x, 'queue:s1').entries).toHaveLength(1);
  });
});

describe('outbox', () => {
  const out = { msgtype: 'text' as const, message: 'hi', attachmentid: null, filename: null, filesize: null };

  it('pending until the ack, then replaced by the stored message (same clientId)', () => {
    let x = tl.follow(tl.emptyTimeline(), 's1');
    x = tl.addOutgoing(x, { ...out, clientId: 'c1', createtime: 1 });
    x = tl.addOutgoing(x, { ...out, clientId: 'c1', createtime: 1 });
    expect(x.outbox).toHaveLength(1);
    expect(x.outbox[0].state).toBe('pending');
    x = tl.ackOutgoing(x, msg(1, { clientId: 'c1', calltype: 'in' }));
    expect(x.outbox).toHaveLength(0);
    expect(seqs(x)).toEqual([1]);
  });

  it('a failed send stays in the outbox for a resend with the same clientId', () => {
    let x = tl.addOutgoing(tl.emptyTimeline(), { ...out, clientId: 'c9', createtime: 1 });
    x = tl.setOutgoingState(x, 'c9', 'failed');
    expect(tl.unacked(x).map((o) => [o.clientId, o.state])).toEqual([['c9', 'failed']]);
  });

  it('the own message arriving as a catch-up event also clears the pending copy', () => {
    let x = tl.addOutgoing(tl.follow(tl.emptyTimeline(), 's1'), { ...out, clientId: 'c5', createtime: 1 });
    x = tl.mergeMessage(x, msg(5, { clientId: 'c5', calltype: 'in' }));
    x = tl.ackOutgoing(x, msg(5, { clientId: 'c5', calltype: 'in' }));
    expect(x.outbox).toEqual([]);
    expect(seqs(x)).toEqual([5]);
  });
});

describe('withdraw and read', () => {
  it('withdrawn messages lose their text and a stale copy cannot bring it back', () => {
    let x = tl.mergeMessage(tl.follow(tl.emptyTimeline(), 's1'), msg(1));
    x = tl.withdrawMessage(x, { id: 'm1', agentserviceid: 's1', seq: 1, usession: 'v' });
    x = tl.mergeMessage(x, msg(1));
    const e = x.entries[0];
    expect(e.kind === 'msg' && [e.m.withdrawn, e.m.datastatus, e.m.message]).toEqual([true, 1, '']);
  });

  it('read state follows the highest read seq of the current conversation', () => {
    let x = tl.follow(tl.emptyTimeline(), 's1');
    x = tl.mergeMessage(x, msg(1, { calltype: 'in' }));
    x = tl.mergeMessage(x, msg(2, { calltype: 'in' }));
    x = tl.markRead(x, 's1', 1);
    x = tl.markRead(x, 's1', 0);
    x = tl.markRead(x, 'other', 9);
    expect(x.readSeq).toBe(1);
    const [a, b] = x.entries.map((e) => (e.kind === 'msg' ? tl.isReadByAgent(x, e.m) : null));
    expect([a, b]).toEqual([true, false]);
  });

  it('counts agent messages after the seen seq as unread', () => {
    let x = tl.follow(tl.emptyTimeline(), 's1');
    x = tl.mergeMessage(x, msg(1));
    x = tl.mergeMessage(x, msg(2, { calltype: 'in' }));
    x = tl.mergeMessage(x, msg(3));
    expect(tl.unreadFromAgent(x, 0)).toBe(2);
    expect(tl.unreadFromAgent(x, 2)).toBe(1);
  });
});
