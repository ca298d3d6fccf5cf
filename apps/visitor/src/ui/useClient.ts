import { useEffect, useState } from 'preact/hooks';
import type { ChatClient, ChatState } from '../chat/client.js';

/** Re-renders on every client state change. */
export function useClientState(client: ChatClient): ChatState {
  const [state, setState] = useState(client.state);
  useEffect(() => {
    setState(client.state);
    return client.subscribe(() => setState(client.state));
  }, [client]);
  return state;
}
