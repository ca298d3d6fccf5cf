import { t } from '../lib/i18n.js';
import type { Route } from '../lib/route.js';

/** /visitor/* opened without `appid`: what is missing and how a website embeds the chat. */
export function MissingAppid({ route }: { route: Route }) {
  const origin = location.origin;
  const appid = t('yourAppid');
  const embed = `<script src="${origin}/im/loader.js" data-appid="${appid}" async></script>`;
  const link = `${origin}/visitor/${route.page}?appid=${appid}`;
  return (
    <main class="kf-setup" data-testid="missing-appid">
      <h1>{t('setupTitle')}</h1>
      <p>{t('setupWhy')}</p>
      <p>{t('setupEmbed')}</p>
      <pre data-testid="missing-appid-embed">
        <code>{embed}</code>
      </pre>
      <p>{t('setupLink')}</p>
      <pre>
        <code>{link}</code>
      </pre>
      <p>{t('setupWhere')}</p>
      <p class="kf-setup-links">
        <a href="/setup/websiteAccess">{t('setupConsole')}</a>
        <a href="/im/demo.html">{t('setupDemo')}</a>
      </p>
    </main>
  );
}
