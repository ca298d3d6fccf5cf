import { describe, expect, it } from 'vitest';
import { sniff } from './sniff.js';
import { b, SAMPLES } from './media-fixtures.js';

describe('sniff (content type from the first bytes)', () => {
  it('recognises each media type the product shows inline', () => {
    expect(sniff(SAMPLES.png)).toBe('image/png');
    expect(sniff(SAMPLES.jpeg)).toBe('image/jpeg');
    expect(sniff(SAMPLES.gif)).toBe('image/gif');
    expect(sniff(b('GIF87a'))).toBe('image/gif');
    expect(sniff(SAMPLES.webp)).toBe('image/webp');
    expect(sniff(SAMPLES.mp3Id3)).toBe('audio/mpeg');
    expect(sniff(SAMPLES.mp3Frame)).toBe('audio/mpeg');
    expect(sniff(SAMPLES.ogg)).toBe('audio/ogg');
    expect(sniff(SAMPLES.mp4)).toBe('video/mp4');
    expect(sniff(SAMPLES.webm)).toBe('video/webm');
  });

  it('calls every script-bearing or text type application/octet-stream', () => {
    for (const text of [
      '<!doctype html><script>alert(1)</script>',
      '<html><body onload=alert(1)>',
      '<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>',
      '<svg onload=alert(1)>',
      'fetch("/api/user/save",{method:"POST"})',
      '%PDF-1.7',
      '',
    ])
      expect(sniff(Buffer.from(text)), text).toBe('application/octet-stream');
  });

  it('is not fooled by near misses', () => {
    // RIFF that is not WebP (a WAV file), Matroska that is not WebM, QuickTime, AAC ADTS, a bare FF byte.
    expect(sniff(b('RIFF', [0, 0, 0, 0], 'WAVEfmt '))).toBe('application/octet-stream');
    const mkv = b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x82, 0x88], 'matroska');
    expect(sniff(mkv)).toBe('application/octet-stream');
    expect(sniff(b([0, 0, 0, 0x14], 'ftypqt  '))).toBe('application/octet-stream');
    expect(sniff(b([0xff, 0xf1, 0x50, 0x80]))).toBe('application/octet-stream');
    expect(sniff(b([0xff]))).toBe('application/octet-stream');
    // A PNG signature cut short, and HTML behind a PNG-looking prefix, are not images.
    expect(sniff(b([0x89, 0x50, 0x4e, 0x47]))).toBe('application/octet-stream');
    expect(sniff(b('<html>', [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(
      'application/octet-stream',
    );
  });
});
