import { afterEach, describe, expect, it, vi } from 'vitest'
import { READ_AHEAD_MS, api, forgetAnswers, heldAnswer, readAhead } from './api'

// The daemon's side (httpx.Revalidate) is tested in Go against the real
// middlewares; here, what the client does with the tags it is given.
describe('revalidation of GET answers', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    forgetAnswers()
  })

  function answers(...responses: Response[]) {
    const fetch = vi.spyOn(globalThis, 'fetch')
    for (const r of responses) fetch.mockResolvedValueOnce(r)
    return fetch
  }
  const json = (body: unknown, etag?: string) =>
    new Response(JSON.stringify(body), {
      status: 200,
      headers: { 'Content-Type': 'application/json', ...(etag ? { ETag: etag } : {}) },
    })
  const sentTag = (fetch: ReturnType<typeof answers>, call: number) =>
    (fetch.mock.calls[call][1]?.headers as Record<string, string>)['If-None-Match']

  it('sends the tag back and reuses the answer it holds on a 304', async () => {
    const fetch = answers(json({ name: 'Épicerie' }, 'W/"a"'), new Response(null, { status: 304 }))
    expect(await api.get('/api/user')).toEqual({ name: 'Épicerie' })
    expect(sentTag(fetch, 0)).toBeUndefined()
    expect(await api.get('/api/user')).toEqual({ name: 'Épicerie' })
    expect(sentTag(fetch, 1)).toBe('W/"a"')
  })

  it('takes a new answer and its new tag', async () => {
    const fetch = answers(json({ n: 1 }, 'W/"a"'), json({ n: 2 }, 'W/"b"'), new Response(null, { status: 304 }))
    await api.get('/api/user')
    expect(await api.get('/api/user')).toEqual({ n: 2 })
    expect(await api.get('/api/user')).toEqual({ n: 2 })
    expect(sentTag(fetch, 2)).toBe('W/"b"')
  })

  it('holds nothing outside the API, for other methods, or after the session ends', async () => {
    const fetch = answers(
      json({ ok: true }, 'W/"x"'),
      json({ ok: true }, 'W/"y"'),
      json({ n: 1 }, 'W/"a"'),
      json({ n: 1 }, 'W/"a"'),
    )
    await api.get('/auth/whatever')
    expect(heldAnswer('/auth/whatever')).toBeUndefined()
    await api.post('/api/needs', { a: 1 })
    expect(heldAnswer('/api/needs')).toBeUndefined()
    await api.get('/api/user')
    expect(heldAnswer('/api/user')).toBe('{"n":1}')
    forgetAnswers()
    await api.get('/api/user')
    expect(sentTag(fetch, 3)).toBeUndefined()
  })

  it('forgets an answer that comes without a tag', async () => {
    answers(json({ n: 1 }, 'W/"a"'), json({ n: 2 }))
    await api.get('/api/user')
    await api.get('/api/user')
    expect(heldAnswer('/api/user')).toBeUndefined()
  })
})

// The entry's reads ahead of a screen's code (screens.ts startScreen).
describe('reads ahead', () => {
  afterEach(() => {
    vi.restoreAllMocks()
    vi.useRealTimers()
    forgetAnswers()
  })

  const json = (body: unknown) =>
    new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } })

  // Fetches counted: the read ahead, any write, then each GET that asks.
  it.each([
    ['taken by the first GET of its address, once', [], 1, 2],
    ['dropped by a write in between', ['write'], 3, 4],
    ['dropped once stale', ['wait'], 2, 3],
    ['dropped at the session’s end', ['forget'], 2, 3],
  ])('%s', async (_, between, atFirstGet, inAll) => {
    vi.useFakeTimers({ toFake: ['Date'] })
    const fetch = vi.spyOn(globalThis, 'fetch')
    // Each answer says which fetch it was.
    fetch.mockImplementation(async () => json({ n: fetch.mock.calls.length }))
    readAhead('/api/payments')
    expect(fetch).toHaveBeenCalledTimes(1)
    for (const step of between) {
      if (step === 'write') await api.post('/api/needs', {})
      if (step === 'wait') vi.setSystemTime(Date.now() + READ_AHEAD_MS + 1)
      if (step === 'forget') forgetAnswers()
    }
    expect(await api.get('/api/payments')).toEqual({ n: atFirstGet })
    expect(fetch).toHaveBeenCalledTimes(atFirstGet)
    expect(await api.get('/api/payments')).toEqual({ n: inAll })
    expect(fetch).toHaveBeenCalledTimes(inAll)
  })

  it('leaves its failure to the GET that takes it', async () => {
    vi.spyOn(globalThis, 'fetch').mockResolvedValueOnce(
      new Response(JSON.stringify({ status: 401, title: 'Unauthorized', detail: 'Session expirée' }), {
        status: 401,
        headers: { 'Content-Type': 'application/problem+json' },
      }),
    )
    readAhead('/api/payments')
    await expect(api.get('/api/payments')).rejects.toThrow('Session expirée')
  })
})
