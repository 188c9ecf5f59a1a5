// Recording in the browser: MediaRecorder for the file, an AnalyserNode for the waveform. Audio is
// written to IndexedDB a second at a time while recording, so closing the tab loses at most a second;
// the next load turns what was left into a recording (recovery.js). A pause of more than a
// minute closes the microphone; the screen stays on while it is open.

import { currentAccount } from "./api.js";
import { keepAwake } from "./awake.js";
import * as db from "./db.js";
import { claim } from "./elsewhere.js";
import { newID, timeZone } from "./uploads.js";

/** The container to record in: AAC in MP4 where the browser offers it (Safari), else Opus in WebM. */
export function preferredType() {
  const candidates = ["audio/mp4;codecs=mp4a.40.2", "audio/webm;codecs=opus", "audio/mp4", "audio/webm"];
  return candidates.find((type) => window.MediaRecorder?.isTypeSupported(type)) ?? "";
}

/** How long a pause keeps the microphone open (`window.__mydayPauseReleaseMs` sets another length). */
function pauseReleaseMs() {
  return window.__mydayPauseReleaseMs ?? 60_000;
}

function microphone() {
  return navigator.mediaDevices.getUserMedia({
    audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
  });
}

function failure(name, message) {
  return Object.assign(new Error(message), { name });
}

/**
 * One recording. The microphone goes through an AudioContext into the one MediaRecorder (by a
 * MediaStreamAudioDestinationNode), so a pause can close the microphone and a resume open a new one while
 * the recorder, and so the file, stay the same.
 */
export class Recording {
  /**
   * Starts recording; throws when the microphone is missing or not allowed, or another tab records
   * (`InUseElsewhere`). `onEnded` is called when the browser ends the recording itself (the microphone
   * unplugged, a call, permission revoked); `onMicrophone(open)` when a long pause closes the microphone
   * (false) and when resuming opens it again (true).
   */
  static async start({ onEnded, onMicrophone } = {}) {
    if (!navigator.mediaDevices?.getUserMedia || !window.MediaRecorder) {
      throw failure("NotSupportedError", "This browser cannot record audio.");
    }
    const release = await claim();
    if (!release) throw failure("InUseElsewhere", "A recording is under way in another tab.");
    let stream = null;
    let recording = null;
    try {
      stream = await microphone();
      recording = new Recording(stream, { onEnded, onMicrophone, release });
      await recording.context.resume();
      await recording.held;
      keepAwake(true);
      return recording;
    } catch (error) {
      stream?.getTracks().forEach((track) => track.stop());
      recording?.context.close().catch(() => {});
      recording?.done();
      release();
      throw error;
    }
  }

  constructor(stream, { onEnded, onMicrophone, release }) {
    this.id = newID();
    this.owner = currentAccount()?.id ?? null;
    this.createdAt = new Date().toISOString();
    this.tz = timeZone();
    this.onEnded = () => onEnded?.();
    this.onMicrophone = (open) => onMicrophone?.(open);
    this.releaseRecorder = release;
    // Held while recording, so another tab's recovery never takes this recording's chunks.
    this.held = new Promise((locked) => {
      navigator.locks?.request(`myday-recording-${this.id}`, () => {
        locked();
        return new Promise((release) => (this.release = release));
      }) ?? locked();
    });
    this.context = new AudioContext();
    // A call or another app may suspend the context (Safari says "interrupted"): nothing would reach the file, so the
    // recording ends as when the microphone goes, keeping what was said.
    this.context.addEventListener("statechange", () => {
      const stopped = this.context.state === "suspended" || this.context.state === "interrupted";
      if (stopped && this.recorder?.state === "recording") this.onEnded();
    });
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 2048;
    this.samples = new Float32Array(this.analyser.fftSize);
    this.destination = this.context.createMediaStreamDestination();
    this.destination.channelCount = 1;
    this.listen(stream);
    const type = preferredType();
    this.recorder = new MediaRecorder(this.destination.stream, type ? { mimeType: type } : undefined);
    this.contentType = this.recorder.mimeType || type || "audio/webm";
    this.seq = 0;
    this.writes = [];
    this.recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.writes.push(db.put("chunks", { id: this.id, seq: this.seq++, blob: event.data, meta: this.meta() }));
    };
    this.recorder.onerror = this.onEnded;
    this.recorded = 0;
    this.since = performance.now();
    this.recorder.start(1000);
  }

  /** Feeds the recorder and the waveform from `stream`. */
  listen(stream) {
    this.stream = stream;
    this.source = this.context.createMediaStreamSource(stream);
    this.source.connect(this.analyser);
    this.source.connect(this.destination);
    for (const track of stream.getAudioTracks()) track.addEventListener("ended", this.onEnded);
  }

  /** Closes the microphone (the browser's indicator goes out); the recorder waits, paused. */
  closeMicrophone() {
    if (!this.stream) return;
    this.source.disconnect();
    for (const track of this.stream.getTracks()) {
      track.removeEventListener("ended", this.onEnded);
      track.stop();
    }
    this.stream = null;
    this.source = null;
    keepAwake(false);
  }

  meta() {
    return { owner: this.owner, createdAt: this.createdAt, tz: this.tz, contentType: this.contentType, elapsed: this.elapsed() };
  }

  get paused() {
    return this.recorder.state === "paused";
  }

  /** Seconds recorded, pauses excluded. */
  elapsed() {
    return (this.recorded + (this.since === null ? 0 : performance.now() - this.since)) / 1000;
  }

  pause() {
    if (this.recorder.state !== "recording") return;
    this.recorder.pause();
    this.recorded += performance.now() - this.since;
    this.since = null;
    clearTimeout(this.closing);
    this.closing = setTimeout(() => {
      this.closeMicrophone();
      this.onMicrophone(false);
    }, pauseReleaseMs());
  }

  /** Records again, opening the microphone again when the pause closed it; throws when it cannot be opened. */
  async resume() {
    if (this.recorder.state !== "paused") return;
    clearTimeout(this.closing);
    if (!this.stream) {
      this.listen(await microphone());
      await this.context.resume();
      if (this.recorder.state !== "paused") return this.closeMicrophone();
      this.onMicrophone(true);
    }
    keepAwake(true);
    this.recorder.resume();
    this.since = performance.now();
  }

  /** The RMS of what the microphone hears now, 0…1 on a dBFS scale with a -60 dB floor. */
  level() {
    this.analyser.getFloatTimeDomainData(this.samples);
    let sum = 0;
    for (const sample of this.samples) sum += sample * sample;
    const rms = Math.sqrt(sum / this.samples.length);
    if (rms <= 0) return 0;
    return Math.min(1, Math.max(0, (20 * Math.log10(rms) + 60) / 60));
  }

  /** Ends the recorder and lets go of the microphone, the screen and the audio graph. */
  async end() {
    clearTimeout(this.closing);
    if (this.recorder.state !== "inactive") {
      const stopped = new Promise((resolve) => (this.recorder.onstop = resolve));
      this.recorder.stop();
      await stopped;
    }
    this.closeMicrophone();
    keepAwake(false);
    await this.context.close().catch(() => {});
    await Promise.all(this.writes);
  }

  /** Stops and answers the finished recording: its id, metadata and audio. */
  async stop() {
    const duration = this.elapsed();
    await this.end();
    const chunks = await db.chunksOf(this.id);
    const blob = await db.joinedChunks(chunks, this.contentType);
    return { id: this.id, owner: this.owner, createdAt: this.createdAt, tz: this.tz, duration, blob, contentType: this.contentType };
  }

  /** Stops and forgets the recording: nothing of it is kept. */
  async discard() {
    await this.end();
    await db.transact(["chunks"], [["chunks", "delete", IDBKeyRange.bound([this.id, 0], [this.id, Infinity])]]);
    this.done();
  }

  /** Lets another tab record, and recover this recording's chunks once they are in the outbox. */
  done() {
    this.release?.();
    this.releaseRecorder?.();
  }
}
