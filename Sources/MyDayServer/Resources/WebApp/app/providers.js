// Apple's and Google's own sign-in flows in the browser: each answers a fresh identity token and the nonce it carries,
// to sign in with, or to prove a recent sign-in before something that needs one (closing the account, an export).

import { newID } from "./uploads.js";

/**
 * Readies `button` for Sign in with Apple in a popup. The script and the nonce are ready before the click, so the
 * popup opens in the click itself (Safari blocks popups opened later). Apple gets the nonce's SHA-256; `onToken`
 * gets `{ token, nonce, name, code }`, the nonce as it was made.
 */
export async function prepareApple(button, clientId, onToken) {
  button.disabled = true;
  await loadScript("https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js");
  const nonce = newID();
  window.AppleID.auth.init({ clientId, scope: "name email", redirectURI: `${location.origin}/`, usePopup: true, nonce: await sha256Hex(nonce) });
  button.disabled = false;
  button.addEventListener("click", () =>
    onToken(async () => {
      const answer = await window.AppleID.auth.signIn();
      const name = [answer.user?.name?.firstName, answer.user?.name?.lastName].filter(Boolean).join(" ");
      return { token: answer.authorization.id_token, nonce, name: name || undefined, code: answer.authorization.code };
    }),
  );
}

/**
 * Google Identity Services draws its own button in place of `placeholder`; its credential carries our nonce. `onToken`
 * gets `{ token, nonce }`.
 */
export async function prepareGoogle(placeholder, clientId, onToken, text = "signin_with") {
  await loadScript("https://accounts.google.com/gsi/client");
  const nonce = newID();
  window.google.accounts.id.initialize({
    client_id: clientId, nonce, callback: (answer) => onToken(async () => ({ token: answer.credential, nonce })),
  });
  const container = document.createElement("div");
  container.className = "provider-button";
  placeholder.replaceWith(container);
  window.google.accounts.id.renderButton(container, { type: "standard", theme: "outline", size: "large", text, width: 320 });
}

function loadScript(src) {
  if (document.querySelector(`script[src="${src}"]`)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const script = Object.assign(document.createElement("script"), { src, async: true });
    script.onload = resolve;
    script.onerror = () => reject(new Error("The sign-in service could not be reached."));
    document.head.append(script);
  });
}

export async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
