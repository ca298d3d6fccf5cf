import { Suspense, type ReactNode } from 'react';
import { createBrowserRouter, Navigate, useLocation, type RouteObject } from 'react-router';
import { Spin } from 'antd';
import { PUBLIC_PATHS } from '@kefu/protocol';
import type { PermittedRoute } from './permittedRoutes';
import { homePath, rewritePath } from './permittedRoutes';
import { lazyScreen } from './lazy';
import {
  ComingSoon,
  LoginScreen,
  RegisterScreen,
  Shell,
  StatusScreen,
  ThirdLoginScreen,
  VisitorPlaceholder,
} from './publicScreens';
import { RouteErrorBoundary } from './RouteError';

export const PageSpin = () => (
  <div style={{ display: 'flex', justifyContent: 'center', padding: 80 }}>
    <Spin size="large" />
  </div>
);

const susp = (node: ReactNode) => <Suspense fallback={<PageSpin />}>{node}</Suspense>;

const publicRoutes: RouteObject[] = [
  { path: '/login', element: susp(<LoginScreen />) },
  { path: '/register', element: susp(<RegisterScreen />) },
  { path: '/thirdLogin', element: susp(<ThirdLoginScreen />) },
  { path: '/thirdLogin/bind', element: susp(<ThirdLoginScreen />) },
  { path: '/401', element: susp(<StatusScreen status={401} />) },
  { path: '/404', element: susp(<StatusScreen status={404} />) },
  {
    path: '/visitor',
    children: [
      { index: true, element: <Navigate to="/visitor/text" replace /> },
      { path: ':page', element: susp(<VisitorPlaceholder />) },
    ],
  },
];

/** Not logged in: every non-public path goes to /login, remembering where the user was heading. */
function ToLogin() {
  const loc = useLocation();
  const target = rewritePath(loc.pathname) ?? loc.pathname;
  const isPublic = (PUBLIC_PATHS as readonly string[]).includes(target);
  const redirect = target !== '/' && !isPublic ? `?redirect=${encodeURIComponent(target + loc.search)}` : '';
  return <Navigate to={`/login${redirect}`} replace />;
}

/** Logged in, unknown path: apply ROUTE_REWRITES, else /401 (spec section 2). */
function Unknown() {
  const loc = useLocation();
  const rewritten = rewritePath(loc.pathname);
  return <Navigate to={rewritten ? rewritten + loc.search : '/401'} replace />;
}

/**
 * A signed-in route's screen, looked up in the screen table once that table has loaded: the
 * table (screens.ts) stays off the login page's first load.
 */
const screenOf = (fullPath: string) =>
  lazyScreen<object>(async () => {
    const { SCREENS } = await import('./screens');
    // A lazy component cannot resolve to another lazy one: render the screen's from a plain one.
    const Screen = SCREENS[fullPath] ?? ComingSoon;
    return { default: () => <Screen /> };
  });

function toRouteObject(r: PermittedRoute): RouteObject {
  if (r.children) {
    return {
      path: r.path,
      children: [
        { index: true, element: <Navigate to={r.redirect ?? '/401'} replace /> },
        ...r.children.map(toRouteObject),
      ],
    };
  }
  const Screen = screenOf(r.fullPath);
  return {
    path: r.path,
    element: susp(<Screen />),
    handle: { title: r.title },
  };
}

/** One router per session state: anonymous, or logged in with the routes the user may open. */
export function buildRouter(routes: PermittedRoute[] | null) {
  if (!routes) {
    return createBrowserRouter([...publicRoutes, { path: '*', element: <ToLogin /> }]);
  }
  return createBrowserRouter([
    ...publicRoutes,
    {
      path: '/',
      element: susp(<Shell />),
      errorElement: <RouteErrorBoundary />,
      children: [
        { index: true, element: <Navigate to={homePath(routes) ?? '/401'} replace /> },
        ...routes.map(toRouteObject),
      ],
    },
    { path: '*', element: <Unknown /> },
  ]);
}
