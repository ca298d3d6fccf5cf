const MOBILE_UA = /Android|iPhone|iPod|iPad|Mobile|Windows Phone|HarmonyOS|MicroMessenger/i;

/** A phone or tablet user agent, or a viewport too narrow for the floating window. */
export function isMobile(userAgent: string, viewportWidth: number): boolean {
  return MOBILE_UA.test(userAgent) || viewportWidth < 640;
}

/** Coarse OS / browser names for the agent's visitor panel. */
export function describeAgent(ua: string): { osname: string; browser: string } {
  const os = /Windows/i.test(ua)
    ? 'Windows'
    : /iPhone|iPad|iPod/i.test(ua)
      ? 'iOS'
      : /Android/i.test(ua)
        ? 'Android'
        : /Mac OS X/i.test(ua)
          ? 'macOS'
          : /Linux/i.test(ua)
            ? 'Linux'
            : 'Other';
  const browser = /MicroMessenger/i.test(ua)
    ? 'WeChat'
    : /Edg\//.test(ua)
      ? 'Edge'
      : /Firefox\//.test(ua)
        ? 'Firefox'
        : /Chrome\//.test(ua)
          ? 'Chrome'
          : /Safari\//.test(ua)
            ? 'Safari'
            : 'Other';
  return { osname: os, browser };
}
