import { describe, expect, it } from 'vitest';
import { MAIN_ROUTES } from '@kefu/protocol';
import { filterRoutes } from './permittedRoutes';
import { buildMenu } from './menu';

type Item = { key?: string; type?: string; label?: unknown; children?: Item[] };

describe('side menu', () => {
  it('a permission group of one entry is that entry, not a group around it', () => {
    const routes = filterRoutes(MAIN_ROUTES, { usertype: '0', auth: {} });
    const items = buildMenu(routes, (k) => k, 'zh') as Item[];
    const analysis = items.find((i) => i.key === '/dataAnalysis');
    const children = analysis?.children ?? [];
    // 搜索引擎 (A06_A01) and 机器人统计 (A06_A04) have one entry each: plain items.
    expect(children.find((c) => c.key === '/dataAnalysis/searchEngine')?.type).toBeUndefined();
    expect(children.find((c) => c.key === '/dataAnalysis/aiStatistics')?.type).toBeUndefined();
    expect(children.some((c) => c.key === 'A06_A01' || c.key === 'A06_A04')).toBe(false);
    // Groups of several stay groups.
    const work = children.find((c) => c.key === 'A06_A02');
    expect(work?.type).toBe('group');
    expect(work?.children?.length).toBeGreaterThan(1);
  });
});
