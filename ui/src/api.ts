// The one HTTP client of the UI. Same origin, session cookie, JSON in and out.
// Failures become `ApiError`, parsed from RFC 9457 problem+json (PRODUCT §12).

/** One field error of a problem+json body, e.g. {location: "body.email", message: "…"}. */
export interface FieldError {
  location: string
  message: string
  /** What the field held, or what the server offers instead (the import's sheets). */
  value?: unknown
}

/** An HTTP failure. `status` is 0 when the server could not be reached. */
export class ApiError extends Error {
  readonly status: number
  readonly title: string
  readonly detail: string
  readonly errors: FieldError[]

  constructor(status: number, title: string, detail: string, errors: FieldError[] = []) {
    super(detail || title || `HTTP ${status}`)
    this.name = 'ApiError'
    this.status = status
    this.title = title
    this.detail = detail
    this.errors = errors
  }

  /**
   * Field errors keyed by field name: "body.email" → "email".
   * The first message wins when a field has several.
   */
  fieldErrors(): Record<string, string> {
    const out: Record<string, string> = {}
    for (const { location, message } of this.errors) {
      const field = location.replace(/^body\./, '')
      if (!(field in out)) out[field] = message
    }
    return out
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'

function asString(value: unknown): string {
  return typeof value === 'string' ? value : ''
}

/** Builds an ApiError from a failed response, reading problem+json when present. */
export async function toApiError(response: Response): Promise<ApiError> {
  let body: unknown = null
  try {
    const text = await response.text()
    body = text ? JSON.parse(text) : null
  } catch {
    body = null
  }
  if (body && typeof body === 'object') {
    const problem = body as Record<string, unknown>
    const errors = Array.isArray(problem.errors)
      ? problem.errors
          .filter((e): e is Record<string, unknown> => !!e && typeof e === 'object')
          .map((e) => ({ location: asString(e.location), message: asString(e.message), value: e.value }))
      : []
    return new ApiError(
      typeof problem.status === 'number' ? problem.status : response.status,
      asString(problem.title) || response.statusText,
      asString(problem.detail),
      errors,
    )
  }
  return new ApiError(response.status, response.statusText, '')
}

/**
 * The last answer of each API address read with GET, with its ETag: the request
 * sends the tag back (If-None-Match) and a 304 answer reuses the text held here,
 * so an unchanged answer costs no bytes on the line (issue 42). Held in memory
 * only (the daemon answers Cache-Control: no-store, so no copy on disk); the
 * oldest address is forgotten beyond `heldAnswersMax`, and all of them when the
 * session ends (`forgetAnswers`).
 */
const heldAnswers = new Map<string, { etag: string; text: string }>()
const heldAnswersMax = 32

/** Forgets every answer held for revalidation (at logout, or a session reset), and the reads ahead. */
export function forgetAnswers(): void {
  heldAnswers.clear()
  readsAhead.clear()
}

/**
 * Reads asked for before the code that wants them has run (the entry starts
 * a screen's reads beside the user load, screens.ts `startScreen`, issue
 * 42): the first GET of the same address takes the answer, once, instead of
 * asking again. A read not taken within `READ_AHEAD_MS` of its start is
 * dropped, and every write drops them all: a later read asks afresh.
 */
const readsAhead = new Map<string, { at: number; answer: Promise<unknown> }>()
export const READ_AHEAD_MS = 30_000

/** Starts the GET of `path` now, for the first `api.get(path)` to take (the entry's reads ahead). */
export function readAhead(path: string): void {
  if (readsAhead.has(path)) return
  const answer = request<unknown>('GET', path)
  // Its failure is the taker's to report; one not taken is forgotten.
  answer.catch(() => undefined)
  readsAhead.set(path, { at: Date.now(), answer })
}

// The read ahead of `path`, taken once, if still fresh.
function takeReadAhead(path: string): Promise<unknown> | undefined {
  const ahead = readsAhead.get(path)
  if (!ahead) return undefined
  readsAhead.delete(path)
  return Date.now() - ahead.at <= READ_AHEAD_MS ? ahead.answer : undefined
}

/** The answer held for `path`, if any (for tests). */
export function heldAnswer(path: string): string | undefined {
  return heldAnswers.get(path)?.text
}

function holdAnswer(path: string, etag: string, text: string): void {
  heldAnswers.delete(path)
  heldAnswers.set(path, { etag, text })
  if (heldAnswers.size > heldAnswersMax) {
    const oldest = heldAnswers.keys().next().value
    if (oldest !== undefined) heldAnswers.delete(oldest)
  }
}

/**
 * Sends one request. `body`, when given, is sent as JSON (FormData is sent as is);
 * `signal` cancels it (the promise then rejects with the AbortError).
 * Resolves with the parsed JSON, or `undefined` for an empty body (204).
 */
export async function request<T>(method: Method, path: string, body?: unknown, signal?: AbortSignal): Promise<T> {
  const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' }
  let payload: BodyInit | undefined
  if (body instanceof FormData) {
    payload = body
  } else if (body !== undefined) {
    headers['Content-Type'] = 'application/json'
    payload = JSON.stringify(body)
  }
  if (method !== 'GET') readsAhead.clear()
  const revalidates = method === 'GET' && path.startsWith('/api/')
  const held = revalidates ? heldAnswers.get(path) : undefined
  if (held) headers['If-None-Match'] = held.etag
  let response: Response
  try {
    response = await fetch(path, { method, headers, body: payload, credentials: 'same-origin', signal })
  } catch (err) {
    if (signal?.aborted) throw err
    throw new ApiError(0, 'Network error', err instanceof Error ? err.message : String(err))
  }
  if (response.status === 304 && held) return (held.text ? JSON.parse(held.text) : undefined) as T
  if (!response.ok) throw await toApiError(response)
  const text = await response.text()
  const etag = response.headers.get('ETag')
  if (revalidates && etag) holdAnswer(path, etag, text)
  else if (revalidates) heldAnswers.delete(path)
  return (text ? JSON.parse(text) : undefined) as T
}

/** Shorthands over `request`. */
export const api = {
  get: <T>(path: string, signal?: AbortSignal) =>
    (takeReadAhead(path) as Promise<T> | undefined) ?? request<T>('GET', path, undefined, signal),
  post: <T>(path: string, body?: unknown) => request<T>('POST', path, body),
  put: <T>(path: string, body?: unknown) => request<T>('PUT', path, body),
  del: <T>(path: string) => request<T>('DELETE', path),
}

/** A printable message for any thrown value. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiError) return err.detail || err.title || `HTTP ${err.status}`
  if (err instanceof Error) return err.message
  return String(err)
}
