import { describe, expect, it } from 'vitest';
import { EMBED_TAG, isEmbedMessage } from '@kefu/protocol';
import { acceptEmbed, originOf } from '../src/lib/origin.js';

describe('postMessage checks', () => {
  const frame = {};
  const ok = { kefu: EMBED_TAG, type: 'unread', count: 2 };

  it('accepts only the expected origin and window', () => {
    expect(
      acceptEmbed({ origin: 'https://kf.example', source: frame, data: ok }, 'https://kf.example', frame),
    ).toEqual(ok);
    expect(
      acceptEmbed({ origin: 'https://evil.example', source: frame, data: ok }, 'https://kf.example', frame),
    ).toBeNull();
    expect(
      acceptEmbed({ origin: 'https://kf.example', source: {}, data: ok }, 'https://kf.example', frame),
    ).toBeNull();
    expect(acceptEmbed({ origin: '', source: frame, data: ok }, '', frame)).toBeNull();
    expect(acceptEmbed({ origin: 'null', source: frame, data: ok }, 'null', frame)).toBeNull();
    expect(acceptEmbed({ origin: '*', source: frame, data: ok }, '*', frame)).toBeNull();
  });

  it('rejects malformed payloads', () => {
    expect(isEmbedMessage({ kefu: 'other', type: 'open' })).toBe(false);
    expect(isEmbedMessage({ kefu: EMBED_TAG, type: 'nope' })).toBe(false);
    expect(isEmbedMessage({ kefu: EMBED_TAG, type: 'unread', count: '3' })).toBe(false);
    expect(isEmbedMessage({ kefu: EMBED_TAG, type: 'page', url: 1, title: '' })).toBe(false);
    expect(isEmbedMessage({ kefu: EMBED_TAG, type: 'page', url: 'https://a', title: 't' })).toBe(true);
    expect(isEmbedMessage('open')).toBe(false);
    expect(isEmbedMessage(null)).toBe(false);
  });

  it('derives origins from script URLs', () => {
    expect(originOf('https://kf.example:8443/im/loader.js?x=1')).toBe('https://kf.example:8443');
    expect(originOf('javascript:alert(1)')).toBe('');
    expect(originOf('not a url')).toBe('');
  });
});
