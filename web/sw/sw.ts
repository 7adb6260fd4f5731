/**
 * The service worker: Workbox precaches the app shell (the build's manifest, injected by vite-plugin-pwa)
 * and answers every page navigation with the cached index.html, so the app opens offline; it shows the
 * reminders the server pushes and opens the checklist a notification names.
 */
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from 'workbox-precaching';
import { NavigationRoute, registerRoute } from 'workbox-routing';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<string | { url: string }> };

precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();
// Client routes get the shell; the API and the docs are never answered from the cache.
registerRoute(
  new NavigationRoute(createHandlerBoundToURL('/index.html'), { denylist: [/^\/api(\/|$)/, /^\/docs/] }),
);

// The page's update prompt asks the waiting worker to take over (registerType "prompt").
self.addEventListener('message', (event) => {
  if ((event.data as { type?: string } | null)?.type === 'SKIP_WAITING') void self.skipWaiting();
});

/** What the reminder job sends (services/user-data/src/reminders/payload.ts). */
interface ReminderPayload {
  title: string;
  body: string;
  url: string;
  tag: string;
}

function parse(event: PushEvent): ReminderPayload | null {
  try {
    const p = event.data?.json() as Partial<ReminderPayload> | undefined;
    if (!p || typeof p.title !== 'string') return null;
    return {
      title: p.title,
      body: typeof p.body === 'string' ? p.body : '',
      url: typeof p.url === 'string' && p.url.startsWith('/') ? p.url : '/usercolleges',
      tag: typeof p.tag === 'string' ? p.tag : p.title,
    };
  } catch {
    return null;
  }
}

self.addEventListener('push', (event) => {
  const p = parse(event);
  if (!p) return;
  event.waitUntil(
    self.registration.showNotification(p.title, {
      body: p.body,
      tag: p.tag,
      icon: '/icons/icon-192.png',
      badge: '/icons/maskable-192.png',
      data: { url: p.url },
    }),
  );
});

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = new URL(
    (event.notification.data as { url?: string } | null)?.url ?? '/usercolleges',
    self.location.origin,
  ).href;
  event.waitUntil(
    (async () => {
      const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
      const tab = open.find((c) => new URL(c.url).origin === self.location.origin);
      if (tab) {
        await tab.focus();
        await tab.navigate(url);
        return;
      }
      await self.clients.openWindow(url);
    })(),
  );
});
