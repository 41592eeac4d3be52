import { startSession, signOut } from './admin-api.js';
import { h, replace } from './dom.js';
import { renderJobsPage } from './pages/jobs-page.js';
import { renderRequestsPage } from './pages/requests-page.js';
import { renderSpendPage } from './pages/spend-page.js';
import { renderTargetsPage } from './pages/targets-page.js';
import { renderTenantsPage } from './pages/tenants-page.js';

const main = document.getElementById('main') as HTMLElement;
let stopPage: (() => void) | undefined;
let notices: HTMLElement | undefined;

function notice(message: string, error = false): void {
  notices?.remove();
  notices = h('p', { role: error ? 'alert' : 'status', class: error ? 'error' : 'status' }, message);
  main.prepend(notices);
}

async function route(): Promise<void> {
  stopPage?.();
  stopPage = undefined;
  const rendering = location.hash;
  main.removeAttribute('data-route');
  const [path = '', search = ''] = location.hash.replace(/^#/, '').split('?');
  const query = new URLSearchParams(search);
  const page = path === '' || path === '/' ? '/tenants' : path;
  for (const link of document.querySelectorAll('nav a')) {
    if (link.getAttribute('href') === `#${page}`) link.setAttribute('aria-current', 'page');
    else link.removeAttribute('aria-current');
  }
  try {
    if (page === '/tenants') await renderTenantsPage(main, notice);
    else if (page === '/spend') await renderSpendPage(main, query);
    else if (page === '/requests') await renderRequestsPage(main, query);
    else if (page === '/targets') stopPage = renderTargetsPage(main, notice);
    else if (page === '/jobs') await renderJobsPage(main, query);
    else replace(main, h('h1', {}, 'Not found'), h('p', {}, 'No such page.'));
  } catch (error) {
    replace(main, h('h1', {}, 'Error'), h('p', { role: 'alert', class: 'error' }, (error as Error).message));
  }
  document.title = `${main.querySelector('h1')?.textContent ?? 'Console'} · TokenForge console`;
  // Marks which route the page now shows, so a reader can tell a finished render from the previous page.
  if (location.hash === rendering) main.setAttribute('data-route', rendering);
}

document.getElementById('sign-out')?.addEventListener('click', () => void signOut());
window.addEventListener('hashchange', () => void route().then(() => main.focus()));
await startSession();
await route();
