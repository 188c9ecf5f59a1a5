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
  return view.root;
}
