import { describe, expect, it } from 'vitest';
import { canInvite, canTalk, chatTag, formatDuration, inviteTag, safeHref, shortUrl } from './model';

describe('tourist model', () => {
  it('formats durations compactly', () => {
    expect(formatDuration(-5)).toBe('0s');
    expect(formatDuration(12_400)).toBe('12s');
    expect(formatDuration(185_000)).toBe('3m 05s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
  });

  it('links only http(s) URLs and shortens them', () => {
    expect(safeHref('https://a.com/x')).toBe('https://a.com/x');
    expect(safeHref('javascript:alert(1)')).toBeUndefined();
    expect(shortUrl('https://shop.example.com/p?id=1')).toBe('shop.example.com/p?id=1');
    expect(shortUrl('not a url')).toBe('not a url');
  });

  it('maps chat and invite states', () => {
    expect(chatTag({ chat: 'inservice', agentname: 'Ann' })).toEqual({
      key: 'tourist.chat.with',
      color: 'green',
      agent: 'Ann',
    });
    expect(chatTag({ chat: 'inqueue', agentname: '' }).key).toBe('tourist.chat.inqueue');
    expect(chatTag({ chat: 'none', agentname: '' }).key).toBe('tourist.chat.none');
    expect(inviteTag({ chat: 'none', invitestatus: 'sent' })).toBe('tourist.invited');
    expect(inviteTag({ chat: 'inservice', invitestatus: 'accept' })).toBeNull();
    expect(inviteTag({ chat: 'none', invitestatus: 'default' })).toBeNull();
    expect(canInvite({ online: true, chat: 'none' })).toBe(true);
    expect(canInvite({ online: false, chat: 'none' })).toBe(false);
    expect(canInvite({ online: true, chat: 'inqueue' })).toBe(false);
    expect(canTalk({ chat: 'inservice' })).toBe(true);
    // A visitor whose chat is over has chatted (not "none") and may be invited again.
    expect(chatTag({ chat: 'end', agentname: 'Ann' }).key).toBe('tourist.chat.end');
    expect(canInvite({ online: true, chat: 'end' })).toBe(true);
    expect(inviteTag({ chat: 'end', invitestatus: 'refuse' })).toBe('tourist.refused');
  });
});
