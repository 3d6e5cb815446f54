import 'bootstrap/dist/css/bootstrap.min.css';
import './styles/app.css';
import './lib/i18n.ts';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App.tsx';
import { registerServiceWorker } from './lib/pwa.ts';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);

// The installable, offline app (README: Installable and offline): the service worker precaches the shell and pages.
void registerServiceWorker();
