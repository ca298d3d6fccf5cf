/**
 * Clock + timers behind one interface so tests can drive time (ManualScheduler) while sockets and the
 * database keep real timers.
 */
export interface Scheduler {
  now(): number;
  every(ms: number, task: () => Promise<void> | void): () => void;
  after(ms: number, task: () => Promise<void> | void): () => void;
}

const safe = (task: () => Promise<void> | void) => () => {
  try {
    void Promise.resolve(task()).catch((err: unknown) => console.error('scheduled task failed', err));
  } catch (err) {
    console.error('scheduled task failed', err);
  }
};

export const realScheduler: Scheduler = {
  now: () => Date.now(),
  every(ms, task) {
    const h = setInterval(safe(task), ms);
    h.unref();
    return () => clearInterval(h);
  },
  after(ms, task) {
    const h = setTimeout(safe(task), ms);
    h.unref();
    return () => clearTimeout(h);
  },
};

interface Entry {
  at: number;
  every: number | null;
  task: () => Promise<void> | void;
  cancelled: boolean;
}

/** Test scheduler: time moves only through advance(), which runs due tasks in time order and awaits them. */
export class ManualScheduler implements Scheduler {
  private t: number;
  private entries: Entry[] = [];
  constructor(start = Date.now()) {
    this.t = start;
  }
  now(): number {
    return this.t;
  }
  every(ms: number, task: () => Promise<void> | void): () => void {
    return this.add({ at: this.t + ms, every: ms, task, cancelled: false });
  }
  after(ms: number, task: () => Promise<void> | void): () => void {
    return this.add({ at: this.t + ms, every: null, task, cancelled: false });
  }
  private add(e: Entry): () => void {
    this.entries.push(e);
    return () => {
      e.cancelled = true;
    };
  }
  async advance(ms: number): Promise<void> {
    const end = this.t + ms;
    for (;;) {
      this.entries = this.entries.filter((e) => !e.cancelled);
      const due = this.entries.filter((e) => e.at <= end).sort((a, b) => a.at - b.at)[0];
      if (!due) break;
      this.t = Math.max(this.t, due.at);
      if (due.every) due.at += due.every;
      else due.cancelled = true;
      await due.task();
    }
    this.t = end;
  }
}
