import { hasPermission, MAIN_ROUTES, ROUTE_REWRITES, type AuthMap, type RouteDef } from '@kefu/protocol';

/** A route the user may open, with its redirect already resolved against the visible children. */
export interface PermittedRoute {
  path: string;
  /** Absolute path, e.g. /setup/section */
  fullPath: string;
  title: string;
  code?: RouteDef['code'];
  hidden: boolean;
  redirect?: string;
  children?: PermittedRoute[];
}

export interface Grant {
  usertype: string;
  auth: AuthMap;
}

/**
 * Spec section 4: routes without a code are open; a parent is kept only if its own code is held (or, for
 * its `personal` children alone, if one of theirs is); children are filtered the same way; a parent's redirect falls back to its first visible child
 * when the redirect target is not allowed.
 */
export function filterRoutes(routes: readonly RouteDef[], grant: Grant, base = ''): PermittedRoute[] {
  const out: PermittedRoute[] = [];
  for (const r of routes) {
    const held = hasPermission(grant.usertype, grant.auth, r.code);
    // Without the parent's code, only its personal children (the user's own settings) stay reachable.
    const reachable = held ? r.children : r.children?.filter((c) => c.personal);
    if (!held && !reachable?.length) continue;
    const fullPath = `${base}/${r.path}`;
    const children = reachable ? filterRoutes(reachable, grant, fullPath) : undefined;
    if (!held && !children?.length) continue;
    out.push({
      path: r.path,
      fullPath,
      title: r.title,
      code: r.code,
      hidden: r.hidden ?? false,
      redirect: children ? resolveRedirect(r.redirect, children) : r.redirect,
      children,
    });
  }
  return out;
}

export function resolveRedirect(
  target: string | undefined,
  children: readonly PermittedRoute[],
): string | undefined {
  if (target && children.some((c) => c.path === target)) return target;
  return children.find((c) => !c.hidden)?.path ?? children[0]?.path;
}

/** Where '/' goes: /dialogue when allowed, else the first reachable page. */
export function homePath(routes: readonly PermittedRoute[]): string | undefined {
  const dialogue = routes.find((r) => r.path === 'dialogue');
  if (dialogue) return dialogue.fullPath;
  for (const r of routes) {
    const leaf = firstLeaf(r);
    if (leaf) return leaf;
  }
  return undefined;
}

function firstLeaf(r: PermittedRoute): string | undefined {
  if (!r.children) return r.fullPath;
  const target = r.children.find((c) => c.path === r.redirect);
  return target ? firstLeaf(target) : undefined;
}

export const permittedRoutes = (grant: Grant): PermittedRoute[] => filterRoutes(MAIN_ROUTES, grant);

/** ROUTE_REWRITES: /dataList/x → /dataAnalysis/x. Returns null when nothing applies. */
export function rewritePath(pathname: string): string | null {
  for (const [from, to] of Object.entries(ROUTE_REWRITES)) {
    if (pathname === from || pathname.startsWith(`${from}/`)) return to + pathname.slice(from.length);
  }
  return null;
}
