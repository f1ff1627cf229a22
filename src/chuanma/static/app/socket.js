// The WebSocket to /ws: JSON messages, a ping to keep it alive, and reconnection with backoff.
// The session cookie logs it in. onStatus("open" | "lost") lets the page show a banner.

const PING_MS = 20000;

export class Connection {
  constructor({ onMessage, onStatus, onUnauthorized }) {
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onUnauthorized = onUnauthorized;
    this.ws = null;
    this.retry = 0;
    this.timer = null;
    this.pinger = null;
    this.stopped = false;
    this.everOpen = false;
  }

  open() {
    this.stopped = false;
    const url = `${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`;
    const ws = new WebSocket(url);
    this.ws = ws;
    ws.onopen = () => {
      this.retry = 0;
      this.everOpen = true;
      this.onStatus("open");
      clearInterval(this.pinger);
      this.pinger = setInterval(() => this.send({ type: "ping" }), PING_MS);
    };
    ws.onmessage = (ev) => {
      let msg;
      try { msg = JSON.parse(ev.data); } catch { return; }
      this.onMessage(msg);
    };
    ws.onclose = (ev) => {
      clearInterval(this.pinger);
      if (this.ws !== ws || this.stopped) return;
      if (ev.code === 4401) { this.onUnauthorized(); return; }
      this.onStatus("lost");
      const delay = Math.min(8000, 500 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.open(), delay);
    };
  }

  /** Send a message (v is added); false when the socket is not open (the page resumes on reconnect). */
  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify({ v: 1, ...message }));
    return true;
  }

  /** Drop the socket as if the network had failed (reconnects by itself). */
  drop() { if (this.ws) this.ws.close(); }

  close() {
    this.stopped = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }
}
