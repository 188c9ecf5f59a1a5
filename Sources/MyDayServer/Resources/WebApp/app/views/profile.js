import * as api from "../api.js";
import * as db from "../db.js";
import { prepareApple, prepareGoogle } from "../providers.js";
import * as push from "../push.js";
import * as uploads from "../uploads.js";
import { announce, clearFieldErrors, counted, duration, fromTemplate, localDay, refuseField } from "../ui.js";
import { QUESTION_ON } from "./home.js";

/** Profile: totals and streak, export by date range, sign out, delete account. */
export function profileView({ onSignedOut }) {
  const view = fromTemplate("profile-template");
  const error = view.slot("error");
  const zone = uploads.timeZone();
  const exportForm = view.form("export");
  const today = new Date();
  exportForm.elements.to.value = localDay(today, zone);
  exportForm.elements.from.value = localDay(new Date(today.getTime() - 30 * 86_400_000), zone);

  /** The account's figures; offline, one line that says so in their place. */
  async function load() {
    view.slot("email").textContent = api.currentAccount()?.email ?? "";
    try {
      const [me, config, stats] = await Promise.all([
        api.call("GET", "/v1/me"), api.config(), api.call("GET", `/v1/me/stats?tz=${encodeURIComponent(zone)}`),
      ]);
      // An address not yet confirmed gets no export mail: say so, and offer the link again.
      view.slot("unverified").hidden = me.email_verified;
      view.action("resend").hidden = !config.mails_links;
      view.slot("count").textContent = String(stats.total_entries);
      view.slot("duration").textContent = duration(stats.total_duration_s);
      view.slot("streak").textContent = counted(stats.current_streak_days, "day", "days");
      view.slot("storage").textContent = `Storage: ${bytes(stats.storage_used_bytes)} of ${bytes(stats.storage_quota_bytes)} used`;
      showSignIns(me, await api.call("GET", "/v1/me/identities"));
      passwordForm.hidden = !me.has_password;
      // An account without a password confirms with Apple or Google when closing it needs a recent sign-in.
      view.form("delete").elements.password.closest("label").hidden = !me.has_password;
      showVocabulary((await api.call("GET", "/v1/me/vocabulary")).words);
      showReminder(await api.call("GET", "/v1/me/reminder").catch((failure) => {
        if (failure.status === 404) return null;
        throw failure;
      }));
      await showPush();
      offline(false);
    } catch (failure) {
      if (!api.isOffline(failure)) error.textContent = failure.message;
      offline(api.isOffline(failure));
    }
  }

  // The daily reminder: a toggle that shows its time, days and "by mail"; saved with its own button, or ended at once.
  const reminderForm = view.form("reminder");
  const reminderOn = view.action("reminder-on");
  const reminderEmail = view.action("reminder-email");
  const reminderStatus = view.slot("reminder-status");
  const dayButtons = [...view.slot("reminder-days").querySelectorAll("[data-day]")];
  const pressed = (button) => button.getAttribute("aria-pressed") === "true";
  const press = (button, on) => button.setAttribute("aria-pressed", String(on));
  function showReminder(reminder) {
    press(reminderOn, Boolean(reminder));
    view.slot("reminder-details").hidden = !reminder;
    if (!reminder) return;
    reminderForm.elements.time.value = reminder.time;
    // A reminder keeps the time zone it was saved in (the server sends it then); one saved elsewhere says whose time.
    const otherZone = view.slot("reminder-zone");
    otherZone.hidden = reminder.tz === zone;
    otherZone.textContent = otherZone.hidden ? ""
      : `At this time in ${reminder.tz}; this browser is in ${zone}. Save the reminder to use this browser's time zone.`;
    for (const button of dayButtons) press(button, reminder.days.includes(button.dataset.day));
    press(reminderEmail, reminder.email);
  }
  for (const button of [...dayButtons, reminderEmail]) button.addEventListener("click", () => press(button, !pressed(button)));
  reminderOn.addEventListener("click", async () => {
    reminderStatus.textContent = "";
    if (!pressed(reminderOn)) {
      press(reminderOn, true);
      view.slot("reminder-details").hidden = false;
      reminderForm.elements.time.focus();
      return;
    }
    try {
      await api.call("DELETE", "/v1/me/reminder");
      showReminder(null);
      reminderStatus.textContent = "No reminder now.";
    } catch (failure) {
      reminderStatus.textContent = failure.message;
    }
  });
  reminderForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const days = dayButtons.filter(pressed).map((button) => button.dataset.day);
    if (!days.length) {
      reminderStatus.textContent = "Choose at least one day.";
      return;
    }
    try {
      const reminder = await api.call("PUT", "/v1/me/reminder", {
        time: reminderForm.elements.time.value, tz: zone, days, email: pressed(reminderEmail),
      });
      showReminder(reminder);
      reminderStatus.textContent = `Reminder saved: ${reminder.time}${reminder.email ? ", by mail" : ""}.`;
      announce(reminderStatus.textContent);
    } catch (failure) {
      reminderStatus.textContent = failure.message;
    }
  });

  // Notifications in this browser (Web Push): on and off at once, with a test to see one arrive.
  const pushOn = view.action("push-on");
  const pushTest = view.action("push-test");
  const pushStatus = view.slot("push-status");
  async function showPush() {
    if (!push.supported()) {
      pushOn.disabled = true;
      pushStatus.textContent = "This browser cannot show notifications from a web app; the reminder can come by mail.";
      return;
    }
    const known = await push.current();
    press(pushOn, Boolean(known));
    pushTest.hidden = !known;
    pushTest.dataset.id = known?.id ?? "";
  }
  pushOn.addEventListener("click", async () => {
    pushOn.disabled = true;
    try {
      if (pressed(pushOn)) {
        await push.unsubscribe();
        pushStatus.textContent = "No notifications in this browser now.";
      } else {
        pushStatus.textContent = "Turning notifications on…";
        await push.subscribe();
        pushStatus.textContent = "This browser gets the reminder as a notification.";
      }
      await showPush();
    } catch (failure) {
      pushStatus.textContent = failure.message;
    } finally {
      pushOn.disabled = !push.supported();
    }
    announce(pushStatus.textContent);
  });
  pushTest.addEventListener("click", async () => {
    try {
      await push.sendTest(pushTest.dataset.id);
      pushStatus.textContent = "Sent: it shows in a moment.";
    } catch (failure) {
      pushStatus.textContent = failure.message;
      await showPush().catch(() => {});
    }
    announce(pushStatus.textContent);
  });

  // The gentle question on Home: a setting of this browser.
  const questionOn = view.action("question-on");
  questionOn.setAttribute("aria-pressed", String(localStorage.getItem(QUESTION_ON) === "yes"));
  questionOn.addEventListener("click", () => {
    const on = questionOn.getAttribute("aria-pressed") !== "true";
    if (on) localStorage.setItem(QUESTION_ON, "yes");
    else localStorage.removeItem(QUESTION_ON);
    questionOn.setAttribute("aria-pressed", String(on));
  });

  const SOURCES = { you: "added by you", title: "from a title", tag: "from a tag", correction: "from a correction" };
  /** The person's words, each with where it came from and a way to remove it. */
  function showVocabulary(words) {
    const list = view.slot("vocabulary");
    list.replaceChildren(...words.map((word) => {
      const item = document.createElement("li");
      const text = Object.assign(document.createElement("span"), { textContent: word.text });
      const source = Object.assign(document.createElement("span"), { className: "meta", textContent: ` · ${SOURCES[word.source] ?? word.source}` });
      const remove = Object.assign(document.createElement("button"), { type: "button", className: "link", textContent: "Remove" });
      remove.setAttribute("aria-label", `Remove ${word.text}`);
      remove.addEventListener("click", () => saveVocabulary((texts) => texts.filter((each) => each !== word.text), `${word.text} removed.`));
      item.append(text, source, remove);
      return item;
    }));
  }

  /** Saves `change` made to the list as the server has it now: a word learned since this list was shown (a title
   *  written in another tab) is kept, not taken for one the person removed, which is never learned again. */
  async function saveVocabulary(change, done) {
    const status = view.slot("vocabulary-status");
    try {
      const current = (await api.call("GET", "/v1/me/vocabulary")).words.map((word) => word.text);
      showVocabulary((await api.call("PUT", "/v1/me/vocabulary", { words: change(current) })).words);
      status.textContent = done;
      return true;
    } catch (failure) {
      status.textContent = failure.message;
      return false;
    }
  }

  const vocabularyForm = view.form("vocabulary");
  vocabularyForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const typed = vocabularyForm.elements.word.value.split(",").map((word) => word.trim()).filter(Boolean);
    if (!typed.length) return;
    const withTyped = (texts) => {
      const known = new Set(texts.map((text) => text.toLocaleLowerCase()));
      return [...texts, ...typed.filter((word) => !known.has(word.toLocaleLowerCase()))];
    };
    if (await saveVocabulary(withTyped, `Added: ${typed.join(", ")}.`)) {
      vocabularyForm.elements.word.value = "";
    }
  });

  /** The password and each linked Apple or Google account, each removable while another remains. */
  function showSignIns(me, identities) {
    const ways = [];
    if (me.has_password) ways.push({ label: `Email and password (${me.email})`, path: "/v1/me/password", name: "password" });
    for (const identity of identities.filter((each) => each.provider !== "email")) {
      const provider = identity.provider === "apple" ? "Apple" : "Google";
      const label = identity.email ? `${provider} (${identity.email})` : provider;
      ways.push({ label, path: `/v1/me/identities/${identity.provider}`, name: provider });
    }
    const list = view.slot("sign-ins");
    list.replaceChildren();
    for (const way of ways) {
      const item = document.createElement("li");
      item.dataset.signIn = way.name.toLowerCase();
      const label = document.createElement("span");
      label.textContent = way.label;
      item.append(label);
      if (ways.length > 1) {
        const remove = Object.assign(document.createElement("button"), { type: "button", className: "link", textContent: "Remove" });
        remove.setAttribute("aria-label", `Remove ${way.label}`);
        remove.addEventListener("click", () => removeSignIn(way));
        item.append(remove);
      }
      list.append(item);
    }
  }

  async function removeSignIn(way) {
    const status = view.slot("sign-ins-status");
    if (!confirm(`Stop signing in with ${way.label}?`)) return;
    try {
      await api.call("DELETE", way.path);
      status.textContent = `${way.name === "password" ? "The password" : way.name} no longer signs in to this account.`;
      await load();
    } catch (failure) {
      status.textContent = failure.code === "reauthentication_needed"
        ? "For your safety this needs a recent sign-in: sign out, sign in again, then remove it."
        : failure.message;
    }
  }

  function offline(on) {
    view.slot("offline").hidden = !on;
    view.slot("stats").hidden = on;
    view.slot("storage").hidden = on;
    view.slot("sign-ins-card").hidden = on;
    view.form("vocabulary").hidden = on;
  }

  // "Everything": from the first day of the month before the first month with entries to today (or the last such
  // month's end). The months count each entry on its own day, an export the days of this browser's zone: an entry made
  // on the 1st where it was made may be on the 30th here, so the range starts a month early.
  const exportAll = view.action("export-all");
  const everything = () => exportAll.getAttribute("aria-pressed") === "true";
  exportAll.addEventListener("click", () => {
    exportAll.setAttribute("aria-pressed", String(!everything()));
    view.slot("export-days").hidden = everything();
  });
  async function wholeDiary() {
    const months = (await api.call("GET", `/v1/me/stats?tz=${encodeURIComponent(zone)}`)).months.map((m) => m.month).sort();
    const today = localDay(new Date(), zone);
    if (!months.length) return { from: today, to: today };
    const [year, month] = months.at(-1).split("-").map(Number);
    const lastDay = new Date(Date.UTC(year, month, 0)).toISOString().slice(0, 10);
    const [firstYear, firstMonth] = months[0].split("-").map(Number);
    const monthBefore = new Date(Date.UTC(firstYear, firstMonth - 2, 1)).toISOString().slice(0, 10);
    return { from: monthBefore, to: lastDay > today ? lastDay : today };
  }
  exportForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const status = view.slot("export-status");
    view.slot("download").hidden = true;
    const { from, to, password } = exportForm.elements;
    const daysError = view.slot("export-days-error");
    const passwordError = view.slot("export-password-error");
    clearFieldErrors([from, to, password], [daysError, passwordError, status]);
    view.action("delete-export").hidden = true;
    if (!everything() && (!from.value || !to.value)) {
      return refuseField(from.value ? to : from, daysError, "Choose the first and the last day, or Everything.");
    }
    if (!everything() && from.value > to.value) return refuseField(from, daysError, "The first day comes after the last.");
    const reauthentication = password.value ? { password: password.value } : undefined;
    password.value = "";
    await startExport(reauthentication);
  });

  /** Asks for the export the form describes, with `reauthentication` when one is given, and follows it. */
  async function startExport(reauthentication) {
    const status = view.slot("export-status");
    const download = view.slot("download");
    const { from, to, password } = exportForm.elements;
    const passwordError = view.slot("export-password-error");
    try {
      // Every format: markdown pages and entries.json (with word timings) beside the audio and its text.
      const days = everything() ? await wholeDiary() : { from: from.value, to: to.value };
      const body = { ...days, tz: zone, formats: ["markdown", "json"] };
      if (reauthentication) body.reauthentication = reauthentication;
      let job;
      try {
        job = await api.call("POST", "/v1/exports", body);
      } catch (failure) {
        if (failure.code !== "reauthentication_needed") throw failure;
        // An export holds the whole diary of its days: after a while signed in, the password (or Apple, or Google) again.
        view.slot("password-row").hidden = !api.currentAccount()?.has_password;
        offerProviderProof("export", startExport);
        if (view.slot("password-row").hidden) return (status.textContent = failure.message);
        return refuseField(password, passwordError, failure.message);
      }
      view.slot("password-row").hidden = true;
      view.slot("export-proof").hidden = true;
      exportID = job.id;
      while (job.status === "queued" || job.status === "building") {
        status.textContent = job.status === "queued" ? "Waiting to start…" : "Building the archive…";
        await new Promise((resolve) => setTimeout(resolve, 1000));
        job = await api.call("GET", `/v1/exports/${job.id}`);
      }
      if (job.status === "ready") {
        const mailed = job.mailed_to ? ` The link was also mailed to ${job.mailed_to}.` : "";
        status.textContent = `Ready: ${counted(job.entries, "entry", "entries")}.${mailed}`;
        download.href = job.download_url;
        download.hidden = false;
        view.action("delete-export").hidden = false;
        announce("Export ready");
      } else {
        status.textContent = `The export ${job.status}: ${job.failure_reason ?? ""}`;
      }
    } catch (failure) {
      if (failure.status === 422 && !everything()) refuseField(from, view.slot("export-days-error"), failure.message);
      else status.textContent = failure.message;
    }
  }

  let exportID = null;
  view.action("delete-export").addEventListener("click", async () => {
    try {
      await api.call("DELETE", `/v1/exports/${exportID}`);
      view.slot("download").hidden = true;
      view.action("delete-export").hidden = true;
      view.slot("export-status").textContent = "Export deleted: its link no longer works.";
    } catch (failure) {
      view.slot("export-status").textContent = failure.message;
    }
  });

  let resends = 0;
  view.action("resend").addEventListener("click", async () => {
    try {
      await api.call("POST", "/v1/me/email/verification");
      resends += 1;
      view.slot("resent").textContent = resends === 1
        ? "Sent. Open the link in the mail to confirm your address."
        : "Sent again. Only the newest link works: the one in the earlier mail no longer does.";
    } catch (failure) {
      view.slot("resent").textContent = failure.message;
    }
  });

  // A new password: the server ends every sign-in, so this browser signs in again at once with the new one.
  const passwordForm = view.form("password");
  passwordForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { current, next } = passwordForm.elements;
    const currentError = view.slot("current-error");
    const nextError = view.slot("next-error");
    const status = view.slot("password-status");
    clearFieldErrors([current, next], [currentError, nextError, status]);
    const refuse = refuseField;
    if (!current.value) return refuse(current, currentError, "Enter your current password.");
    if (next.value.trim().length < 8) return refuse(next, nextError, "Use at least 8 characters besides spaces at either end.");
    let signedInAgain;
    try {
      signedInAgain = await api.changePassword(current.value, next.value);
    } catch (failure) {
      if (failure.status === 401 || failure.code === "reauthentication_needed") return refuse(current, currentError, failure.message);
      if (failure.status === 422) return refuse(next, nextError, failure.message);
      status.textContent = failure.message;
      return;
    }
    status.textContent = signedInAgain
      ? "Password changed. Every other device is signed out; this one stays signed in."
      : "Password changed. Sign in again here with the new one.";
    current.value = next.value = "";
    announce(status.textContent);
  });

  // A new address: a link goes there, and the address changes when it is opened.
  const emailForm = view.form("email");
  const account = api.currentAccount();
  view.slot("email-now").textContent = `Now: ${account.email}`;
  if (!account.has_password) view.slot("email-password-label").hidden = true;
  emailForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    const { email, password } = emailForm.elements;
    const emailError = view.slot("email-error");
    const passwordError = view.slot("email-password-error");
    const status = view.slot("email-status");
    clearFieldErrors([email, password], [emailError, passwordError, status]);
    const refuse = refuseField;
    const address = email.value.trim();
    if (!/^[^@\s]+@[^@\s]+\.[^@\s]+$/.test(address)) return refuse(email, emailError, "Type an email address, like name@example.com.");
    if (address.toLowerCase() === account.email.toLowerCase()) return refuse(email, emailError, "This is your address already.");
    if (account.has_password && !password.value) return refuse(password, passwordError, "Enter your password.");
    const body = { email: address };
    if (password.value) body.reauthentication = { password: password.value };
    try {
      await api.call("POST", "/v1/me/email", body);
    } catch (failure) {
      if (failure.code === "reauthentication_needed") {
        return account.has_password
          ? refuse(password, passwordError, failure.message)
          : refuse(email, emailError, "This needs a sign-in in the last 5 minutes: sign out, sign in again, then change it.");
      }
      if (failure.status === 422) return refuse(email, emailError, failure.message);
      status.textContent = failure.message;
      return;
    }
    status.textContent = `A link is on its way to ${address}. Your address changes when you open it.`;
    email.value = password.value = "";
    announce(status.textContent);
  });

  // Sign out everywhere: every sign-in of the account ends, this browser's with them.
  view.action("signout-everywhere").addEventListener("click", async () => {
    if (!confirm("Sign out on every device, this one too? Export links stop working as well.")) return;
    try {
      await api.call("POST", "/v1/auth/logout-all");
    } catch (failure) {
      error.textContent = failure.message;
      return;
    }
    await push.unsubscribe().catch(() => {});
    await api.logout();
    await db.clearDiary();
    onSignedOut();
  });

  view.action("signout").addEventListener("click", async () => {
    const unsent = (await uploads.pending()).length;
    const which = unsent === 1 ? "1 entry has" : `${unsent} entries have`;
    if (unsent > 0 && !confirm(`${which} not reached the server yet. Sign out and keep ${unsent === 1 ? "it" : "them"} on this device?`)) return;
    // Notifications here were this account's: they stop with the sign-out.
    await push.unsubscribe().catch(() => {});
    await api.logout();
    // Unsent entries stay in this browser, marked as this account's, until it signs in again.
    await db.clearDiary();
    onSignedOut();
  });

  view.form("delete").addEventListener("submit", async (event) => {
    event.preventDefault();
    const form = event.target;
    const confirmError = view.slot("delete-confirm-error");
    const passwordError = view.slot("delete-password-error");
    const deleteError = view.slot("delete-error");
    clearFieldErrors([form.elements.confirm, form.elements.password], [confirmError, passwordError, deleteError]);
    if (form.elements.confirm.value !== "DELETE") return refuseField(form.elements.confirm, confirmError, "Type DELETE to confirm.");
    const password = form.elements.password.value;
    await closeAccount(password ? { password } : undefined);
  });

  /** Closes the account, with `reauthentication` when one is given; asks for a proof when the server wants one. */
  async function closeAccount(reauthentication) {
    const form = view.form("delete");
    try {
      const owner = api.currentAccount()?.id;
      await api.call("DELETE", "/v1/me", reauthentication);
      await db.forgetAccount(owner);
      api.forgetAccount();
      onSignedOut();
    } catch (failure) {
      if (failure.code !== "reauthentication_needed") return (view.slot("delete-error").textContent = failure.message);
      offerProviderProof("delete", (proof) => {
        if (form.elements.confirm.value !== "DELETE") {
          return refuseField(form.elements.confirm, view.slot("delete-confirm-error"), "Type DELETE to confirm.");
        }
        return closeAccount(proof);
      });
      if (api.currentAccount()?.has_password) refuseField(form.elements.password, view.slot("delete-password-error"), failure.message);
      else view.slot("delete-error").textContent = failure.message;
    }
  }

  /**
   * Shows `prefix`'s "confirm with Apple / Google" buttons for the providers the account is linked to (and this server
   * takes); each, once its sign-in answers, calls `retry` with the proof it gives.
   */
  async function offerProviderProof(prefix, retry) {
    const [config, identities] = await Promise.all([api.config(), api.call("GET", "/v1/me/identities")]);
    const linked = new Set(identities.map((identity) => identity.provider));
    let offered = false;
    for (const provider of ["apple", "google"]) {
      const button = view.action(`${prefix}-${provider}`);
      const usable = linked.has(provider) && Boolean(config?.sign_in?.[provider]);
      offered ||= usable;
      // Google's own button took the place of ours once it was offered.
      if (!button || !usable || button.dataset.offered) continue;
      button.hidden = false;
      button.dataset.offered = "yes";
      const prove = async (answer) => {
        try {
          const { token, nonce } = await answer();
          await retry({ provider, token, nonce });
        } catch (failure) {
          if (failure?.error !== "popup_closed_by_user") view.slot(`${prefix}-proof`).querySelector(".meta").textContent =
            failure?.message || "The sign-in did not finish.";
        }
      };
      const ready = provider === "apple"
        ? prepareApple(button, config.apple_client_id, prove)
        : prepareGoogle(button, config.google_client_id, prove, "continue_with");
      ready.catch(() => {
        button.disabled = true;
        button.textContent += " (unavailable)";
      });
    }
    view.slot(`${prefix}-proof`).hidden = !offered;
  }

  load();
  return { root: view.root, update: load };
}

/** "1.2 GB": decimal units, as the Files app and the iPhone app say them. */
function bytes(count) {
  const units = ["bytes", "KB", "MB", "GB", "TB"];
  let value = count;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return unit === 0 ? `${value} bytes` : `${value >= 10 ? Math.round(value) : Math.round(value * 10) / 10} ${units[unit]}`;
}
