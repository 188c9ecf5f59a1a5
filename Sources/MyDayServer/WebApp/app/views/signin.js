import * as api from "../api.js";
import { fromTemplate } from "../ui.js";

/** Sign in or create an account; `onSignedIn()` once there is a session. */
export function signInView({ onSignedIn, config }) {
  const view = fromTemplate("signin-template");
  const form = view.form("signin");
  const submit = view.slot("submit");
  const error = view.slot("error");
  let registering = false;

  view.action("switch").addEventListener("click", () => {
    registering = !registering;
    submit.textContent = registering ? "Create account" : "Sign in";
    view.action("switch").textContent = registering ? "Have an account? Sign in" : "New here? Create an account";
    form.elements.password.autocomplete = registering ? "new-password" : "current-password";
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    error.textContent = "";
    submit.disabled = true;
    const { email, password } = form.elements;
    try {
      if (registering) await api.register(email.value.trim(), password.value);
      else await api.login(email.value.trim(), password.value);
      onSignedIn();
    } catch (failure) {
      error.textContent = failure.message || "Could not reach the server.";
    } finally {
      submit.disabled = false;
    }
  });

  if (config?.sign_in?.apple || config?.sign_in?.google) {
    view.slot("providers").hidden = false;
    view.action("apple").hidden = !config.sign_in.apple;
    view.action("google").hidden = !config.sign_in.google;
  }
  async function signingIn(work) {
    error.textContent = "";
    try {
      await work();
      onSignedIn();
    } catch (failure) {
      if (failure?.error === "popup_closed_by_user") return;
      error.textContent = failure?.message || "The sign-in did not finish.";
    }
  }
  view.action("apple").addEventListener("click", () => signingIn(() => signInWithApple(config.apple_client_id)));
  view.action("google").addEventListener("click", () => signingIn(() => signInWithGoogle(config.google_client_id)));
  return view.root;
}

/** Apple's JS flow in a popup; Apple gets the SHA-256 of a fresh nonce, the server the nonce itself. */
async function signInWithApple(clientId) {
  await loadScript("https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js");
  const nonce = crypto.randomUUID();
  window.AppleID.auth.init({ clientId, scope: "name email", redirectURI: `${location.origin}/`, usePopup: true, nonce: await sha256Hex(nonce) });
  const answer = await window.AppleID.auth.signIn();
  const name = [answer.user?.name?.firstName, answer.user?.name?.lastName].filter(Boolean).join(" ");
  await api.signInWithApple(answer.authorization.id_token, nonce, name || undefined);
}

/** Google Identity Services' one-tap prompt; its credential carries the nonce given here. */
async function signInWithGoogle(clientId) {
  await loadScript("https://accounts.google.com/gsi/client");
  const nonce = crypto.randomUUID();
  const credential = await new Promise((resolve, reject) => {
    window.google.accounts.id.initialize({ client_id: clientId, nonce, callback: (answer) => resolve(answer.credential) });
    window.google.accounts.id.prompt((moment) => {
      if (moment.isNotDisplayed() || moment.isSkippedMoment()) reject(new Error("Google sign-in was not shown; allow third-party sign-in prompts and try again."));
    });
  });
  await api.signInWithGoogle(credential, nonce);
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

async function sha256Hex(text) {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
