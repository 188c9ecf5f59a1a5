// The live waveform: a ring of 56 RMS levels drawn as bars on a canvas, one per animation frame.

const BARS = 56;

export class Waveform {
  constructor(canvas) {
    this.canvas = canvas;
    this.levels = new Float32Array(BARS);
    this.next = 0;
  }

  push(level) {
    this.levels[this.next] = level;
    this.next = (this.next + 1) % BARS;
  }

  clear() {
    this.levels.fill(0);
    this.draw();
  }

  draw() {
    const { canvas } = this;
    const scale = window.devicePixelRatio || 1;
    const width = canvas.clientWidth || canvas.width;
    const height = canvas.clientHeight || canvas.height;
    if (canvas.width !== Math.round(width * scale)) {
      canvas.width = Math.round(width * scale);
      canvas.height = Math.round(height * scale);
    }
    const context = canvas.getContext("2d");
    context.setTransform(scale, 0, 0, scale, 0, 0);
    context.clearRect(0, 0, width, height);
    context.fillStyle = getComputedStyle(canvas).getPropertyValue("--accent") || "#c2542d";
    const step = width / BARS;
    for (let index = 0; index < BARS; index++) {
      const level = this.levels[(this.next + index) % BARS];
      const bar = Math.max(2, level * height);
      context.fillRect(index * step + step * 0.2, (height - bar) / 2, step * 0.6, bar);
    }
  }
}
