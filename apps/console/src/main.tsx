import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { initI18n } from './lib/i18n';
import { App } from './app/App';
import { applyPageIdentity } from './app/pageIdentity';
import { syncLanguage } from './app/ui';
import './app/global.css';

async function start() {
  // Visitor pages skip the token-info call (spec section 1).
  if (!window.location.pathname.startsWith('/visitor')) void applyPageIdentity();
  await initI18n();
  syncLanguage();
  createRoot(document.getElementById('root') as HTMLElement).render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

void start();
