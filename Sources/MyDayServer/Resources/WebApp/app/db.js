// IndexedDB: recordings and typed entries until the server has them, and a copy of the synced diary.

const NAME = "myday";
const VERSION = 1;
let opened = null;

function open() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const request = indexedDB.open(NAME, VERSION);
      request.onupgradeneeded = () => {
        const db = request.result;
        // Each recording or note the server has not confirmed yet, with its audio Blob.
        db.createObjectStore("outbox", { keyPath: "id" });
        // Audio arriving while recording, one chunk a second, so a closed tab loses at most a second.
        db.createObjectStore("chunks", { keyPath: ["id", "seq"] });
        // The synced diary, for the Library offline, and the sync cursor.
        db.createObjectStore("entries", { keyPath: "id" });
        db.createObjectStore("state");
      };
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
  }
  return opened;
}

function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function store(name, mode = "readonly") {
  return (await open()).transaction(name, mode).objectStore(name);
}

export async function put(name, value, key) {
  return done((await store(name, "readwrite")).put(value, key));
}

export async function get(name, key) {
  return done((await store(name)).get(key));
}

export async function all(name) {
  return done((await store(name)).getAll());
}

export async function remove(name, key) {
  return done((await store(name, "readwrite")).delete(key));
}

/** The chunks of one recording, in order. */
export async function chunksOf(id) {
  return done((await store("chunks")).getAll(IDBKeyRange.bound([id, 0], [id, Infinity])));
}

/**
 * A recording's chunks (in order) as one Blob made of their bytes, not of the stored Blobs: Chromium ends a page whose
 * new Blob refers to stored Blobs its browser process no longer knows ("Bad blob references"), and the chunks are
 * deleted once the recording is in the outbox.
 */
export async function joinedChunks(chunks, type) {
  return new Blob(await Promise.all(chunks.map((chunk) => chunk.blob.arrayBuffer())), { type });
}

/** Writes several stores in one transaction: `changes` is [[store, "put"|"delete", value or key], …]. */
export async function transact(names, changes) {
  const transaction = (await open()).transaction(names, "readwrite");
  for (const [name, kind, value] of changes) {
    const target = transaction.objectStore(name);
    if (kind === "put") target.put(value);
    else target.delete(value);
  }
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

/** Forgets the synced diary and its cursor (sign-out, or another account signing in). */
export async function clearDiary() {
  return transact(["entries", "state"], [["entries", "delete", IDBKeyRange.lowerBound("")], ["state", "delete", IDBKeyRange.lowerBound("")]]);
}

/** Forgets everything of one account: its diary and what it had not sent yet (after deleting the account). */
export async function forgetAccount(owner) {
  const changes = (await all("outbox")).filter((item) => item.owner === owner).map((item) => ["outbox", "delete", item.id]);
  for (const chunk of await all("chunks")) {
    if (chunk.meta?.owner === owner) changes.push(["chunks", "delete", [chunk.id, chunk.seq]]);
  }
  await transact(["outbox", "chunks"], changes);
  return clearDiary();
}

/** The diary in this browser belongs to `owner`: another account's synced copy and cursor are forgotten. */
export async function claimDiary(owner) {
  if ((await get("state", "owner")) === owner) return;
  await clearDiary();
  await put("state", owner, "owner");
}
