import UAParser from 'ua-parser-js';

/** Browser and OS names for the login log, e.g. "Chrome 126" / "Windows 10". */
export function describeUserAgent(ua: string): { browser: string; os: string } {
  const r = UAParser(ua);
  const join = (name?: string, version?: string) => [name, version].filter(Boolean).join(' ');
  return { browser: join(r.browser.name, r.browser.major), os: join(r.os.name, r.os.version) };
}
