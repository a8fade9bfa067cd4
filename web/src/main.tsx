import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App';
import { startOfflineMirror } from './offline/mirror';
import { startQueuedUploads } from './offline/queuedUploads';
import { registerServiceWorker } from './offline/serviceWorker';
import { installClientLog } from './sync/clientLog';
import './index.css';

// Errors and warnings go to the server's log (SPEC §3 logs) once signed in.
installClientLog();
// Installable and useful offline (docs/FEATURES.md, "On the phone").
registerServiceWorker();
startOfflineMirror();
startQueuedUploads();

const root = document.getElementById('root');
if (!root) throw new Error('Missing #root element');

createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
