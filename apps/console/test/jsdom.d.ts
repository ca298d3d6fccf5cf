// jsdom ships no types and @types/jsdom is not installed; this is the little the test environment uses.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis & { close(): void };
  }
}
