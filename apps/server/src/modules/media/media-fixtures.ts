import type { LiveServer } from '../../../test/live.js';

/** Test fixtures: the first bytes of real media files, as their encoders write them, and an upload call. */

export const b = (...parts: Array<string | number[]>): Buffer =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'latin1') : Buffer.from(p))));

export const SAMPLES = {
  png: b([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], [0, 0, 0, 13], 'IHDR'),
  jpeg: b([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10], 'JFIF'),
  gif: b('GIF89a', [1, 0, 1, 0]),
  webp: b('RIFF', [0x24, 0, 0, 0], 'WEBPVP8 '),
  mp3Id3: b('ID3', [4, 0, 0, 0, 0, 0, 0]),
  mp3Frame: b([0xff, 0xfb, 0x90, 0x64]),
  ogg: b('OggS', [0, 2, 0, 0]),
  mp4: b([0, 0, 0, 0x20], 'ftypisom', [0, 0, 2, 0]),
  webm: b([0x1a, 0x45, 0xdf, 0xa3, 0x9f, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84], 'webm', [0x42, 0x87]),
} as const;

export const PNG = SAMPLES.png;

export function multipart(filename: string, mime: string, data: Buffer) {
  const boundary = '----kefutest';
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${filename}"\r\nContent-Type: ${mime}\r\n\r\n`,
    ),
    data,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  return { body, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** A multipart upload through the app (the client-declared name and type are what an attacker chooses). */
export async function upload(
  s: Pick<LiveServer, 'app'>,
  url: string,
  auth: Record<string, string>,
  filename: string,
  mime: string,
  data: Buffer,
) {
  const m = multipart(filename, mime, data);
  const res = await s.app.inject({
    method: 'POST',
    url,
    headers: { ...m.headers, ...auth },
    payload: m.body,
  });
  return {
    status: res.statusCode,
    json: res.json<{
      success: boolean;
      data: { id: string; url: string; kind: string; mime: string };
      msg: string;
      key?: string;
      code: number;
    }>(),
  };
}
