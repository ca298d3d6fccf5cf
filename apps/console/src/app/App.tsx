import { useEffect, useMemo } from 'react';
import { RouterProvider } from 'react-router';
import { Providers } from './Providers';
import { buildRouter, PageSpin } from './router';
import { setNavigator, useSession } from './session';

function Root() {
  const status = useSession((s) => s.status);
  const routes = useSession((s) => s.routes);
  const bootstrap = useSession((s) => s.bootstrap);

  useEffect(() => {
    // Start-up (spec section 4): with a token, user info is loaded before any route is built.
    if (useSession.getState().status === 'loading') void bootstrap();
  }, [bootstrap]);

  const router = useMemo(
    () => (status === 'loading' ? null : buildRouter(status === 'ready' ? routes : null)),
    [status, routes],
  );

  useEffect(() => {
    if (!router) return;
    // Route-push rejections are swallowed (spec section 8).
    setNavigator((path) => void router.navigate(path, { replace: true }).catch(() => undefined));
    return () => router.dispose();
  }, [router]);

  if (!router) return <PageSpin />;
  return <RouterProvider router={router} />;
}

export function App() {
  return (
    <Providers>
      <Root />
    </Providers>
  );
}
