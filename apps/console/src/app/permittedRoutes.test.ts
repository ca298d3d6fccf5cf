import { describe, expect, it } from 'vitest';
import { MAIN_ROUTES, PERSONAL_SECURITY_PATH } from '@kefu/protocol';
import { filterRoutes, homePath, permittedRoutes, resolveRedirect, rewritePath } from './permittedRoutes';

const auth = (...codes: string[]) => Object.fromEntries(codes.map((c) => [c, true as const]));

describe('filterRoutes', () => {
  it("usertype '0' sees every route", () => {
    const routes = permittedRoutes({ usertype: '0', auth: {} });
    expect(routes.map((r) => r.path)).toEqual(MAIN_ROUTES.map((r) => r.path));
    const setup = routes.find((r) => r.path === 'setup');
    expect(setup?.children?.length).toBe(MAIN_ROUTES.find((r) => r.path === 'setup')?.children?.length);
    expect(setup?.redirect).toBe('websiteAccess');
  });

  it('keeps a parent only when its own code is held', () => {
    const routes = permittedRoutes({ usertype: '1', auth: auth('A09_A02_A02', 'A01') });
    expect(routes.map((r) => r.path)).toEqual(['dialogue']);
  });

  it('filters children and routes /setup/section on either of two codes', () => {
    for (const code of ['A09_A02_A01', 'A09_A03_A13']) {
      const routes = permittedRoutes({ usertype: '1', auth: auth('A09', code) });
      const setup = routes.find((r) => r.path === 'setup');
      expect(setup?.children?.map((c) => c.path)).toEqual(['section']);
      expect(setup?.children?.[0].fullPath).toBe('/setup/section');
    }
  });

  it('personal security is reachable with its own code alone; the setup menu then holds only it', () => {
    const routes = permittedRoutes({ usertype: '1', auth: auth('A01', 'A09_A07_A01', 'A09_A02_A02') });
    const setup = routes.find((r) => r.path === 'setup');
    expect(setup?.children?.map((c) => c.fullPath)).toEqual([PERSONAL_SECURITY_PATH]);
    expect(setup?.redirect).toBe('personaSecurity');
    // Only an agent's own settings: no code, no setup at all.
    expect(permittedRoutes({ usertype: '1', auth: auth('A01') }).map((r) => r.path)).toEqual(['dialogue']);
    // Home of a user holding nothing else is that screen.
    expect(homePath(permittedRoutes({ usertype: '1', auth: auth('A09_A07_A01') }))).toBe(
      PERSONAL_SECURITY_PATH,
    );
  });

  it('falls back to the first visible child when the redirect is not allowed', () => {
    const routes = permittedRoutes({ usertype: '1', auth: auth('A09', 'A09_A02_A02', 'A09_A07_A01') });
    expect(routes[0].redirect).toBe('role');
    expect(homePath(routes)).toBe('/setup/role');
  });

  it('skips hidden children when falling back', () => {
    const children = filterRoutes(
      [
        { path: 'a', title: 't', hidden: true },
        { path: 'b', title: 't' },
      ],
      { usertype: '1', auth: {} },
    );
    expect(resolveRedirect('missing', children)).toBe('b');
  });

  it("'/' goes to /dialogue when allowed", () => {
    expect(homePath(permittedRoutes({ usertype: '0', auth: {} }))).toBe('/dialogue');
    expect(homePath(permittedRoutes({ usertype: '1', auth: auth('A06', 'A06_A02_A08') }))).toBe(
      '/dataAnalysis/loginLog',
    );
    expect(homePath(permittedRoutes({ usertype: '1', auth: auth('A06') }))).toBeUndefined();
  });
});

describe('rewritePath', () => {
  it('rewrites dataList to dataAnalysis', () => {
    expect(rewritePath('/dataList/loginLog')).toBe('/dataAnalysis/loginLog');
    expect(rewritePath('/dataList')).toBe('/dataAnalysis');
    expect(rewritePath('/dataListing')).toBeNull();
  });
});
