// My Day in the browser: signs in, then shows Home, the Library (top left), an entry, or the Profile
// (top right), by the address's hash (#/, #/library, #/entry/<id>, #/day/<date>, #/import, #/deleted, #/insights, #/profile).
// Mailed links open #/reset/<token> (a new password) and #/verify/<token> (the address confirmed), signed in or not.

import * as api from "./api.js";
import * as db from "./db.js";
import * as live from "./live.js";
import { recoverInterrupted } from "./recovery.js";
import * as sync from "./sync.js";
import * as uploads from "./uploads.js";
import { dayView } from "./views/day.js";
import { deletedView } from "./views/deleted.js";
import { detailView } from "./views/detail.js";
import { homeView } from "./views/home.js";
import { importView } from "./views/import.js";
import { insightsView } from "./views/insights.js";
import { libraryView } from "./views/library.js";
import { profileView } from "./views/profile.js";
import { resetView, signInView, stopRemindersView, verifyView } from "./views/signin.js";

const main = document.getElementById("view");
const bar = document.getElementById("bar");
let home = null;
let library = null;
// The screen showing: { root, update? }, where `update()` redraws it from what was synced.
let current = null;

/** Shows a screen ({ root, update? }, or a bare element) in place of the one before. */
function showView(view) {
  const next = view.root ? view : { root: view };
  if (next.root !== current?.root) current?.leave?.();
  current = next;
  main.replaceChildren(current.root);
  scrollTo(0, 0);
  main.focus({ preventScroll: true });
  home?.shown();
}

// The screen shown before this one, for an entry's way back (a redraw of the same screen keeps it).
let shownHash = null;
let previousHash = null;

/** Where an entry opened from `hash` goes back to: Home, the day page it was opened from, or the Library. */
function entryOrigin(hash) {
  if (!hash || hash === "#/" || hash === "#") return { hash: "#/", label: "← Home" };
  if (hash.startsWith("#/day/")) return { hash, label: "← The day" };
  return { hash: "#/library", label: "← Library" };
}

// Each route's number: a screen that took long to load is not shown once another was asked for after it.
let routes = 0;

async function route() {
  if (location.hash !== shownHash) [previousHash, shownHash] = [shownHash, location.hash];
  const [, page, id] = location.hash.split("/");
  const mine = ++routes;
  const show = (view) => {
    if (mine === routes) showView(view);
  };
  try {
    if (page === "library") {
      show(library);
      await library.render();
      library.refresh();
    } else if (page === "entry" && id) {
      const origin = entryOrigin(previousHash);
      show(await detailView(id, { back: () => (location.hash = origin.hash), backLabel: origin.label, reopen: route }));
    } else if (page === "day" && id) {
      show(await dayView(id, { back: () => (location.hash = "#/library"), open: (entry) => (location.hash = `#/entry/${entry}`) }));
    } else if (page === "import") {
      show(importView({ back: () => (location.hash = "#/library"), open: (entry) => (location.hash = `#/entry/${entry}`) }));
    } else if (page === "deleted") {
      show(await deletedView({ back: () => (location.hash = "#/library") }));
    } else if (page === "insights") {
      show(await insightsView({
        back: () => (location.hash = "#/profile"),
        search: (text) => {
          location.hash = "#/library";
          library.searchFor(text);
        },
      }));
    } else if (page === "profile") {
      show(profileView({ onSignedOut: signedOut }));
    } else if (page === "verify" && id) {
      // Setting a password with the link may sign this browser in to another account: start afresh as that one.
      show(verifyView({ token: id, onDone: () => {
        history.replaceState(null, "", "/#/profile");
        location.reload();
      }, onSignIn: null }));
    } else if (page === "stop-reminders" && id) {
      show(stopRemindersView({ token: id }));
    } else if (page === "reset" && id) {
      // A reset link opened while signed in: the new password signs in again, as the link's account.
      show(resetView({ token: id, onSignedIn: () => location.reload() }));
    } else {
      show(home);
    }
  } catch (failure) {
    show(Object.assign(document.createElement("p"), { className: "error", textContent: failure.message }));
  }
}

/** Something changed on the server (here or on another device): pull it, and redraw the screen showing. */
async function changed() {
  let offline = false;
  try {
    await sync.sync();
  } catch (failure) {
    offline = api.isOffline(failure);
  }
  await current?.update?.({ offline });
}

async function signedIn() {
  bar.hidden = false;
  const me = api.currentAccount();
  await db.claimDiary(me.id);
  // Ask the browser not to evict unsent recordings under storage pressure.
  navigator.storage?.persist?.().catch(() => {});
  home = homeView({
    bar: document.getElementById("recording-bar"), goHome: () => (location.hash = "#/"),
    openDay: (date) => (location.hash = `#/day/${date}`), openEntry: (id) => (location.hash = `#/entry/${id}`),
  });
  library = libraryView({ open: (id) => (location.hash = `#/entry/${id}`) });
  const recovered = await recoverInterrupted();
  for (const recording of recovered) await uploads.enqueueRecording(recording);
  home.recovered(recovered.filter((recording) => (recording.owner ?? me.id) === me.id));
  addEventListener("myday:session-ended", signedOut, { once: true });
  await uploads.start();
  addEventListener("hashchange", route);
  route();
  live.start(changed, (state) => (document.body.dataset.updates = state));
}

async function signedOut() {
  live.stop();
  // Whenever the session ends, the diary this browser kept goes with it (unsent recordings stay for the next sign-in).
  await db.clearDiary();
  location.hash = "#/";
  location.reload();
}

async function begin() {
  document.getElementById("open-library").addEventListener("click", () => (location.hash = "#/library"));
  document.getElementById("open-profile").addEventListener("click", () => (location.hash = "#/profile"));
  document.getElementById("go-home").addEventListener("click", () => (location.hash = "#/"));
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  // A mailed link pasted into this tab while signed out opens its page as a fresh load would.
  addEventListener("hashchange", () => {
    if (!api.currentAccount() && /^#\/(reset|verify|stop-reminders)\//.test(location.hash)) location.reload();
  });
  const [, page, token] = location.hash.split("/");
  if (page === "reset" && token) return showView(resetView({ token, onSignedIn: signedIn }));
  // A reminder mail's stop link works whoever is signed in here, or nobody.
  if (page === "stop-reminders" && token) return showView(stopRemindersView({ token }));
  let account = null;
  try {
    account = await api.resume();
  } catch {
    // The server cannot be reached (offline, or it is down): open as the account this browser last
    // used, so recording works; uploads wait until the server answers.
    account = api.resumeOffline();
  }
  if (account) return signedIn();
  // Nobody is signed in here (the server ended the session, or never had one): nothing of a diary stays behind.
  await db.clearDiary();
  const config = await api.config().catch(() => null);
  if (page === "verify" && token) {
    // Signed in, the route confirms; here nobody is: the maker signs in first (and comes back to this link).
    return showView(verifyView({ token, onDone: () => {
      history.replaceState(null, "", "/#/");
      location.reload();
    }, onSignIn: () => showView(signInView({ config, onSignedIn: signedIn })) }));
  }
  // A sign-out made offline reaches the server as soon as it can be reached.
  addEventListener("online", () => api.finishSignOut().catch(() => {}));
  showView(signInView({ config, onSignedIn: signedIn }));
}

begin();
