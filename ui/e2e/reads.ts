// What the user load carried before issue 42 split it into each screen's
// reads: the user load, the catalogue, the user's needs (a shop's own, a
// producer's traded ones), its orders from 12 months back and the feed's
// first page, merged into one object — for the tests that check them
// through the API beside the screens.
import type { APIRequestContext } from '@playwright/test'

export async function everyScreen<T>(request: APIRequestContext): Promise<T> {
  const read = async (path: string) => {
    const res = await request.get(path)
    if (!res.ok()) throw new Error(`GET ${path}: ${res.status()}`)
    return res.json()
  }
  const [user, catalogue, needs, orders, events] = await Promise.all(
    ['/api/user', '/api/catalogue', '/api/needs', '/api/orders', '/api/events'].map(read),
  )
  return { ...user, ...catalogue, needs, orders, events } as T
}
