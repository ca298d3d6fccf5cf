import type { WidgetConfig } from '../lib/config.js';
import { isMobile } from '../lib/device.js';
import { t } from '../lib/i18n.js';
import { pageUrl } from '../lib/route.js';
import { Logo } from './Logo.js';

const chatPage = () => (isMobile(navigator.userAgent, innerWidth) ? 'mobile' : 'pc');

function Brand({ config, title }: { config: WidgetConfig; title: string }) {
  return (
    <div class="kf-brand">
      <Logo src={config.dialogue.logo} />
      <h1>{title}</h1>
    </div>
  );
}

/** /visitor/text: the stand-alone launcher page for links and app webviews. */
export function Launcher({ config, title }: { config: WidgetConfig; title: string }) {
  return (
    <main class="kf-card-page">
      <section class="kf-card">
        <Brand config={config} title={title} />
        <p class="kf-intro">{config.dialogue.welcome || t('launcherIntro')}</p>
        <a class="kf-btn kf-btn-primary kf-btn-block" href={pageUrl(chatPage(), location.search)}>
          {t('startChat')}
        </a>
      </section>
    </main>
  );
}

/** /visitor/navigation: choose a skill group before chatting. */
export function Navigation({ config, title }: { config: WidgetConfig; title: string }) {
  const groups = config.skills.length ? config.skills : [{ id: '', name: t('defaultGroup') }];
  return (
    <main class="kf-card-page">
      <section class="kf-card">
        <Brand config={config} title={title} />
        <p class="kf-intro">{t('chooseGroup')}</p>
        <ul class="kf-groups">
          {groups.map((g) => (
            <li key={g.id}>
              <a
                class="kf-btn kf-btn-block"
                href={pageUrl(chatPage(), location.search, g.id ? { skill: g.id } : {})}
              >
                {g.name}
              </a>
            </li>
          ))}
        </ul>
      </section>
    </main>
  );
}
