import { EMBED_TAG, ONLINE_HEARTBEAT_MS, type HostToChat, type PageViewReport } from '@kefu/protocol';
import { loadConfig, type WidgetConfig } from '../lib/config.js';
import { isMobile } from '../lib/device.js';
import { pickLang } from '../lib/i18n.js';
import { randomId } from '../lib/ids.js';
import { acceptEmbed, originOf } from '../lib/origin.js';
import { store } from '../lib/storage.js';
import { chatIcon, css, el } from './ui.js';

/**
 * The embed script: `<script src="https://HOST/im/loader.js" data-appid="ACCESS_CODE" async></script>`.
 * Draws the consult button (and the invite popup), opens the chat in an iframe (PC) or a full page (phone).
 */
const TEXTS = {
  zh: {
    consult: '在线客服',
    invite: '您好，需要帮助吗？欢迎咨询在线客服',
    accept: '立即咨询',
    refuse: '稍后再说',
  },
  en: {
    consult: 'Chat with us',
    invite: 'Hello, need any help? Chat with us',
    accept: 'Chat now',
    refuse: 'Later',
  },
};

function currentScript(): HTMLScriptElement | null {
  const cur = document.currentScript;
  if (cur instanceof HTMLScriptElement && cur.dataset.appid) return cur;
  return document.querySelector<HTMLScriptElement>('script[data-appid][src*="loader.js"]');
}

function traceId(): string {
  let id = store.get('kefu:trace');
  if (!id) {
    id = randomId(32);
    store.set('kefu:trace', id);
  }
  return id;
}

/** sessionStorage that never throws (disabled storage, sandboxed pages). */
const session = {
  get: (k: string): string | null => {
    try {
      return sessionStorage.getItem(k);
    } catch {
      return null;
    }
  },
  set: (k: string, v: string): void => {
    try {
      sessionStorage.setItem(k, v);
    } catch {
      /* ignore */
    }
  },
};

/** Agent invite pushed in a report's answer (`PageViewAck`). */
type AgentInvite = { id: string; agent: string };

/** text/plain JSON: a CORS "simple" request (no preflight) whose answer may carry an agent invite. */
function send(base: string, path: string, r: object, onInvite?: (i: AgentInvite) => void): void {
  try {
    void fetch(`${base}${path}`, {
      method: 'POST',
      body: JSON.stringify(r),
      keepalive: true,
      credentials: 'omit',
    })
      .then((res) => res.json())
      .then((b: { data?: { invite?: AgentInvite | null } }) => {
        if (b.data?.invite) onInvite?.(b.data.invite);
      })
      .catch(() => undefined);
  } catch {
    /* page views are best effort */
  }
}

function boot(script: HTMLScriptElement): void {
  const base = originOf(script.src);
  const appid = script.dataset.appid ?? '';
  if (!base || !appid || (window as { __kefuLoaded?: boolean }).__kefuLoaded) return;
  (window as { __kefuLoaded?: boolean }).__kefuLoaded = true;
  const lang = pickLang(script.dataset.lang ? `?l=${script.dataset.lang}` : '', navigator.language);
  const trace = traceId();
  let pending: AgentInvite | null = null;
  let showAgentInvite: ((i: AgentInvite) => void) | null = null;
  const onInvite = (i: AgentInvite) => (showAgentInvite ? showAgentInvite(i) : (pending = i));
  let last = 0;
  let reported = false;
  const pageView = (extra: Pick<PageViewReport, 'hb' | 'leave'> = {}): PageViewReport => ({
    appid,
    traceid: trace,
    url: location.href,
    title: document.title,
    referrer: document.referrer,
    ...extra,
  });
  const report = (hb?: 1) => {
    last = Date.now();
    reported = true;
    send(base, '/im/pageview', pageView(hb ? { hb } : {}), onInvite);
  };
  // A page prerendered or opened in a background tab has not been seen yet: it counts once shown, so
  // the online list holds no visitors who never looked at the page.
  const seen = () =>
    document.visibilityState === 'visible' && !(document as { prerendering?: boolean }).prerendering;
  if (seen()) report();
  // Heartbeat while the page is visible: keeps the visitor "online" and picks up agent invites.
  setInterval(() => seen() && report(1), ONLINE_HEARTBEAT_MS);
  const shown = () => {
    if (!seen()) return;
    if (!reported) report();
    else if (Date.now() - last > ONLINE_HEARTBEAT_MS / 2) report(1);
  };
  addEventListener('visibilitychange', shown);
  document.addEventListener('prerenderingchange', shown);
  // Leaving (tab closed, link followed): off the online list now instead of minutes later.
  addEventListener('pagehide', () => {
    if (!reported) return;
    try {
      navigator.sendBeacon(`${base}/im/pageview`, JSON.stringify(pageView({ leave: 1 })));
    } catch {
      /* best effort */
    }
  });
  void loadConfig(base, appid, lang).then((c) => {
    showAgentInvite = mount(base, appid, lang, trace, script.dataset.skill ?? '', c);
    if (pending) showAgentInvite(pending);
  });
}

function mount(
  base: string,
  appid: string,
  lang: 'zh' | 'en',
  trace: string,
  skill: string,
  c: WidgetConfig,
): (i: AgentInvite) => void {
  const tx = TEXTS[lang];
  const host = el('div', { id: 'kefu-widget' });
  const root = host.attachShadow({ mode: 'open' });
  root.appendChild(el('style', {}, css(c)));
  document.body.appendChild(host);

  /** The agent who invited the visitor: the chat asks for them. */
  let agent = '';
  const chatUrl = (page: 'mini' | 'mobile') => {
    const q = new URLSearchParams({ appid, traceid: trace, l: lang });
    if (skill) q.set('skill', skill);
    if (agent) q.set('agent', agent);
    if (page === 'mini') q.set('origin', location.origin);
    return `${base}/visitor/${page}?${q}`;
  };

  let panel: HTMLDivElement | null = null;
  let frame: HTMLIFrameElement | null = null;
  let ready = false;
  const post = (m: HostToChat) => {
    if (ready) frame?.contentWindow?.postMessage(m, base);
  };
  const btn = el('button', { type: 'button', class: 'btn', 'aria-label': c.consult.text || tx.consult });
  btn.appendChild(chatIcon(c.consult.icon));
  btn.appendChild(el('span', {}, c.consult.text || tx.consult));
  const badge = el('span', { class: 'badge', hidden: '' });
  btn.appendChild(badge);

  const open = () => {
    invite?.remove();
    if (isMobile(navigator.userAgent, innerWidth)) {
      location.href = chatUrl('mobile');
      return;
    }
    if (!panel) {
      panel = el('div', { class: 'panel', role: 'dialog', 'aria-label': c.consult.text || tx.consult });
      frame = el('iframe', {
        src: chatUrl('mini'),
        title: c.consult.text || tx.consult,
        allow: 'clipboard-write',
      });
      panel.appendChild(frame);
      root.appendChild(panel);
    }
    panel.hidden = false;
    btn.hidden = true;
    badge.hidden = true;
    post({ kefu: EMBED_TAG, type: 'open' });
  };
  const close = () => {
    if (panel) panel.hidden = true;
    btn.hidden = !c.consult.enabled;
    post({ kefu: EMBED_TAG, type: 'hide' });
  };

  addEventListener('message', (ev) => {
    const m = acceptEmbed(ev, base, frame?.contentWindow ?? null);
    if (!m) return;
    if (m.type === 'ready') {
      ready = true;
      post({ kefu: EMBED_TAG, type: 'page', url: location.href, title: document.title });
      if (panel && !panel.hidden) post({ kefu: EMBED_TAG, type: 'open' });
    } else if (m.type === 'close') close();
    else if (m.type === 'unread') {
      badge.textContent = m.count > 99 ? '99+' : String(m.count);
      badge.hidden = m.count === 0 || !(panel?.hidden ?? true);
    }
  });

  btn.addEventListener('click', open);
  btn.hidden = !c.consult.enabled;
  root.appendChild(btn);

  let invite: HTMLDivElement | null = null;
  const showInvite = (onAnswer?: (accepted: boolean) => void) => {
    if (panel && !panel.hidden) return;
    invite?.remove();
    invite = el('div', { class: 'invite', role: 'dialog' });
    if (c.invite.image) invite.appendChild(el('img', { src: c.invite.image, alt: '' }));
    invite.appendChild(el('h3', {}, c.dialogue.title || c.access.name || tx.consult));
    invite.appendChild(el('p', {}, c.invite.content || tx.invite));
    const row = el('div', { class: 'row' });
    const no = el('button', { type: 'button' }, c.invite.refuse || tx.refuse);
    const go = el('button', { type: 'button', class: 'go' }, c.invite.accept || tx.accept);
    no.addEventListener('click', () => {
      session.set('kefu:invite', '1');
      invite?.remove();
      onAnswer?.(false);
    });
    go.addEventListener('click', () => {
      onAnswer?.(true);
      open();
    });
    row.append(no, go);
    invite.appendChild(row);
    root.appendChild(invite);
  };
  if (c.invite.enabled && session.get('kefu:invite') !== '1') setTimeout(showInvite, c.invite.delay * 1000);

  (window as { kefu?: { open: () => void; close: () => void } }).kefu = { open, close };
  return (i) =>
    showInvite((accepted) => {
      if (accepted && !frame) agent = i.agent;
      send(base, '/im/invite', { appid, traceid: trace, id: i.id, result: accepted ? 'accept' : 'refuse' });
    });
}

const script = currentScript();
if (script) {
  if (document.body) boot(script);
  else addEventListener('DOMContentLoaded', () => boot(script));
}
