import * as api from "./api.js";

/**
 * This browser's Web Push subscription to the daily reminder: made with the server's key, kept on the server so
 * the reminder reaches it, ended here and there together.
 */

/** Whether this browser can show pushed notifications at all. */
export function supported() {
  return "serviceWorker" in navigator && "PushManager" in window && "Notification" in window;
}

/** A browser that never answers (no push service reachable) is given this long. */
const SUBSCRIBE_TIME_LIMIT_MS = 15_000;

/** This browser's subscription as the server knows it (`{id, endpoint}`), or null. */
export async function current() {
  if (!supported()) return null;
  const subscription = await (await navigator.serviceWorker.getRegistration())?.pushManager.getSubscription();
  if (!subscription) return null;
  const listed = await api.call("GET", "/v1/me/push-subscriptions");
  return listed.subscriptions.find((known) => known.endpoint === subscription.endpoint) ?? null;
}

/**
 * Asks for permission, subscribes with the server's key and tells the server. Throws an Error whose message says
 * what the person can do when it cannot be done.
 */
export async function subscribe() {
  if (!supported()) throw new Error("This browser cannot show notifications from a web app.");
  const permission = await Notification.requestPermission();
  if (permission !== "granted") {
    throw new Error("Notifications are blocked for My Day in this browser's settings; allow them there first.");
  }
  const { application_server_key: key } = await api.call("GET", "/v1/me/push-subscriptions");
  const registration = await navigator.serviceWorker.getRegistration();
  if (!registration) throw new Error("My Day is still setting itself up in this browser; reload the page and try again.");
  let subscription = await registration.pushManager.getSubscription();
  if (subscription && encode(subscription.options.applicationServerKey) !== key) {
    await subscription.unsubscribe();
    subscription = null;
  }
  if (!subscription) {
    let timer;
    const tooLong = new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error("This browser's push service did not answer, so no notification can reach it now.")), SUBSCRIBE_TIME_LIMIT_MS);
    });
    try {
      subscription = await Promise.race([
        registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), tooLong,
      ]);
    } catch (failure) {
      throw failure instanceof Error && failure.message.startsWith("This browser")
        ? failure : new Error(`This browser could not subscribe to notifications: ${failure?.message ?? failure}`);
    } finally {
      clearTimeout(timer);
    }
  }
  const { endpoint, keys } = subscription.toJSON();
  return api.call("POST", "/v1/me/push-subscriptions", {
    endpoint, keys: { p256dh: keys.p256dh, auth: keys.auth }, application_server_key: key,
  });
}

/** Ends this browser's subscription, on the server first (so nothing more is sent), then in the browser. */
export async function unsubscribe() {
  if (!supported()) return;
  const known = await current();
  if (known) await api.call("DELETE", `/v1/me/push-subscriptions/${known.id}`);
  const registration = await navigator.serviceWorker.getRegistration();
  await (await registration?.pushManager.getSubscription())?.unsubscribe();
}

/** Has the server send this browser a test notification now. */
export async function sendTest(id) {
  await api.call("POST", `/v1/me/push-subscriptions/${id}/test`);
}

/** An ArrayBuffer key as base64url without padding, as the server writes keys. */
function encode(buffer) {
  if (!buffer) return "";
  const text = String.fromCharCode(...new Uint8Array(buffer));
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}
