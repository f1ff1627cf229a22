// HTTP calls to the server: JSON in and out, the session cookie, errors carrying the server's reason.

export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** Call path; body (an object) is sent as JSON. Resolves to the JSON answer or throws ApiError. */
export async function api(path, { method = "GET", body } = {}) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (exc) {
    throw new ApiError(0, "network", String(exc.message || exc));
  }
  let data = null;
  try { data = await response.json(); } catch { /* not JSON */ }
  if (!response.ok) {
    throw new ApiError(response.status, data?.code || "http_" + response.status,
      data?.message || response.statusText || "request failed");
  }
  return data;
}
