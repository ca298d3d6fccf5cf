import { KB_LIMITS, type KbSynonymDto } from '@kefu/protocol';
import type { Principal } from '../../platform/auth/principal.js';
import type { Db } from '../../platform/db/database.js';
import { badRequest, notFound } from '../../platform/http/errors.js';
import { newId } from '../../platform/ids.js';
import { orgSettings } from '../../platform/settings/org-settings.js';
import { BUILTIN_SYNONYMS } from './lexicon.js';

/**
 * The synonym list (one document per tenant, org_setting `kb.synonyms`): groups of words that mean the
 * same. When a question is scored every word of a group counts as its first word, and the full-text
 * query looks for all of them. The built-in customer-service vocabulary (lexicon.ts) is merged in; the
 * tenant's list shows and edits only its own groups. A change applies to the next question on every node.
 */
export const SYNONYM_SETTING = 'kb.synonyms';

export interface Synonyms {
  groups: KbSynonymDto[];
  /** word → the group's first word */
  map: ReadonlyMap<string, string>;
  /** first word → every word of the group */
  members: ReadonlyMap<string, readonly string[]>;
  /** Of the stored list (cached term frequencies depend on it). */
  version: number;
}

function readGroups(raw: unknown): KbSynonymDto[] {
  const list = (raw as { groups?: unknown } | null)?.groups;
  if (!Array.isArray(list)) return [];
  return list.flatMap((g: unknown) => {
    const v = g as { id?: unknown; words?: unknown };
    if (typeof v.id !== 'string' || !Array.isArray(v.words)) return [];
    const words = v.words.filter((w): w is string => typeof w === 'string');
    return words.length >= 2 ? [{ id: v.id, words }] : [];
  });
}

/**
 * word → head and head → words of the tenant's groups merged with the built-in ones (lexicon.ts): a
 * built-in group sharing a word with a tenant's group joins it (under the tenant's first word), the
 * others are added as they are.
 */
export function lookups(own: ReadonlyArray<readonly string[]>): Pick<Synonyms, 'map' | 'members'> {
  const map = new Map<string, string>();
  const members = new Map<string, string[]>();
  const add = (head: string, words: readonly string[]) => {
    const list = members.get(head) ?? [];
    if (!members.has(head)) members.set(head, list);
    for (const w of words)
      if (!map.has(w)) {
        map.set(w, head);
        list.push(w);
      }
  };
  for (const g of own) {
    const words = g.map((w) => w.toLowerCase());
    add(words[0]!, words);
  }
  for (const g of BUILTIN_SYNONYMS) {
    const joined = g.find((w) => map.has(w));
    add(joined === undefined ? g[0]! : map.get(joined)!, g);
  }
  return { map, members };
}

const built = new WeakMap<Db, Map<string, { version: number; syn: Synonyms }>>();

/** The tenant's synonyms as lookups (rebuilt when the list's version changes). */
export async function synonymsOf(db: Db, orgi: string): Promise<Synonyms> {
  const { value, version } = await orgSettings(db).get(orgi, SYNONYM_SETTING, readGroups);
  let byOrg = built.get(db);
  if (!byOrg) built.set(db, (byOrg = new Map()));
  const hit = byOrg.get(orgi);
  if (hit && hit.version === version) return hit.syn;
  const { map, members } = lookups(value.map((g) => g.words));
  const syn = { groups: value, map, members, version };
  byOrg.set(orgi, { version, syn });
  return syn;
}

export async function list(db: Db, p: Principal): Promise<KbSynonymDto[]> {
  return (await synonymsOf(db, p.orgi)).groups;
}

/** A word may be in one group only: the list stays a function from word to meaning. */
function checkWords(groups: readonly KbSynonymDto[], words: readonly string[], exceptId?: string): void {
  const taken = new Map<string, string>();
  for (const g of groups) if (g.id !== exceptId) for (const w of g.words) taken.set(w.toLowerCase(), g.id);
  const dup = words.find((w) => taken.has(w.toLowerCase()));
  if (dup) throw badRequest('name_repeat', { words: 'name_repeat' });
}

async function write(db: Db, orgi: string, groups: KbSynonymDto[]): Promise<void> {
  await orgSettings(db).save(orgi, SYNONYM_SETTING, { groups });
}

export async function save(db: Db, p: Principal, words: string[]): Promise<KbSynonymDto> {
  const groups = [...(await synonymsOf(db, p.orgi)).groups];
  checkWords(groups, words);
  if (groups.length >= KB_LIMITS.synonymGroups) throw badRequest('too_long', { words: 'too_long' });
  const g = { id: newId(), words };
  await write(db, p.orgi, [...groups, g]);
  return g;
}

export async function update(db: Db, p: Principal, id: string, words: string[]): Promise<KbSynonymDto> {
  const groups = [...(await synonymsOf(db, p.orgi)).groups];
  const i = groups.findIndex((g) => g.id === id);
  if (i < 0) throw notFound();
  checkWords(groups, words, id);
  const g = { id, words };
  groups[i] = g;
  await write(db, p.orgi, groups);
  return g;
}

export async function remove(db: Db, p: Principal, id: string): Promise<null> {
  const groups = (await synonymsOf(db, p.orgi)).groups;
  if (!groups.some((g) => g.id === id)) throw notFound();
  await write(
    db,
    p.orgi,
    groups.filter((g) => g.id !== id),
  );
  return null;
}
