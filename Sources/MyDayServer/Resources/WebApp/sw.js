// The service worker keeps the app shell, so My Day opens offline; the API is never cached.

const CACHE = "myday-shell-v11";
const SHELL = [
  "/", "/manifest.webmanifest", "/app/styles.css", "/app/icon.svg", "/app/icon-180.png", "/app/main.js", "/app/api.js", "/app/awake.js", "/app/db.js",
  "/app/elsewhere.js", "/app/hold.js", "/app/live.js", "/app/providers.js", "/app/push.js", "/app/recorder.js", "/app/recovery.js", "/app/search.js", "/app/sync.js", "/app/ui.js", "/app/uploads.js", "/app/waveform.js",
  "/app/views/calendar.js", "/app/views/day.js", "/app/views/deleted.js", "/app/views/detail.js", "/app/views/home.js", "/app/views/import.js", "/app/views/insights.js", "/app/views/library.js", "/app/views/profile.js", "/app/views/recording-bar.js",
  "/app/views/signin.js",
];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(SHELL)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches.keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

// The shell: the network first (so an update shows at once), the cache when offline.
self.addEventListener("fetch", (event) => {
  const url = new URL(event.request.url);
  if (event.request.method !== "GET" || url.origin !== location.origin) return;
  if (url.pathname !== "/" && !url.pathname.startsWith("/app/") && url.pathname !== "/manifest.webmanifest") return;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(event.request, copy));
        }
        return response;
      })
      .catch(() => caches.match(event.request, { ignoreSearch: true })),
  );
});

// The daily reminder, pushed by the server (Web Push): shown as it came, and a tap opens My Day where it says.
self.addEventListener("push", (event) => {
  let message = {};
  try {
    message = event.data ? event.data.json() : {};
  } catch {
    message = {};
  }
  const title = typeof message.title === "string" ? message.title : "My Day";
  event.waitUntil(self.registration.showNotification(title, {
    body: typeof message.body === "string" ? message.body : "",
    tag: typeof message.tag === "string" ? message.tag : "myday",
    icon: "/app/icon-180.png",
    data: { url: typeof message.url === "string" && message.url.startsWith("/") && !message.url.startsWith("//") ? message.url : "/" },
  }));
});

self.addEventListener("notificationclick", (event) => {
  event.notification.close();
  const target = new URL(event.notification.data?.url ?? "/", location.origin).href;
  event.waitUntil((async () => {
    const open = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
    const mine = open.find((client) => new URL(client.url).origin === location.origin);
    if (mine) {
      await mine.focus();
      return mine.navigate(target).catch(() => undefined);
    }
    return self.clients.openWindow(target);
  })());
});
