// The server's API as the web app uses it. The access token lives in this module only; the refresh
// token is an HttpOnly cookie the page never sees (ADR 0015).

let accessToken = null;
let expiresAt = 0;
let refreshing = null;
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

/** The signed-in account; offline, the one this browser was last signed in as; or null. */
export function currentAccount() {
  return account;
}

/** Opens offline as the account this browser was last signed in as (recordings wait for the server). */
export function resumeOffline() {
  account = JSON.parse(localStorage.getItem(REMEMBERED) ?? "null");
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

async function webSession(path, body) {
  const response = await fetch(`/v1/auth/web/${path}`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-MyDay-Web": "1" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw await errorFrom(response);
  return response.status === 204 ? null : response.json();
}

export async function register(email, password) {
  return adopt(await webSession("register", { email, password }));
}

export async function login(email, password) {
  return adopt(await webSession("login", { email, password }));
}

/** Signs in with the identity token Apple's JS flow answered, and the raw nonce its SHA-256 was sent with. */
export async function signInWithApple(identityToken, nonce, name) {
  const body = { identity_token: identityToken, nonce };
  if (name) body.name = name;
  return adopt(await webSession("apple", body));
}

/** Signs in with the ID token Google Identity Services answered. */
export async function signInWithGoogle(idToken, nonce) {
  return adopt(await webSession("google", { id_token: idToken, nonce }));
}

/** Restores the session from the cookie; answers the account, or null when there is none. */
export async function resume() {
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
    const refresh = () => webSession("refresh");
    const locked = navigator.locks ? navigator.locks.request("myday-refresh", refresh) : refresh();
    refreshing = locked.finally(() => {
      refreshing = null;
    });
  }
  return refreshing;
}

export async function logout() {
  try {
    await webSession("logout");
  } finally {
    forget();
  }
}

/** After the account was deleted on the server. */
export function forgetAccount() {
  forget();
}

async function validToken() {
  if (!accessToken || Date.now() > expiresAt - 60_000) adopt(await refreshOnce());
  return accessToken;
}

/** A JSON call with the access token; refreshes once after a 401. */
export async function call(method, path, body) {
  for (let attempt = 0; attempt < 2; attempt++) {
    const token = await validToken();
    const response = await fetch(path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body === undefined ? {} : { "Content-Type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    if (response.status === 401 && attempt === 0) {
      accessToken = null;
      continue;
    }
    return answer(response);
  }
}

/** Sets a new password with a mailed link's token; signs this browser in (every other session ends). */
export async function resetPassword(token, newPassword) {
  return adopt(await webSession("password/reset", { token, new_password: newPassword }));
}

/** A call anyone may make, without a session (a forgotten password, a mailed link). */
export async function callPublic(method, path, body) {
  const response = await fetch(path, {
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
  const response = await fetch("/v1/config");
  if (!response.ok) throw await errorFrom(response);
  return response.json();
}

async function errorFrom(response) {
  let code = `http_${response.status}`;
  let message = response.statusText || "The server answered with an error.";
  try {
    const body = await response.json();
    code = body.error?.code ?? code;
    message = body.error?.message ?? message;
  } catch {
    // Not JSON: keep the status line.
  }
  const retry = response.headers.get("Retry-After");
  return new APIError(response.status, code, message, retry === null ? null : Number(retry));
}
