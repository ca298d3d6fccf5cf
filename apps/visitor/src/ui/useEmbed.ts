import { useEffect, useRef } from 'preact/hooks';
import { EMBED_TAG, type ChatToHost } from '@kefu/protocol';
import type { ChatClient, ChatState } from '../chat/client.js';
import { acceptEmbed } from '../lib/origin.js';
import { unreadFromAgent } from '../lib/timeline.js';

export interface HostPage {
  url: string;
  title: string;
}

/**
 * Inside the loader's iframe: talk to the host page (checked origin and window only), report unread
 * agent messages while hidden, and learn the page the visitor is on.
 */
export function useEmbed(origin: string, client: ChatClient, state: ChatState) {
  const embedded = !!origin && window.parent !== window;
  const page = useRef<HostPage>({ url: document.referrer, title: '' });
  const seen = useRef(0);
  const post = (m: ChatToHost) => {
    if (embedded) window.parent.postMessage(m, origin);
  };

  useEffect(() => {
    if (!embedded) return;
    // Hidden until the host says it opened the window.
    client.visible = false;
    const onMessage = (ev: MessageEvent) => {
      const m = acceptEmbed(ev, origin, window.parent);
      if (!m) return;
      if (m.type === 'open') {
        client.visible = true;
        seen.current = client.state.timeline.lastSeq;
        client.markSeen();
        post({ kefu: EMBED_TAG, type: 'unread', count: 0 });
      } else if (m.type === 'hide') client.visible = false;
      else if (m.type === 'page') page.current = { url: m.url, title: m.title };
    };
    addEventListener('message', onMessage);
    post({ kefu: EMBED_TAG, type: 'ready' });
    return () => removeEventListener('message', onMessage);
  }, [origin, client]);

  useEffect(() => {
    if (!embedded) return;
    if (client.visible) seen.current = state.timeline.lastSeq;
    else post({ kefu: EMBED_TAG, type: 'unread', count: unreadFromAgent(state.timeline, seen.current) });
  }, [state.timeline.lastSeq]);

  return {
    embedded,
    page,
    close: () => {
      client.visible = false;
      post({ kefu: EMBED_TAG, type: 'close' });
    },
  };
}
