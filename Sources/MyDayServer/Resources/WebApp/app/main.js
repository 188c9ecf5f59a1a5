// My Day in the browser: signs in, then shows Home, the Library (top left), an entry, or the Profile
// (top right), by the address's hash (#/, #/library, #/entry/<id>, #/profile).

import * as api from "./api.js";
import * as db from "./db.js";
import { recoverInterrupted } from "./recorder.js";
import * as uploads from "./uploads.js";
import { detailView } from "./views/detail.js";
import { homeView } from "./views/home.js";
import { libraryView } from "./views/library.js";
import { profileView } from "./views/profile.js";
import { signInView } from "./views/signin.js";

const main = document.getElementById("view");
const bar = document.getElementById("bar");
let home = null;
let library = null;

function show(node) {
  main.replaceChildren(node);
  main.focus({ preventScroll: true });
}

async function route() {
  const [, page, id] = location.hash.split("/");
  try {
    if (page === "library") {
      show(library.root);
      await library.render();
      library.refresh();
    } else if (page === "entry" && id) {
      show(await detailView(id, { back: () => (location.hash = "#/library") }));
    } else if (page === "profile") {
      show(profileView({ onSignedOut: signedOut }));
    } else {
      show(home);
    }
  } catch (failure) {
    main.replaceChildren(Object.assign(document.createElement("p"), { className: "error", textContent: failure.message }));
  }
}

async function signedIn() {
  bar.hidden = false;
  const me = api.currentAccount();
  await db.claimDiary(me.id);
  // Ask the browser not to evict unsent recordings under storage pressure.
  navigator.storage?.persist?.().catch(() => {});
  home = homeView();
  library = libraryView({ open: (id) => (location.hash = `#/entry/${id}`) });
  for (const recording of await recoverInterrupted()) await uploads.enqueueRecording(recording);
  addEventListener("myday:session-ended", signedOut, { once: true });
  await uploads.start();
  addEventListener("hashchange", route);
  route();
}

async function signedOut() {
  location.hash = "#/";
  location.reload();
}

async function begin() {
  document.getElementById("open-library").addEventListener("click", () => (location.hash = "#/library"));
  document.getElementById("open-profile").addEventListener("click", () => (location.hash = "#/profile"));
  document.getElementById("go-home").addEventListener("click", () => (location.hash = "#/"));
  if ("serviceWorker" in navigator) navigator.serviceWorker.register("/sw.js").catch(() => {});
  let account = null;
  try {
    account = await api.resume();
  } catch {
    // The server cannot be reached (offline, or it is down): open as the account this browser last
    // used, so recording works; uploads wait until the server answers.
    account = api.resumeOffline();
  }
  if (account) return signedIn();
  const config = await api.config().catch(() => null);
  show(signInView({ config, onSignedIn: signedIn }));
}

begin();
