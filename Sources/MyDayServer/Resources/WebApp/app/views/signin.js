import * as api from "../api.js";
import { clearFieldErrors, fromTemplate, refuseField } from "../ui.js";
import { prepareApple, prepareGoogle } from "../providers.js";

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
    view.slot("rule").hidden = !registering;
    form.elements.password.setCustomValidity("");
    clearFieldErrors([form.elements.email, form.elements.password], [error, view.slot("email-error"), view.slot("password-error")]);
  });

  // A new password is checked here against the server's rule before it is sent.
  form.elements.password.addEventListener("input", () => {
    const tooShort = registering && form.elements.password.value.trim().length < 8;
    form.elements.password.setCustomValidity(tooShort ? "Use at least 8 characters besides spaces at either end." : "");
  });

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { email, password } = form.elements;
    clearFieldErrors([email, password], [error, view.slot("email-error"), view.slot("password-error")]);
    submit.disabled = true;
    try {
      if (registering) await api.register(email.value.trim(), password.value);
      else await api.login(email.value.trim(), password.value);
      onSignedIn();
    } catch (failure) {
      // What the server refuses about one field is said at that field; the rest (a wrong password, say) under both.
      const about = failure.status === 422 || failure.status === 409 ? fieldOf(failure.message) : null;
      if (about === "password") refuseField(password, view.slot("password-error"), failure.message);
      else if (about === "email") refuseField(email, view.slot("email-error"), failure.message);
      else error.textContent = failure.message || "Could not reach the server.";
    } finally {
      submit.disabled = false;
    }
  });

  // "Forgot password?" only where the server can mail the link.
  const forgot = view.action("forgot");
  forgot.hidden = !config?.mails_links;
  forgot.addEventListener("click", () => view.root.replaceWith(forgotView({ email: form.elements.email.value.trim() })));

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
  const unavailable = (button) => () => {
    button.disabled = true;
    button.textContent += " (unavailable)";
  };
  if (config?.sign_in?.apple) {
    prepareApple(view.action("apple"), config.apple_client_id, (answer) => signingIn(async () => {
      const { token, nonce, name, code } = await answer();
      await api.signInWithApple(token, nonce, name, code);
    })).catch(unavailable(view.action("apple")));
  }
  if (config?.sign_in?.google) {
    prepareGoogle(view.action("google"), config.google_client_id, (answer) => signingIn(async () => {
      const { token, nonce } = await answer();
      await api.signInWithGoogle(token, nonce);
    })).catch(unavailable(view.action("google")));
  }
  return view.root;
}

/** Asks for a link that sets a new password; says the same whatever the address, as the server does. */
function forgotView({ email }) {
  const view = fromTemplate("forgot-template");
  const form = view.form("forgot");
  form.elements.email.value = email;
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = view.slot("error");
    error.textContent = "";
    form.elements.send.disabled = true;
    try {
      const address = form.elements.email.value.trim();
      await api.callPublic("POST", "/v1/auth/password/forgot", { email: address });
      view.slot("sent").textContent =
        `Check your mail. If an account has ${address}, a link to set a new password is on its way; it works once, for 30 minutes.`;
      form.hidden = true;
    } catch (failure) {
      error.textContent = failure.message || "Could not reach the server.";
      form.elements.send.disabled = false;
    }
  });
  view.action("back").addEventListener("click", () => location.reload());
  return view.root;
}

/** The page a mailed reset link opens: a new password, then signed in. */
export function resetView({ token, onSignedIn }) {
  const view = fromTemplate("reset-template");
  const form = view.form("reset");
  const password = form.elements.password;
  password.addEventListener("input", () => {
    const tooShort = password.value.trim().length < 8;
    password.setCustomValidity(tooShort ? "Use at least 8 characters besides spaces at either end." : "");
  });
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const error = view.slot("error");
    error.textContent = "";
    try {
      await api.resetPassword(token, password.value);
      history.replaceState(null, "", "/#/");
      onSignedIn();
    } catch (failure) {
      error.textContent = failure.message || "Could not reach the server.";
    }
  });
  return view.root;
}

/**
 * The page a mailed confirmation link opens. Signed in, it confirms the address. Signed out, an address nobody
 * confirmed yet asks who is here: the account's maker signs in first; anyone else sets a password with the link,
 * which makes the account theirs and ends every other way in (ADR 0029).
 */
export function verifyView({ token, onDone, onSignIn }) {
  const view = fromTemplate("verify-template");
  const status = view.slot("status");
  const choices = view.slot("choices");
  const proceed = view.action("continue");
  const confirm = api.currentAccount()
    ? api.call("POST", "/v1/auth/email/verify", { token })
    : api.callPublic("POST", "/v1/auth/email/verify", { token });
  confirm
    .then(async (answer) => {
      status.textContent = `Thank you: ${answer.email} is confirmed as your My Day address.`;
      proceed.hidden = false;
      if (api.currentAccount()) await api.reloadAccount().catch(() => {});
    })
    .catch((failure) => {
      if (failure.code === "confirmation_needs_sign_in") {
        status.textContent = "Who is confirming this address?";
        choices.hidden = false;
      } else {
        status.textContent = failure.message || "Could not reach the server.";
        proceed.hidden = false;
      }
    });
  // Signed in as another account already, the maker signs out first (Profile) and opens the link again.
  if (onSignIn) view.action("sign-in-to-confirm").addEventListener("click", onSignIn);
  else view.action("sign-in-to-confirm").hidden = true;
  view.action("claim").addEventListener("click", () => view.root.replaceWith(resetView({ token, onSignedIn: onDone })));
  proceed.addEventListener("click", onDone);
  return view.root;
}

/** A reminder mail's stop link (`#/stop-reminders/<token>`): ends the reminder, signed in or not. */
export function stopRemindersView({ token }) {
  const view = fromTemplate("stop-reminders-template");
  const status = view.slot("status");
  api.callPublic("POST", `/v1/reminders/stop?token=${encodeURIComponent(token)}`)
    .then(() => (status.textContent = "Your daily reminder is stopped. Turn it on again in Profile whenever you like."))
    .catch((failure) => (status.textContent = failure.message));
  return view.root;
}

/** Which field a refusal of the server is about, by the words it uses; null when it is about neither. */
function fieldOf(message) {
  if (/password/i.test(message)) return "password";
  if (/email|address/i.test(message)) return "email";
  return null;
}
