// Recording in the browser: MediaRecorder for the file, an AnalyserNode for the waveform. Audio is
// written to IndexedDB a second at a time while recording, so closing the tab loses at most a second;
// the next load turns what was left into a recording (`recoverInterrupted`).

import { currentAccount } from "./api.js";
import * as db from "./db.js";
import { newID, timeZone } from "./uploads.js";

/** The container to record in: AAC in MP4 where the browser offers it (Safari), else Opus in WebM. */
export function preferredType() {
  const candidates = ["audio/mp4;codecs=mp4a.40.2", "audio/webm;codecs=opus", "audio/mp4", "audio/webm"];
  return candidates.find((type) => window.MediaRecorder?.isTypeSupported(type)) ?? "";
}

export class Recording {
  /**
   * Starts recording; throws when the microphone is missing or not allowed. `onEnded` is called when
   * the browser ends the recording itself (the microphone unplugged, a call, permission revoked).
   */
  static async start(onEnded) {
    if (!navigator.mediaDevices?.getUserMedia || !window.MediaRecorder) {
      throw Object.assign(new Error("This browser cannot record audio."), { name: "NotSupportedError" });
    }
    const stream = await navigator.mediaDevices.getUserMedia({
      audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false },
    });
    try {
      const recording = new Recording(stream, onEnded);
      await recording.context.resume();
      await recording.held;
      return recording;
    } catch (error) {
      stream.getTracks().forEach((track) => track.stop());
      throw error;
    }
  }

  constructor(stream, onEnded) {
    this.id = newID();
    this.owner = currentAccount()?.id ?? null;
    this.createdAt = new Date().toISOString();
    this.tz = timeZone();
    this.stream = stream;
    // Held while recording, so another tab's recovery never takes this recording's chunks.
    this.held = new Promise((locked) => {
      navigator.locks?.request(`myday-recording-${this.id}`, () => {
        locked();
        return new Promise((release) => (this.release = release));
      }) ?? locked();
    });
    const type = preferredType();
    this.recorder = new MediaRecorder(stream, type ? { mimeType: type } : undefined);
    this.contentType = this.recorder.mimeType || type || "audio/webm";
    this.seq = 0;
    this.writes = [];
    this.recorder.ondataavailable = (event) => {
      if (event.data.size > 0) this.writes.push(db.put("chunks", { id: this.id, seq: this.seq++, blob: event.data, meta: this.meta() }));
    };
    this.context = new AudioContext();
    const source = this.context.createMediaStreamSource(stream);
    this.analyser = this.context.createAnalyser();
    this.analyser.fftSize = 2048;
    source.connect(this.analyser);
    this.samples = new Float32Array(this.analyser.fftSize);
    this.recorded = 0;
    this.since = performance.now();
    this.recorder.onerror = () => onEnded?.();
    for (const track of stream.getAudioTracks()) track.addEventListener("ended", () => onEnded?.());
    this.recorder.start(1000);
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
  }

  resume() {
    if (this.recorder.state !== "paused") return;
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

  /** Stops and answers the finished recording: its id, metadata and audio. */
  async stop() {
    const duration = this.elapsed();
    if (this.recorder.state !== "inactive") {
      const stopped = new Promise((resolve) => (this.recorder.onstop = resolve));
      this.recorder.stop();
      await stopped;
    }
    this.stream.getTracks().forEach((track) => track.stop());
    await this.context.close().catch(() => {});
    await Promise.all(this.writes);
    const chunks = await db.chunksOf(this.id);
    const blob = new Blob(chunks.map((chunk) => chunk.blob), { type: this.contentType });
    return { id: this.id, owner: this.owner, createdAt: this.createdAt, tz: this.tz, duration, blob, contentType: this.contentType };
  }

  /** Lets another tab recover this recording's chunks, once they are in the outbox. */
  done() {
    this.release?.();
  }
}

/**
 * Recordings a closed tab or a crash left as chunks, answered whole so they can be queued. A recording
 * another open tab is still making holds its lock and is left alone.
 */
export async function recoverInterrupted() {
  const held = new Set(((await navigator.locks?.query())?.held ?? []).map((lock) => lock.name));
  const byID = new Map();
  for (const chunk of await db.all("chunks")) {
    if (held.has(`myday-recording-${chunk.id}`)) continue;
    if (!byID.has(chunk.id)) byID.set(chunk.id, []);
    byID.get(chunk.id).push(chunk);
  }
  const recovered = [];
  for (const [id, chunks] of byID) {
    chunks.sort((a, b) => a.seq - b.seq);
    const last = chunks[chunks.length - 1].meta;
    const blob = new Blob(chunks.map((chunk) => chunk.blob), { type: last.contentType });
    recovered.push({ id, owner: last.owner, createdAt: last.createdAt, tz: last.tz, duration: last.elapsed, blob, contentType: last.contentType });
  }
  return recovered;
}
