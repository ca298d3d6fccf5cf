/**
 * Counts login attempts per key (IP + username) in a sliding window. The interface is async so a
 * Redis-backed limiter can replace the in-memory one when several server processes share traffic.
 */
export interface LoginLimiter {
  /** Records one attempt; false when the key has already used its allowance in the window. */
  hit(key: string): Promise<boolean>;
}

export class MemoryLoginLimiter implements LoginLimiter {
  private readonly attempts = new Map<string, number[]>();
  private hits = 0;

  constructor(
    private readonly limit: number,
    private readonly windowMs = 60_000,
    private readonly now: () => number = Date.now,
  ) {}

  async hit(key: string): Promise<boolean> {
    const t = this.now();
    const recent = (this.attempts.get(key) ?? []).filter((at) => t - at < this.windowMs);
    const allowed = recent.length < this.limit;
    // Refused attempts are not recorded: a locked-out key unlocks one window after its last allowed try.
    if (allowed) recent.push(t);
    this.attempts.set(key, recent);
    if (++this.hits % 1000 === 0) this.sweep(t);
    return allowed;
  }

  /** Drops idle keys so a spray of usernames cannot grow the map without bound. */
  private sweep(t: number): void {
    for (const [key, times] of this.attempts) {
      if (times.every((at) => t - at >= this.windowMs)) this.attempts.delete(key);
    }
  }
}
