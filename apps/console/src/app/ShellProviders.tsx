import { useEffect, type ReactNode } from 'react';
import { App as AntApp } from 'antd';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { setMessageInstance } from '../lib/notify';

export const queryClient = new QueryClient({
  defaultOptions: {
    queries: {
      // The request layer already toasted the error; retrying would toast again 2 s later.
      retry: false,
      refetchOnWindowFocus: false,
      staleTime: 10_000,
    },
    mutations: { retry: false },
  },
});

/** Hands antd's themed message API to the request layer. */
function MessageBridge() {
  const { message } = AntApp.useApp();
  useEffect(() => {
    setMessageInstance(message);
    return () => setMessageInstance(null);
  }, [message]);
  return null;
}

export function ShellProviders({ children }: { children: ReactNode }) {
  return (
    <QueryClientProvider client={queryClient}>
      <AntApp>
        <MessageBridge />
        {children}
      </AntApp>
    </QueryClientProvider>
  );
}
