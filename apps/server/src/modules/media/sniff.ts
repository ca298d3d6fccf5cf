import { OPAQUE_TYPE } from '@kefu/protocol';

/** How many leading bytes sniff() looks at (read that much of a stored file to type it). */
export const SNIFF_BYTES = 64;

const ascii = (b: Uint8Array, at: number, text: string): boolean => {
  if (b.length < at + text.length) return false;
  for (let i = 0; i < text.length; i++) if (b[at + i] !== text.charCodeAt(i)) return false;
  return true;
};

const bytes = (b: Uint8Array, at: number, sig: readonly number[]): boolean =>
  b.length >= at + sig.length && sig.every((v, i) => b[at + i] === v);

/**
 * An MPEG audio frame header (no ID3 tag in front): 11 sync bits, a real version and layer, a bitrate
 * index other than "free"/"bad" and a defined sample rate. Layer bits 00 are reserved, which also keeps
 * AAC's ADTS headers (FFF1/FFF9) out.
 */
function mpegFrame(b: Uint8Array): boolean {
  if (b.length < 4 || b[0] !== 0xff || (b[1]! & 0xe0) !== 0xe0) return false;
  const version = (b[1]! >> 3) & 3;
  const layer = (b[1]! >> 1) & 3;
  const bitrate = b[2]! >> 4;
  const rate = (b[2]! >> 2) & 3;
  return version !== 1 && layer !== 0 && bitrate !== 0 && bitrate !== 15 && rate !== 3;
}

/** Matroska's EBML header names its DocType near the start; WebM says "webm". */
function ebmlDocType(b: Uint8Array): string | null {
  if (!bytes(b, 0, [0x1a, 0x45, 0xdf, 0xa3])) return null;
  for (let i = 4; i + 2 < b.length; i++) {
    if (b[i] === 0x42 && b[i + 1] === 0x82) {
      const len = b[i + 2]! & 0x7f; // one-byte size (0x80 | n), as every muxer writes it
      return String.fromCharCode(...b.subarray(i + 3, i + 3 + len));
    }
  }
  return '';
}

/**
 * The content type of a file from its first bytes (at least SNIFF_BYTES when the file is that long).
 * Only media types the product shows inline are recognised; everything else, text of any kind included,
 * is application/octet-stream: what a client claims about a file is never asked.
 */
export function sniff(head: Uint8Array): string {
  const b = head;
  if (bytes(b, 0, [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])) return 'image/png';
  if (bytes(b, 0, [0xff, 0xd8, 0xff])) return 'image/jpeg';
  if (ascii(b, 0, 'GIF87a') || ascii(b, 0, 'GIF89a')) return 'image/gif';
  if (ascii(b, 0, 'RIFF') && ascii(b, 8, 'WEBP')) return 'image/webp';
  if (ascii(b, 0, 'OggS')) return 'audio/ogg';
  if (ascii(b, 0, 'ID3') || mpegFrame(b)) return 'audio/mpeg';
  if (ascii(b, 4, 'ftyp')) return ascii(b, 8, 'qt  ') ? OPAQUE_TYPE : 'video/mp4';
  const doc = ebmlDocType(b);
  if (doc === 'webm') return 'video/webm';
  return OPAQUE_TYPE;
}
