// Table sounds made in the browser with the Web Audio API (no sound files): a soft slide for
// a draw, a tap for a discard, a shuffle for a deal, chimes for gin and undercut.

let context = null;
let muted = localStorage.getItem("gr.muted") === "1";

export function isMuted() { return muted; }
export function setMuted(value) {
  muted = Boolean(value);
  localStorage.setItem("gr.muted", muted ? "1" : "0");
}

function audio() {
  if (muted) return null;
  const Ctx = globalThis.AudioContext || globalThis.webkitAudioContext;
  if (!Ctx) return null;
  if (!context) context = new Ctx();
  if (context.state === "suspended") context.resume().catch(() => {});
  return context;
}

function noise(ctx, start, length, { freq = 2500, q = 0.8, gain = 0.25 } = {}) {
  const frames = Math.max(1, Math.floor(ctx.sampleRate * length));
  const buffer = ctx.createBuffer(1, frames, ctx.sampleRate);
  const data = buffer.getChannelData(0);
  for (let i = 0; i < frames; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / frames) ** 2;
  const src = ctx.createBufferSource();
  src.buffer = buffer;
  const filter = ctx.createBiquadFilter();
  filter.type = "bandpass";
  filter.frequency.value = freq;
  filter.Q.value = q;
  const amp = ctx.createGain();
  amp.gain.value = gain;
  src.connect(filter).connect(amp).connect(ctx.destination);
  src.start(start);
}

function tone(ctx, start, freq, length, gain = 0.12, type = "sine") {
  const osc = ctx.createOscillator();
  osc.type = type;
  osc.frequency.value = freq;
  const amp = ctx.createGain();
  amp.gain.setValueAtTime(0, start);
  amp.gain.linearRampToValueAtTime(gain, start + 0.02);
  amp.gain.exponentialRampToValueAtTime(0.0001, start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(start);
  osc.stop(start + length + 0.05);
}

const SOUNDS = {
  draw: (ctx, t) => noise(ctx, t, 0.12, { freq: 1800, gain: 0.3 }),
  discard: (ctx, t) => { noise(ctx, t, 0.05, { freq: 900, q: 2, gain: 0.5 }); tone(ctx, t, 180, 0.08, 0.08, "triangle"); },
  deal: (ctx, t) => { for (let i = 0; i < 6; i++) noise(ctx, t + i * 0.06, 0.07, { freq: 2200, gain: 0.22 }); },
  knock: (ctx, t) => { tone(ctx, t, 140, 0.12, 0.25, "triangle"); tone(ctx, t + 0.16, 140, 0.12, 0.25, "triangle"); },
  gin: (ctx, t) => [523, 659, 784, 1047].forEach((f, i) => tone(ctx, t + i * 0.1, f, 0.5, 0.1)),
  undercut: (ctx, t) => [392, 523, 659].forEach((f, i) => tone(ctx, t + i * 0.12, f, 0.45, 0.1, "triangle")),
  win: (ctx, t) => [523, 659, 784, 1047, 784, 1047].forEach((f, i) => tone(ctx, t + i * 0.13, f, 0.6, 0.09)),
  pass: (ctx, t) => tone(ctx, t, 330, 0.1, 0.06, "triangle"),
  error: (ctx, t) => tone(ctx, t, 220, 0.15, 0.08, "square"),
};

/** Play a named sound (draw, discard, deal, pass, knock, gin, undercut, win, error) unless muted. */
export function play(name) {
  const ctx = audio();
  const sound = SOUNDS[name];
  if (!ctx || !sound) return;
  try { sound(ctx, ctx.currentTime + 0.01); } catch { /* audio is a nicety */ }
}
