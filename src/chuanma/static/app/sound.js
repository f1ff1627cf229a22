// Sound effects made with WebAudio (no audio files); muted state remembered in localStorage.

const STORE = "chuanma.muted";
let ctx = null;
let muted = (() => { try { return localStorage.getItem(STORE) === "1"; } catch { return false; } })();

export function isMuted() { return muted; }

export function setMuted(value) {
  muted = value;
  try { localStorage.setItem(STORE, value ? "1" : "0"); } catch { /* not remembered */ }
}

function tone(freq, start, length, type = "sine", gain = 0.08) {
  const osc = ctx.createOscillator();
  const amp = ctx.createGain();
  osc.type = type;
  osc.frequency.value = freq;
  amp.gain.setValueAtTime(gain, ctx.currentTime + start);
  amp.gain.exponentialRampToValueAtTime(0.0001, ctx.currentTime + start + length);
  osc.connect(amp).connect(ctx.destination);
  osc.start(ctx.currentTime + start);
  osc.stop(ctx.currentTime + start + length + 0.02);
}

const EFFECTS = {
  discard: () => tone(420, 0, 0.07, "triangle", 0.1),
  draw: () => tone(880, 0, 0.04, "sine", 0.03),
  pong: () => { tone(523, 0, 0.12, "square", 0.05); tone(659, 0.1, 0.14, "square", 0.05); },
  kong: () => { tone(392, 0, 0.12, "square", 0.05); tone(523, 0.1, 0.12, "square", 0.05); tone(784, 0.2, 0.18, "square", 0.05); },
  win: () => [523, 659, 784, 1047].forEach((f, i) => tone(f, i * 0.09, 0.22, "triangle", 0.09)),
  prompt: () => tone(1046, 0, 0.12, "sine", 0.05),
  tick: () => tone(1500, 0, 0.03, "square", 0.025),
};

/** Play an effect by name (nothing when muted or when the browser has no WebAudio). */
export function play(name) {
  if (muted || !EFFECTS[name]) return;
  try {
    ctx ??= new (window.AudioContext || window.webkitAudioContext)();
    if (ctx.state === "suspended") ctx.resume();
    EFFECTS[name]();
  } catch { /* no sound */ }
}
