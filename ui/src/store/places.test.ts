import { beforeEach, describe, expect, it } from 'vitest'
import { ANNECY, THONES, stubPlaces } from '../test/places'
import { PLACES_KEPT, places, placesKey, resetPlaces, searchPlaces } from './places'

beforeEach(() => resetPlaces())

describe('searchPlaces', () => {
  it('asks the server once per query and keeps the answer', async () => {
    const fetch = stubPlaces({ '74230': [THONES] })
    const first = await searchPlaces(' 74230 ', { limit: 5 })
    expect(first.map((m) => m.city.name)).toEqual(['Thônes'])
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(String(fetch.mock.calls[0][0])).toBe('/api/places?q=74230&limit=5')
    expect((await searchPlaces('74230', { limit: 5 })).map((m) => m.city.name)).toEqual(['Thônes'])
    expect(fetch).toHaveBeenCalledTimes(1)
    // Another limit is another question.
    await searchPlaces('74230', { limit: 10 })
    expect(fetch).toHaveBeenCalledTimes(2)
  })

  it('answers a blank query with nothing, without a request', async () => {
    const fetch = stubPlaces({})
    expect(await searchPlaces('   ')).toEqual([])
    expect(fetch).not.toHaveBeenCalled()
  })

  it('sends what was typed encoded, cut at 100 characters', async () => {
    const fetch = stubPlaces({})
    await searchPlaces('74000 Annecy & Co')
    expect(String(fetch.mock.calls[0][0])).toBe('/api/places?q=74000%20Annecy%20%26%20Co&limit=10')
    await searchPlaces('x'.repeat(300))
    expect(String(fetch.mock.calls[1][0])).toBe(`/api/places?q=${'x'.repeat(100)}&limit=10`)
  })

  it('keeps nothing of a cancelled request', async () => {
    stubPlaces({ annecy: [ANNECY] }, { delay: 50 })
    const controller = new AbortController()
    const asked = searchPlaces('annecy', { signal: controller.signal })
    controller.abort()
    await expect(asked).rejects.toThrow(/abort/i)
    expect(places.answers[placesKey('annecy', 10)]).toBeUndefined()
  })

  it('rejects an answer of the wrong shape, and leaves out places of the wrong shape', async () => {
    const fetch = stubPlaces({ annecy: [ANNECY, { ...THONES, latitude: 'nord' } as never] })
    expect((await searchPlaces('annecy')).map((m) => m.city.name)).toEqual(['Annecy'])
    fetch.mockResolvedValueOnce(new Response(JSON.stringify({ villes: [] })))
    await expect(searchPlaces('thones')).rejects.toThrow('réponse inattendue')
  })

  it(`keeps the last ${PLACES_KEPT} answers`, async () => {
    stubPlaces({})
    for (let i = 0; i < PLACES_KEPT + 5; i++) await searchPlaces(`q${i}`)
    expect(places.order).toHaveLength(PLACES_KEPT)
    expect(Object.keys(places.answers)).toHaveLength(PLACES_KEPT)
    expect(places.answers[placesKey('q0', 10)]).toBeUndefined()
    expect(places.answers[placesKey(`q${PLACES_KEPT + 4}`, 10)]).toEqual([])
  })
})
