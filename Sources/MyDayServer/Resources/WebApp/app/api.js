// The server's API as the web app uses it. The access token lives in this module only; the refresh
// token is an HttpOnly cookie the page never sees (ADR 0015).

let accessToken = null;
let expiresAt = 0;
let refreshing = null;
// While this browser signs in again after its own password change: a request that meets the ended session waits.
let handover = null;
let account = null;

/** An error answer: its status, stable code and sentence for people. */
export class APIError extends Error {
  constructor(status, code, message, retryAfter) {
    super(message);
    this.status = status;
    this.code = code;
    this.retryAfter = retryAfter;
  }
}

const REMEMBERED = "myday.account";
// Set from the moment someone signs out until the server has revoked the sign-in cookie.
const SIGNING_OUT = "myday.signingOut";
const OFFLINE = "You are offline: My Day cannot reach its server right now. Try again when you are back online.";

/** True when `error` is the network failing (offline, or the server unreachable), not an answer. */
export function isOffline(error) {
  return error instanceof APIError && error.code === "offline";
}

/** `fetch`, with a failed network turned into an APIError that says so in words. */
async function request(path, init) {
  try {
    return await fetch(path, init);
  } catch (error) {
    if (error?.name === "AbortError") throw error;
    throw new APIError(0, "offline", OFFLINE, null);
  }
}

/** The signed-in account; offline, the one this browser was last signed in as; or null. */
export function currentAccount() {
  return account;
}

/** Opens offline as the account this browser was last signed in as (recordings wait for the server). */
export function resumeOffline() {
  if (localStorage.getItem(SIGNING_OUT)) return null;
  account = JSON.parse(localStorage.getItem(REMEMBERED) ?? "null");
  return account;
}

/** Reads the signed-in account again (its address changed, say). */
export async function reloadAccount() {
  account = { ...account, ...(await call("GET", "/v1/me")) };
  localStorage.setItem(REMEMBERED, JSON.stringify({ id: account.id, email: account.email }));
  return account;
}

function adopt(session) {
  accessToken = session.access_token;
  expiresAt = Date.now() + session.expires_in * 1000;
  account = session.user;
  localStorage.setItem(REMEMBERED, JSON.stringify({ id: account.id, email: account.email }));
  return session.user;
}

function forget() {
  accessToken = null;
  account = null;
  localStorage.removeItem(REMEMBERED);
}

/**
 * A request of the web sign-in (`/v1/auth/web/…`), which sets or clears this browser's sign-in cookie, holding the lock
 * of such requests across tabs: a refusal that clears a dead cookie can never land after another request's new one.
 */
function webSession(path, body) {
  return exclusively(() => unlockedWebSession(path, body));
}

/** `webSession` for a caller that already holds the lock. */
async function unlockedWebSession(path, body) {
  const response = await request(`/v1/auth/web/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-MyDay-Web": "1" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await errorFrom(response);
  return response.status === 204 ? null : response.json();
}

export async function register(email, password) {
  await finishSignOut();
  return adopt(await webSession("register", { email, password }));
}

export async function login(email, password) {
  await finishSignOut();
  return adopt(await webSession("login", { email, password }));
}

/**
 * Changes the password, which ends every sign-in, and signs this browser in again with the new one; a request that
 * meets the ended session meanwhile (the change feed, say) waits for the new one instead of signing out. Answers
 * whether this browser is signed in again.
 *
 * Both steps hold the lock every refresh takes, in this tab and the others: a refresh sent with the old cookie between
 * them is refused with a cleared cookie, and when that answer came after the new sign-in's, this browser was signed
 * out at its next load.
 */
export async function changePassword(current, next) {
  const token = await validToken();
  let done;
  handover = new Promise((resolve) => (done = resolve));
  try {
    return await exclusively(async () => {
      await answer(await request("/v1/me/password", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ current_password: current, new_password: next }),
      }));
      try {
        adopt(await unlockedWebSession("login", { email: account.email, password: next }));
        return true;
      } catch {
        return false;
      }
    });
  } finally {
    handover = null;
    done();
  }
}

/** Signs in with the identity token and code Apple's JS flow answered, and the raw nonce its SHA-256 was sent with. */
export async function signInWithApple(identityToken, nonce, name, authorizationCode) {
  const body = { identity_token: identityToken, nonce };
  if (name) body.name = name;
  if (authorizationCode) body.authorization_code = authorizationCode;
  await finishSignOut();
  return adopt(await webSession("apple", body));
}

/** Signs in with the ID token Google Identity Services answered. */
export async function signInWithGoogle(idToken, nonce) {
  await finishSignOut();
  return adopt(await webSession("google", { id_token: idToken, nonce }));
}

/**
 * Restores the session from the cookie; answers the account, or null when there is none. After a
 * sign-out the server has not heard of yet, never: the cookie is revoked first, when it can be.
 */
export async function resume() {
  if (localStorage.getItem(SIGNING_OUT)) {
    await finishSignOut().catch(() => {});
    return null;
  }
  try {
    return adopt(await refreshOnce());
  } catch (error) {
    if (error instanceof APIError && error.status === 401) {
      forget();
      return null;
    }
    throw error;
  }
}

/**
 * One refresh at a time, however many requests need a new token — across tabs too: each rotation
 * retires the cookie it used (ADR 0009), so two tabs refreshing at once would end the session.
 */
function refreshOnce() {
  if (!refreshing) {
    refreshing = webSession("refresh").finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

/** Runs `work` holding the lock of the requests that set or clear this browser's sign-in cookie, across its tabs. */
function exclusively(work) {
  return navigator.locks ? navigator.locks.request("myday-refresh", work) : work();
}

/**
 * Signs out here at once, online or not; the server revokes the sign-in cookie now, or when it can
 * next be reached (`finishSignOut`).
 */
export async function logout() {
  localStorage.setItem(SIGNING_OUT, "1");
  forget();
  await finishSignOut().catch(() => {});
}

/** Tells the server about a sign-out it has not heard of yet, so its cookie stops working. */
export async function finishSignOut() {
  if (!localStorage.getItem(SIGNING_OUT)) return;
  await webSession("logout");
  localStorage.removeItem(SIGNING_OUT);
}

/** After the account was deleted on the server. */
export function forgetAccount() {
  forget();
}

async function validToken() {
  if (!accessToken || Date.now() > expiresAt - 60_000) {
    try {
      adopt(await refreshOnce());
    } catch (error) {
      if (error instanceof APIError && error.status === 401 && handover) {
        await handover;
        if (accessToken) return accessToken;
      }
      // The session is over (signed out everywhere, a new password, the sign-in's 30 days): say so once, so the
      // page forgets the diary it keeps and shows the sign-in screen.
      if (error instanceof APIError && error.status === 401 && account) {
        forget();
        dispatchEvent(new Event("myday:session-ended"));
      }
      throw error;
    }
  }
  return accessToken;
}

/** A JSON call with the access token; refreshes once after a 401. */
export async function call(method, path, body) {
  return answer(await authorized(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  }));
}

/** A GET whose answer is read as it arrives (the change feed); the response, once it is a good one. */
export async function stream(path, signal) {
  const response = await authorized(path, { method: "GET", signal });
  if (!response.ok) throw await errorFrom(response);
  return response;
}

/** The answer to a request sent with the access token; after a 401, once more with a fresh token. */
async function authorized(path, init) {
  for (let attempt = 0; ; attempt++) {
    const token = await validToken();
    const response = await request(path, { ...init, headers: { ...init.headers, Authorization: `Bearer ${token}` } });
    if (response.status !== 401 || attempt > 0) return response;
    accessToken = null;
  }
}

/** Sets a new password with a mailed link's token; signs this browser in (every other session ends). */
export async function resetPassword(token, newPassword) {
  return adopt(await webSession("password/reset", { token, new_password: newPassword }));
}

/** A call anyone may make, without a session (a forgotten password, a mailed link). */
export async function callPublic(method, path, body) {
  const response = await request(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return answer(response);
}

/** The JSON of a good answer (null when it has no body); the error of any other. */
async function answer(response) {
  if (!response.ok) throw await errorFrom(response);
  const text = await response.text();
  return text ? JSON.parse(text) : null;
}

export async function config() {
  const response = await request("/v1/config");
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

/** The error of an answer, with a sentence a person understands: the server's own, or one of ours. */
async function errorFrom(response) {
  let code = `http_${response.status}`;
  let message = null;
  try {
    const body = await response.json();
    code = body.error?.code ?? code;
    message = body.error?.message ?? null;
  } catch {
    // Not JSON (a proxy's page, say): the sentence below says what happened.
  }
  const header = response.headers.get("Retry-After");
  const retryAfter = header === null || Number.isNaN(Number(header)) ? null : Number(header);
  if (response.status === 429 || code === "rate_limited") {
    message = retryAfter ? `Too many attempts — try again in ${retryAfter === 1 ? "1 second" : `${retryAfter} seconds`}.` : "Too many attempts — try again in a minute.";
  } else if (response.status >= 500) {
    message = "My Day's server ran into a problem. Please try again in a moment.";
  }
  return new APIError(response.status, code, message ?? "My Day's server could not do that. Please try again.", retryAfter);
}
