import { afterEach, describe, expect, it, vi } from 'vitest'
import { api, forgetAnswers, heldAnswer } from './api'

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
