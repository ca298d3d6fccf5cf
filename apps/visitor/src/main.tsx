import { render } from 'preact';
import { App } from './ui/App.js';
import { lang, pickLang, setLang, t } from './lib/i18n.js';
import { parseRoute } from './lib/route.js';
import './ui/style.css';

setLang(pickLang(location.search, navigator.language));
const route = parseRoute(location.pathname, location.search);
if (location.pathname.replace(/\/+$/, '') === '/visitor')
  history.replaceState(null, '', `/visitor/text${location.search}`);
document.documentElement.lang = lang() === 'en' ? 'en' : 'zh-CN';
document.title = t('title');
const root = document.getElementById('app');
if (root) render(<App route={route} />, root);
