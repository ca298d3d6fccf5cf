import type { SensitiveAction, SensitiveKind } from '@kefu/protocol';
import type { Db } from '../../platform/db/database.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { Matcher, type Hits } from './matcher.js';
import * as repo from './sensitive.repository.js';

/** org_setting name whose version follows every change of a tenant's word lists. */
export const LISTS_SETTING = 'sensitive.lists';

interface Lists {
  agent: Matcher;
  user: Matcher;
  /** Words in both lists (0: nothing to scan). */
  size: number;
  version: number;
}

/**
 * A tenant's two automata, built once from the stored words and kept until a change of its lists is
 * announced (by this node or another one, see OrgSettings). Then they are dropped and rebuilt at once: a
 * message arriving meanwhile waits for the new automata, so a word applies from the next message on.
 */
export class Screen {
  private readonly ready = new Map<string, Lists>();
  private readonly loading = new Map<string, Promise<Lists>>();
  private gen = 0;

  constructor(private readonly db: Db) {
    orgSettings(db).onChange((c) => {
      if (c && c.name !== LISTS_SETTING) return;
      this.gen++;
      const tenants = c ? [c.orgi] : [...this.ready.keys()];
      for (const orgi of tenants) {
        if (!this.ready.delete(orgi)) continue;
        this.load(orgi).catch((err: unknown) => console.error('sensitive lists rebuild failed', err));
      }
    });
  }

  /** What a text hits in a list: synchronous once the tenant's lists are built (the usual case). */
  scan(orgi: string, kind: SensitiveKind, text: string): Hits | null | Promise<Hits | null> {
    const lists = this.ready.get(orgi);
    if (lists) return lists.size === 0 ? null : lists[kind].scan(text);
    return this.load(orgi).then((l) => l[kind].scan(text));
  }

  /**
   * Builds the lists of every tenant that has words, one after another, so the first messages after a
   * start do not wait for a build (started once the server listens; it does not delay the start).
   */
  async preload(): Promise<void> {
    for (const orgi of await repo.tenantsWithWords(this.db.kysely)) await this.load(orgi);
  }

  /** Builds a tenant's automata; concurrent callers share one build. */
  load(orgi: string): Promise<Lists> {
    const pending = this.loading.get(orgi);
    if (pending) return pending;
    const p = this.buildCurrent(orgi).finally(() => this.loading.delete(orgi));
    this.loading.set(orgi, p);
    return p;
  }

  /** A build during which a change was announced may miss it: then build again. */
  private async buildCurrent(orgi: string): Promise<Lists> {
    for (;;) {
      const gen = this.gen;
      const lists = await this.build(orgi);
      if (gen === this.gen) {
        this.ready.set(orgi, lists);
        return lists;
      }
    }
  }

  private async build(orgi: string): Promise<Lists> {
    const { version } = await orgSettings(this.db).get(orgi, LISTS_SETTING, () => null);
    const words = await repo.wordsForMatching(this.db.kysely, orgi);
    const of = (kind: SensitiveKind) =>
      new Matcher(
        words
          .filter((w) => w.kind === kind)
          .map((w) => ({
            word: w.word,
            norm: w.norm,
            action: w.action as SensitiveAction,
            pinyin: w.pinyin ? w.pinyin.split(' ') : [],
          })),
      );
    const agent = of('agent');
    const user = of('user');
    return { agent, user, version, size: agent.size + user.size };
  }
}

const screens = new WeakMap<Db, Screen>();

export function screenOf(db: Db): Screen {
  let s = screens.get(db);
  if (!s) screens.set(db, (s = new Screen(db)));
  return s;
}
