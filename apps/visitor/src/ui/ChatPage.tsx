import { useEffect, useMemo, useRef, useState } from 'preact/hooks';
import { ChatClient } from '../chat/client.js';
import type { WidgetConfig } from '../lib/config.js';
import { describeAgent } from '../lib/device.js';
import { t } from '../lib/i18n.js';
import type { Route } from '../lib/route.js';
import { loadRemembered, remember } from '../lib/storage.js';
import type { Values } from '../lib/forms.js';
import { useClientState } from './useClient.js';
import { useEmbed } from './useEmbed.js';
import { PreChatForm } from './PreChatForm.js';
import { MessageList } from './MessageList.js';
import { Composer } from './Composer.js';
import { LeaveForm } from './LeaveForm.js';
import { Rating } from './Rating.js';
import { Header } from './Header.js';
import { RobotBar } from './Robot.js';

function Ad({ ad }: { ad: WidgetConfig['dialogue']['ad'] }) {
  const body = (
    <>
      {ad.image && <img src={ad.image} alt="" />}
      {ad.text && <p>{ad.text}</p>}
    </>
  );
  return (
    <div class="kf-ad">
      {ad.url ? (
        <a href={ad.url} target="_blank" rel="noopener noreferrer">
          {body}
        </a>
      ) : (
        body
      )}
    </div>
  );
}

/** /visitor/pc, /visitor/mobile, /visitor/mini: the chat itself. */
export function ChatPage({ route, config, title }: { route: Route; config: WidgetConfig; title: string }) {
  const [form, setForm] = useState<Values | null>(null);
  const [info, setInfo] = useState<Values>({});
  const [toast, setToast] = useState('');
  const idle = useRef<() => void>(() => undefined);
  const client = useMemo(
    () => new ChatClient(location.origin, route.appid, () => idle.current()),
    [route.appid],
  );
  client.welcomeText = config.dialogue.welcome;
  const state = useClientState(client);
  const embed = useEmbed(route.embedOrigin, client, state);

  const start = (v: Values) => {
    setForm(null);
    setInfo(v);
    const ua = describeAgent(navigator.userAgent);
    void client.start({
      skill: route.skill || undefined,
      agent: route.agent || undefined,
      name: v.name || undefined,
      phone: v.phone || undefined,
      email: v.email || undefined,
      resion: v.question || undefined,
      url: (embed.page.current.url || location.href).slice(0, 2000),
      title: (embed.page.current.title || document.title).slice(0, 500),
      traceid: route.traceid || undefined,
      ...ua,
    });
  };
  idle.current = () => {
    const i = config.information;
    if (!i.enabled) return start({});
    const saved = loadRemembered(route.appid, i.remember);
    if (saved) start(saved);
    else setForm({});
  };

  useEffect(() => {
    client.connect();
    return () => client.close();
  }, [client]);
  useEffect(() => {
    if (!toast) return;
    const h = setTimeout(() => setToast(''), 4000);
    return () => clearTimeout(h);
  }, [toast]);
  useEffect(() => {
    if (state.error && !state.leavemsg) setToast(state.error);
  }, [state.error]);

  const credential = { appid: route.appid, userid: client.identity.userid, token: client.identity.token };
  const ended = state.status === 'end';
  const rateable = ended || state.status === 'inservice';

  return (
    <div class={`kf-chat kf-page-${route.page}`} data-status={state.status}>
      <Header
        config={config}
        title={title}
        state={state}
        onClose={embed.embedded ? embed.close : undefined}
        onEnd={state.status === 'inservice' || state.status === 'inqueue' ? () => client.end() : undefined}
        onRate={
          rateable && state.timeline.current && !state.rated.includes(state.timeline.current)
            ? () => client.askRating(state.timeline.current ?? '', '')
            : undefined
        }
      />
      <div class="kf-body">
        <main class="kf-main">
          {!state.online && state.phase !== 'fatal' && (
            <div class="kf-banner">{state.phase === 'connecting' ? t('connecting') : t('reconnecting')}</div>
          )}
          {state.phase === 'fatal' ? (
            <div class="kf-fatal">{state.error}</div>
          ) : form ? (
            <PreChatForm
              config={config}
              initial={form}
              onSubmit={(v) => {
                remember(route.appid, v, config.information.remember);
                start(v);
              }}
            />
          ) : (
            <MessageList state={state} client={client} credential={credential} />
          )}
          {!form && state.robot && state.status === 'inservice' && (
            <RobotBar robot={state.robot} onHuman={() => client.toHuman()} />
          )}
          {!form && state.phase === 'ready' && !ended && (
            <Composer client={client} credential={credential} onError={setToast} />
          )}
          {!form && ended && (
            <div class="kf-readonly" data-testid="readonly">
              <span>{t('readOnly')}</span>
              <button type="button" class="kf-btn kf-btn-primary" onClick={() => client.restart()}>
                {t('startNew')}
              </button>
            </div>
          )}
        </main>
        {route.page === 'pc' && (config.faq.length > 0 || config.dialogue.ad.enabled) && (
          <aside class="kf-side">
            {config.dialogue.ad.enabled && <Ad ad={config.dialogue.ad} />}
            {config.faq.length > 0 && <h3>{t('faq')}</h3>}
            {config.faq.map((f) => (
              <details key={f.title}>
                <summary>{f.title}</summary>
                <p>{f.content}</p>
              </details>
            ))}
          </aside>
        )}
      </div>
      {toast && (
        <div class="kf-toast" role="alert">
          {toast}
        </div>
      )}
      {state.leavemsg && (
        <LeaveForm
          config={config}
          offer={state.leavemsg}
          credential={credential}
          initial={{
            name: info.name ?? '',
            mobile: info.phone ?? '',
            email: info.email ?? '',
            content: info.question ?? '',
          }}
          onWait={state.status === 'inqueue' ? () => client.dismiss({ leavemsg: null }) : undefined}
          onDone={() => {
            if (state.status === 'inqueue') client.end();
            client.dismiss({ leavemsg: null });
          }}
        />
      )}
      {state.rating && config.satisfaction.enabled && (
        <Rating
          config={config}
          agentserviceid={state.rating.agentserviceid}
          message={state.rating.message}
          agentName={state.agent?.nickname ?? config.dialogue.agentName}
          credential={credential}
          onClose={(ok) => client.rated(ok ? (state.rating?.agentserviceid ?? null) : null)}
        />
      )}
    </div>
  );
}
