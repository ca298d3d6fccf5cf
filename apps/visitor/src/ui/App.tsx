import { useEffect, useState } from 'preact/hooks';
import { loadConfig, type WidgetConfig } from '../lib/config.js';
import { lang, t } from '../lib/i18n.js';
import type { Route } from '../lib/route.js';
import { ChatPage } from './ChatPage.js';
import { Launcher, Navigation } from './Launcher.js';
import { MissingAppid } from './MissingAppid.js';

/** Routes /visitor/<page>; every page needs the access point's config first. */
export function App({ route }: { route: Route }) {
  const [config, setConfig] = useState<WidgetConfig | null>(null);
  useEffect(() => {
    if (route.appid) void loadConfig(location.origin, route.appid, lang()).then(setConfig);
  }, [route.appid]);

  if (!route.appid) return <MissingAppid route={route} />;
  if (!config) return <div class="kf-loading" aria-busy="true" />;
  const title = config.dialogue.title || config.access.name || t('title');
  document.title = title;
  document.documentElement.style.setProperty('--kf-brand', config.dialogue.color);
  if (route.page === 'text') return <Launcher config={config} title={title} />;
  if (route.page === 'navigation') return <Navigation config={config} title={title} />;
  return <ChatPage route={route} config={config} title={title} />;
}
